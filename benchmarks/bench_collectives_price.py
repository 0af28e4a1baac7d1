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
Run: .venv/bin/python benchmarks/bench_collectives_price.py [--max-devices 65536]
"""

from __future__ import annotations

import argparse
import time

from simdist import collectives
from simdist.hardware import TOPOLOGIES

TARGETS = {4096: 0.05, 65536: 1.0}
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


if __name__ == "__main__":
    main()
