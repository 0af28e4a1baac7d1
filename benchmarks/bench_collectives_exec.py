"""Executing a ring all-reduce with values vs the bare NumPy baseline, in one run.

Baseline: sum the 8 arrays once and copy the result 8 times (the least work any
all-reduce must do). Target from issue 3: simdist's ring within 3x of the baseline.
Run: .venv/bin/python benchmarks/bench_collectives_exec.py [--mib 64] [--replicas 8]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simdist import collectives


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=64)
    parser.add_argument("--replicas", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.mib * 2**20 // 4
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(n, dtype=np.float32) for _ in range(args.replicas)]

    def baseline():
        total = values[0].copy()
        for v in values[1:]:
            np.add(total, v, out=total)
        return [total.copy() for _ in values]

    def ring():
        return collectives.all_reduce(values, "ring").values

    t_base = best_of(baseline, args.repeat)
    t_ring = best_of(ring, args.repeat)
    print(f"{args.replicas} replicas x {args.mib} MiB float32")
    print(f"  numpy baseline (sum once + {args.replicas} copies): {t_base * 1e3:8.1f} ms")
    print(f"  simdist ring all_reduce with values:            {t_ring * 1e3:8.1f} ms")
    print(f"  ratio {t_ring / t_base:.2f}x (target: within 3x)")


if __name__ == "__main__":
    main()
