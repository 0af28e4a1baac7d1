"""TF's float32 MatMul as simdist emulates it (onednn_sgemm: oneDNN's fused multiply-add
chains, bit for bit) against ``numpy.matmul`` (BLAS, not TF's bits) on seed 001's products.

The shapes are the ones one run of tests/seeds/data/seed_001.py multiplies, with how often
(SEED_001: the custom loop's stacked replicas' batched products and its 2-D ones). Each
tree (``--tree``, repeatable; default: the one this script lives in) runs in a fresh
interpreter, trees taking turns so that they compare under the same load; a turn times
``--calls`` products of each shape in thread CPU seconds (a busy machine inflates them less
than wall time). The table gives the best turn per shape, the ratio emulation / NumPy, and
the emulation's CPU time for one seed-001 run (calls x time). One BLAS thread.
Run: .venv/bin/python benchmarks/bench_matmul.py [--turns 3] [--calls 50] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (a's shape, b's shape, transpose_a, transpose_b): calls in one seed-001 custom loop
# (bench_seed001_vs_tf.py --child simdist, counted at cf0f1c5), the shapes sgemm gets (the
# transposes applied, to views): the stacked replicas' batched products and the 2-D ones
SEED_001 = {
    ((4, 64, 10), (4, 10, 16), False, False): 193, ((4, 64, 16), (4, 16, 8), False, False): 193,
    ((4, 64, 8), (4, 8, 1), False, False): 193, ((4, 64, 1), (4, 1, 8), False, True): 193,
    ((4, 8, 64), (4, 64, 1), True, False): 193, ((4, 64, 8), (4, 8, 16), False, True): 193,
    ((4, 16, 64), (4, 64, 8), True, False): 193, ((4, 10, 64), (4, 64, 16), True, False): 193,
    ((64, 10), (10, 16), False, False): 40, ((64, 16), (16, 8), False, False): 40,
    ((64, 8), (8, 1), False, False): 40, ((4, 10), (10, 16), False, False): 32,
    ((4, 16), (16, 8), False, False): 32, ((4, 8), (8, 1), False, False): 32,
    ((64, 1), (1, 8), False, True): 28, ((8, 64), (64, 1), True, False): 28,
    ((64, 8), (8, 16), False, True): 28, ((16, 64), (64, 8), True, False): 28,
    ((10, 64), (64, 16), True, False): 28, ((4, 1), (1, 8), False, True): 24,
    ((8, 4), (4, 1), True, False): 24, ((4, 8), (8, 16), False, True): 24,
    ((16, 4), (4, 8), True, False): 24, ((10, 4), (4, 16), True, False): 24,
    ((4, 4, 10), (4, 10, 16), False, False): 3, ((4, 4, 16), (4, 16, 8), False, False): 3,
    ((4, 4, 8), (4, 8, 1), False, False): 3, ((4, 4, 1), (4, 1, 8), False, True): 3,
    ((4, 8, 4), (4, 4, 1), True, False): 3, ((4, 4, 8), (4, 8, 16), False, True): 3,
    ((4, 16, 4), (4, 4, 8), True, False): 3, ((4, 10, 4), (4, 4, 16), True, False): 3,
    ((10000, 10), (10, 1), False, False): 1,
}
CHILD = """
import json, sys, time
sys.path.insert(0, {tree!r})
import numpy as np
from simdist.framework.ops import onednn_sgemm
rng = np.random.default_rng(0)
times = []
for sa, sb, ta, tb in {shapes!r}:
    a = rng.standard_normal(sa[:-2] + sa[:-3:-1] if ta else sa).astype(np.float32)
    b = rng.standard_normal(sb[:-2] + sb[:-3:-1] if tb else sb).astype(np.float32)
    a, b = (a.swapaxes(-1, -2) if ta else a), (b.swapaxes(-1, -2) if tb else b)
    row = []
    for run in (lambda: onednn_sgemm.sgemm(a, b, transposed=(ta, tb)), lambda: np.matmul(a, b)):
        run()
        t = time.thread_time()
        for _ in range({calls}):
            run()
        row.append((time.thread_time() - t) / {calls})
    times.append(row)
print(json.dumps(times))
"""


def turn(tree, calls):
    """[emulation, numpy] seconds per product of each shape, timed in a fresh interpreter."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    child = CHILD.format(tree=tree, shapes=list(SEED_001), calls=calls)
    done = subprocess.run([sys.executable, "-I", "-c", child], capture_output=True, text=True,
                          check=True, env=env)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--tree", action="append",
                        help="a simdist source tree; repeat to compare trees turn by turn")
    args = parser.parse_args()
    trees = [os.path.abspath(t) for t in (args.tree or [HERE_TREE])]
    best = {tree: [[float("inf")] * 2 for _ in SEED_001] for tree in trees}
    for _ in range(args.turns):
        for tree in trees:
            for kept, timed in zip(best[tree], turn(tree, args.calls)):
                kept[:] = map(min, kept, timed)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; best of "
          f"{args.turns} turns of {args.calls} products, thread CPU microseconds")
    for tree in trees:
        print(f"tree {tree}")
        for (sa, sb, ta, tb), (emulated, blas) in zip(SEED_001, best[tree]):
            flags = "".join(f" transpose_{x}" for x, on in (("a", ta), ("b", tb)) if on)
            print(f"  {sa} @ {sb}{flags}: emulation {emulated * 1e6:7.0f}, numpy.matmul "
                  f"{blas * 1e6:5.1f}, ratio {emulated / blas:5.0f}x")
        run = sum(calls * emulated for calls, (emulated, _) in zip(SEED_001.values(),
                                                                  best[tree]))
        numpy = sum(calls * blas for calls, (_, blas) in zip(SEED_001.values(), best[tree]))
        print(f"  one seed-001 run: emulation {run:.2f} s, numpy.matmul {numpy:.3f} s, "
              f"ratio {run / numpy:.0f}x")


if __name__ == "__main__":
    main()
