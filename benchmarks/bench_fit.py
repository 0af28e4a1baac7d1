"""Keras ``fit`` per batch: traced (Keras's train_function, the default) and run eagerly,
for one simdist tree or several side by side (a tree from before fit traced its step
function runs the default fit's Python at every step).

Workload (bench_eager's fit): Dense16/Dense1 on 512 examples in batches of 64, default
strategy, Adam, binary cross-entropy and accuracy; a first fit of one epoch (the traces),
then passes of 3 epochs, each child in a fresh, isolated interpreter per tree and turn.

Columns: CPU milliseconds per batch (``time.process_time``) of a child's fastest of three
passes, best / median over the turns; ``fit`` is the default fit, ``run_eagerly`` the
eager one; the last line gives the second tree over the first.

Run: .venv/bin/python benchmarks/bench_fit.py [--turns 5] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
THIS_TREE = os.path.dirname(HERE)
PASSES = 3


def child():
    """Time both fits with the simdist first on sys.path; print one JSON line."""
    import warnings

    warnings.simplefilter("ignore")
    os.environ.setdefault("SIMDIST_WARNINGS", "0")
    from bench_eager import _fingerprint, _fit_model

    import simdist as tf
    from simdist.testing import reset_world

    out = {"file": tf.__file__}
    for name, eager in (("fit", False), ("run_eagerly", True)):
        reset_world()
        model, ds = _fit_model(tf, run_eagerly=eager)
        model.fit(ds, epochs=1, verbose=0)
        passes = []
        for _ in range(PASSES):
            cpu = time.process_time()
            model.fit(ds, epochs=3, verbose=0)
            passes.append((time.process_time() - cpu) / (3 * 8))
        out[name] = min(passes)
        out[name + "_sim"] = _fingerprint()
    print(json.dumps(out))


def main(argv=None) -> int:
    from bench_eager import run_child

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--tree", action="append",
                        help="a simdist source tree; repeat to compare trees side by side")
    args = parser.parse_args(argv)
    trees = [os.path.abspath(t) for t in (args.tree or [THIS_TREE])]
    runs = {t: [] for t in trees}
    for _ in range(args.turns):
        for tree in trees:
            runs[tree].append(run_child(tree, "bench_fit"))
    med = statistics.median
    print(f"{args.turns} turns, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          "CPU ms per batch, best / median")
    print(f"{'tree':40} {'fit':>15} {'run_eagerly':>15}")
    for tree, rows in runs.items():
        fit = [r["fit"] * 1e3 for r in rows]
        eager = [r["run_eagerly"] * 1e3 for r in rows]
        print(f"{tree[-40:]:40} {min(fit):6.2f} / {med(fit):6.2f} "
              f"{min(eager):6.2f} / {med(eager):6.2f}")
    if len(trees) == 2:
        a, b = (min(r["fit"] for r in runs[t]) for t in trees)
        c, d = (min(r["run_eagerly"] for r in runs[t]) for t in trees)
        print(f"second / first tree: fit {b / a:.2f}x, run_eagerly fit {d / c:.2f}x")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.exit(main())
