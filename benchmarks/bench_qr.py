"""TF's float32 QR as simdist emulates it (Eigen's blocked Householder QR, bit for bit)
against ``numpy.linalg.qr`` (LAPACK, not TF's bits) on the same matrices, in one run.

The shapes are the Keras Orthogonal initializer's for GRU(256)'s recurrent kernel (the QR
of 768x256) and LSTM(512)'s (2048x512, the largest modelled). Each tree (``--tree``,
repeatable; default: the one this script lives in) runs in its own child, turn by turn, so
that trees compare under the same load; a turn times both QRs in CPU seconds (a busy
machine inflates them less than wall time) and the table gives the best of the turns and
the ratio emulation / NumPy. One BLAS thread, as the tests run.
Run: .venv/bin/python benchmarks/bench_qr.py [--turns 3] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = ((768, 256), (2048, 512))
CHILD = """
import json, sys, time
sys.path.insert(0, {tree!r})
import numpy as np
from simdist.framework.ops import eigen_householder_qr
out = {{}}
for m, n in {shapes!r}:
    a = np.random.default_rng(0).standard_normal((m, n)).astype(np.float32)
    t = time.process_time()
    q, r = eigen_householder_qr.qr(a, full_matrices=False)
    emulated = time.process_time() - t
    t = time.process_time()
    np.linalg.qr(a)
    out[f"{{m}}x{{n}}"] = [emulated, time.process_time() - t, float(np.abs(q @ r - a).max())]
print(json.dumps(out))
"""


def one(tree):
    """One fresh interpreter timing both QRs of every shape with ``tree`` first on its path."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-I", "-c", CHILD.format(tree=tree, shapes=SHAPES)],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--tree", action="append",
                        help="a simdist source tree; repeat to compare trees turn by turn")
    args = parser.parse_args()
    trees = [os.path.abspath(t) for t in (args.tree or [HERE_TREE])]
    best = {t: {} for t in trees}
    for _ in range(args.turns):
        for tree in trees:
            for shape, (emulated, lapack, error) in one(tree).items():
                old = best[tree].get(shape, (float("inf"), float("inf"), error))
                best[tree][shape] = (min(old[0], emulated), min(old[1], lapack), error)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; best of "
          f"{args.turns} turns, CPU seconds")
    for tree in trees:
        print(f"tree {tree}")
        for shape, (emulated, lapack, error) in best[tree].items():
            print(f"  QR {shape}: emulation {emulated:.3f} s, numpy.linalg.qr {lapack:.4f} s, "
                  f"ratio {emulated / lapack:.0f}x (max |QR - A| {error:.1e})")


if __name__ == "__main__":
    main()
