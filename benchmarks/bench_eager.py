"""The eager per-op path: seed 001's step run eagerly and an eager Keras fit, against plain
NumPy, for one simdist tree or several side by side.

Lessons, the app and eager Keras (``run_eagerly=True``, fit's eager fallback, the body of
``strategy.run`` in eager code) run ops one by one: each op converts its inputs, checks
dtypes, runs its NumPy kernel, charges the simulated device, records a trace event and a
tape entry. This benchmark times that path (the traced step's replay is
``bench_traced_step.py``).

Workloads (each in a fresh, isolated interpreter per tree and turn; turns alternate between
the trees so that both see the same load):
  step   seed 001's ``distributed_train_step`` (tests/seeds/data/seed_001.py: Dense16/8/1,
         Adam, 4 replicas of the default machine; its dataset is not distributed, so each
         replica computes on the whole global batch of 256) with tracing refused, so its
         Python runs eagerly at every call: passes over the 39 batches after the first.
  fit    ``model.fit(run_eagerly=True)`` of Dense16/Dense1 on 512 examples in batches of 64
         (default strategy, one device): passes of 3 epochs.
  numpy  the same maths as seed 001's step by hand on one device (forward, BCE, backward,
         Adam: bench_seed001_vs_tf.py's baseline), per step.

Columns: CPU milliseconds per step (``time.process_time``: all threads; the fairer
measure on a shared machine) of a child's fastest of three passes, the best and the
median over the turns; ``x numpy`` is simdist's best over NumPy's best. ``clocks`` is a
fingerprint of every simulated device clock, trace length and memory peak after the
runs: equal across trees when the change kept the simulation bit-identical.

Run: .venv/bin/python benchmarks/bench_eager.py [--turns 5] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
THIS_TREE = os.path.dirname(HERE)
PASSES = 3  # passes over each workload per child; the fastest is kept


def _seed_step(tf):
    """Seed 001's step and its first 40 batches (bench_traced_step's setup of the listing)."""
    from bench_traced_step import _setup

    scope = _setup(tf)
    return scope["distributed_train_step"], list(scope["dataset"].take(40))


def _fit_model(tf, run_eagerly=True):
    tf.random.set_seed(0)
    x = tf.random.normal((512, 10))
    y = tf.cast(tf.random.normal((512, 1)) > 0, tf.float32)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu", input_shape=(10,)),
                                 tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"],
                  run_eagerly=run_eagerly)
    return model, ds


def _fingerprint():
    from simdist.hardware.machine import get_machine

    m = get_machine()
    return [[d.name, repr(d.clock), d.peak_memory, len(d.trace.events)]
            for d in m.devices.values()]


def child():
    """Time the workloads with the simdist first on sys.path; print one JSON line."""
    import warnings

    warnings.simplefilter("ignore")
    os.environ.setdefault("SIMDIST_WARNINGS", "0")
    import simdist as tf
    from simdist.framework import func_graph
    from simdist.testing import reset_world

    func_graph.register_eager_condition(lambda: "the benchmark's eager mode")
    out = {"file": tf.__file__}
    reset_world()
    step, batches = _seed_step(tf)
    step(batches[0])  # first call: slots, warm caches
    passes = []
    for _ in range(PASSES):  # the least disturbed pass counts
        cpu = time.process_time()
        for b in batches[1:]:
            step(b)
        passes.append((time.process_time() - cpu) / (len(batches) - 1))
    out["step"] = min(passes)
    out["step_sim"] = _fingerprint()
    reset_world()
    model, ds = _fit_model(tf)
    model.fit(ds, epochs=1, verbose=0)
    passes = []
    for _ in range(PASSES):
        cpu = time.process_time()
        model.fit(ds, epochs=3, verbose=0)
        passes.append((time.process_time() - cpu) / (3 * 8))
    out["fit"] = min(passes)
    out["fit_sim"] = _fingerprint()
    out["numpy"] = _numpy_step()
    print(json.dumps(out))


def _numpy_step():
    import numpy as np

    sys.path.insert(0, HERE)
    from bench_seed001_vs_tf import (
        GLOBAL_BATCH_SIZE,
        NUM_SAMPLES,
        SEED,
        adam_update,
        numpy_dataset,
        numpy_params,
        numpy_step,
    )

    rng = np.random.default_rng(SEED)
    features, labels = numpy_dataset(np, rng)
    params = numpy_params(np, rng)
    slots = ([np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params])
    starts = range(0, NUM_SAMPLES - GLOBAL_BATCH_SIZE, GLOBAL_BATCH_SIZE)
    cpu = time.process_time()
    for step, start in enumerate(starts, 1):
        _, grads, _ = numpy_step(np, params, features[start:start + GLOBAL_BATCH_SIZE],
                                 labels[start:start + GLOBAL_BATCH_SIZE])
        adam_update(np, params, grads, slots, step)
    return (time.process_time() - cpu) / len(starts)


def run_child(tree, module="bench_eager"):
    """``module.child()`` in a fresh interpreter with ``tree`` first on sys.path: its JSON."""
    code = (f"import sys; sys.path.insert(0, {tree!r}); sys.path.insert(1, {HERE!r}); "
            f"import {module}; {module}.child()")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         timeout=600, cwd="/")
    if out.returncode:
        raise SystemExit(f"child for {tree} failed:\n{out.stderr[-3000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if not result["file"].startswith(os.path.join(tree, "")):
        raise SystemExit(f"the child imported {result['file']}, not the tree {tree}")
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=5)
    parser.add_argument("--tree", action="append",
                        help="a simdist source tree (holding simdist/ and tests/seeds); "
                             "repeat to compare trees side by side; default: this one")
    args = parser.parse_args(argv)
    trees = [os.path.abspath(t) for t in (args.tree or [THIS_TREE])]
    runs = {t: [] for t in trees}
    for _ in range(args.turns):
        for tree in trees:
            runs[tree].append(run_child(tree))
    med = statistics.median
    print(f"{args.turns} turns, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
          "CPU ms per step, best / median")
    print(f"{'tree':40} {'eager step':>16} {'x numpy':>8} {'eager fit':>14} {'numpy':>6}")
    for tree, rows in runs.items():
        best_np = min(r["numpy"] for r in rows)
        step = [r["step"] * 1e3 for r in rows]
        fit = [r["fit"] * 1e3 for r in rows]
        print(f"{tree[-40:]:40} {min(step):7.2f} / {med(step):6.2f} "
              f"{min(step) / (best_np * 1e3):8.0f} {min(fit):6.2f} / {med(fit):5.2f} "
              f"{best_np * 1e3:6.3f}")
    prints = {json.dumps([r["step_sim"], r["fit_sim"]]) for rows in runs.values() for r in rows}
    print(f"simulated clocks, peaks and trace lengths equal across trees and turns: "
          f"{len(prints) == 1}")
    if len(trees) == 2:
        a, b = (min(r["step"] for r in runs[t]) for t in trees)
        c, d = (min(r["fit"] for r in runs[t]) for t in trees)
        print(f"second / first tree: eager step {b / a:.2f}x, eager fit {d / c:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
