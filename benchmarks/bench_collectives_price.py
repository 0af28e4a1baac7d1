"""Cost-only pricing of a ring all-reduce over up to 65,536 devices, and how it grows.

Targets from issue 21: 4096 devices on a fat-tree under 0.05 s, 65,536 under 1 s. The ring
is two rotating step patterns (reduce-scatter, all-gather) priced by symmetry
(collectives/symmetry.py): each distinct transfer is routed once, and a phase's p-1 steps
are priced once when they provably cost the same.

Columns:
  build s   -- building the networkx graph (not part of pricing).
  first s   -- the first price() on that graph: reads its links in one pass over the
               adjacency (hardware/link_table.py) and routes every distinct neighbour pair
               as arrays (hardware/route_batch.py: the one/two-hop rule and a preset's uplink
               hints; Dijkstra only for the rest).
  cached s  -- the best of a few more price() calls on the same graph: the Topology, its
               routes and the price itself are cached (the graph is read again to see it
               is unedited), so this is mostly that check.
  cpu s     -- the same calls' process CPU time (``time.process_time``): on a machine
               shared with other jobs the wall time includes waiting for a core; the CPU
               time is close to what an idle machine's wall time would be.
With ``--baseline REV`` (issue 21 was filed against 8521b4e's code: 0.40 s for the first
pricing of 4096 devices), the targets are also read as ratios in one run, the host's speed
taken out: in turns, fresh interpreters price the 4096-device fat-tree once with REV's code
and once with this tree's (and the 65,536-device one with this tree's); REV's median CPU
time against the issue's 0.40 s is how much slower this host runs now, and this tree's
medians divided by that factor are its times on the host the targets were set on.
Run: .venv/bin/python benchmarks/bench_collectives_price.py [--max-devices 65536]
     [--baseline 8521b4e --turns 5]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

from simdist import collectives
from simdist.hardware import TOPOLOGIES

TARGETS = {4096: 0.05, 65536: 1.0}
# Issue 21's record of the baseline's first pricing of 4096 fat-tree devices (seconds).
ISSUE_RECORD = {4096: 0.40}
HERE_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHILD = """
import sys, time
sys.path.insert(0, {tree!r})
from simdist import collectives
from simdist.hardware import TOPOLOGIES
collectives.price("all_reduce", "ring", 2**30, TOPOLOGIES["fat-tree"](2, nics_per_node=8))
graph = TOPOLOGIES["fat-tree"]({p} // 8, nics_per_node=8)
t = time.process_time()
collectives.price("all_reduce", "ring", 2**30, graph)
print(time.process_time() - t)
"""
TOPOLOGY_BUILDERS = {
    "nvswitch (default)": lambda p: TOPOLOGIES["nvswitch"](p),
    "fat-tree 8xA100/node, 8 HDR": lambda p: TOPOLOGIES["fat-tree"](p // 8, nics_per_node=8),
}


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def cpu_timed(fn):
    """(wall s, cpu s, result) of one call."""
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t, time.process_time() - c, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-devices", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=3, help="cached calls; best kept")
    parser.add_argument("--baseline", metavar="REV",
                        help="also read the targets against REV's code in the same run")
    parser.add_argument("--turns", type=int, default=5, help="turns with --baseline")
    args = parser.parse_args()
    sizes = [p for p in (256, 1024, 4096, 16384, 65536) if p <= args.max_devices]
    print(f"{'devices':>8} {'topology':<28} {'build s':>8} {'first s':>8} {'cpu s':>7} "
          f"{'cached s':>9} {'cpu s':>7} {'busbw GB/s':>11}")
    rows = []
    for p in sizes:
        for label, build in TOPOLOGY_BUILDERS.items():
            t_build, graph = timed(lambda build=build, p=p: build(p))

            def price(graph=graph):
                return collectives.price("all_reduce", "ring", 2**30, graph)

            t_first, c_first, cost = cpu_timed(price)
            cached = [cpu_timed(price) for _ in range(args.repeat)]
            t_cached, c_cached = min(c[0] for c in cached), min(c[1] for c in cached)
            rows.append((p, label, t_first, t_cached, c_first, c_cached))
            print(f"{p:>8} {label:<28} {t_build:8.3f} {t_first:8.3f} {c_first:7.3f} "
                  f"{t_cached:9.4f} {c_cached:7.4f} {cost.busbw / 1e9:11.1f}")
    for label in TOPOLOGY_BUILDERS:
        mine = [r for r in rows if r[1] == label]
        small, big = mine[0], mine[-1]
        print(f"{label}: {big[0] // small[0]}x the devices -> {big[2] / small[2]:.1f}x the "
              f"first call, {big[3] / small[3]:.1f}x the cached call")
    for p, target in TARGETS.items():
        for r in (r for r in rows if r[0] == p):
            print(f"{p} devices, {r[1]} (target < {target} s): cached {r[3]:.3f} s wall, "
                  f"{r[5]:.3f} s cpu ({'OK' if r[5] < target else 'MISSED'}); first "
                  f"{r[2]:.3f} s wall, {r[4]:.3f} s cpu "
                  f"({'OK' if r[4] < target else 'MISSED'})")
    if args.baseline:
        host_scaled(args.baseline, args.turns, [p for p in TARGETS if p in sizes])


def first_price_cpu(tree: str, p: int) -> float:
    """CPU seconds of a fresh interpreter's first pricing of ``p`` fat-tree devices."""
    out = subprocess.run([sys.executable, "-I", "-c", CHILD.format(tree=tree, p=p)],
                         capture_output=True, text=True, check=True, timeout=600)
    return float(out.stdout.split()[-1])


def host_scaled(baseline: str, turns: int, sizes) -> None:
    """The first pricings in the terms of the host the targets were set on (see the module
    docstring): ``baseline``'s 4096-device time against ISSUE_RECORD, turn by turn."""
    with tempfile.TemporaryDirectory() as old_tree:
        archive = subprocess.run(["git", "-C", HERE_TREE, "archive", baseline, "simdist"],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(old_tree, filter="data")
        times = {("baseline", 4096): [], **{("this tree", p): [] for p in sizes}}
        for _ in range(turns):
            times["baseline", 4096].append(first_price_cpu(old_tree, 4096))
            for p in sizes:
                times["this tree", p].append(first_price_cpu(HERE_TREE, p))
    median = {k: statistics.median(v) for k, v in times.items()}
    factor = median["baseline", 4096] / ISSUE_RECORD[4096]
    print(f"\nload average {os.getloadavg()[0]:.1f}; {turns} turns, medians of CPU seconds")
    print(f"baseline {baseline}, 4096 devices: {median['baseline', 4096]:.3f} s "
          f"({', '.join(f'{t:.3f}' for t in times['baseline', 4096])}) against "
          f"{ISSUE_RECORD[4096]} s when issue 21 was filed: this host runs {factor:.2f}x as slow")
    for p in sizes:
        here = median["this tree", p]
        print(f"this tree, {p} devices: {here:.3f} s "
              f"({', '.join(f'{t:.3f}' for t in times['this tree', p])}); "
              f"{here / median['baseline', 4096]:.3f}x the baseline's 4096; on the issue's "
              f"host {here / factor:.3f} s (target < {TARGETS[p]} s: "
              f"{'OK' if here / factor < TARGETS[p] else 'MISSED'})")


if __name__ == "__main__":
    main()
