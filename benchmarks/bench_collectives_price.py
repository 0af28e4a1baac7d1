"""Cost-only pricing of a ring all-reduce over up to 4096 devices, and how it grows.

Target from issue 3: 4096 devices under 2 s on a 2-core machine. The ring is priced as two
step patterns (reduce-scatter, all-gather) repeated p-1 times, so the work is routing p
neighbour pairs once and a few array operations: about linear in p.
Run: .venv/bin/python benchmarks/bench_collectives_price.py
"""

from __future__ import annotations

import time

from simdist import collectives
from simdist.hardware import TOPOLOGIES


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main():
    print(f"{'devices':>8} {'topology':<28} {'build s':>8} {'price s':>8} {'busbw GB/s':>11}")
    rows = []
    for p in (256, 512, 1024, 2048, 4096):
        for label, build in (
            ("nvswitch (default)", lambda p=p: TOPOLOGIES["nvswitch"](p)),
            ("fat-tree 8xA100/node, 8 HDR", lambda p=p: TOPOLOGIES["fat-tree"](p // 8,
                                                                              nics_per_node=8)),
        ):
            t_build, graph = timed(build)
            t_price, cost = timed(lambda graph=graph: collectives.price(
                "all_reduce", "ring", 2**30, graph))
            rows.append((p, label, t_price))
            print(f"{p:>8} {label:<28} {t_build:8.3f} {t_price:8.3f} {cost.busbw / 1e9:11.1f}")
    for label in {r[1] for r in rows}:
        small = next(r[2] for r in rows if r[1] == label and r[0] == 256)
        big = next(r[2] for r in rows if r[1] == label and r[0] == 4096)
        print(f"{label}: 16x the devices -> {big / small:.1f}x the pricing time")
    worst = max(r[2] for r in rows if r[0] == 4096)
    print(f"4096 devices: {worst:.2f} s worst case (target < 2 s): "
          f"{'OK' if worst < 2 else 'MISSED'}")


if __name__ == "__main__":
    main()
