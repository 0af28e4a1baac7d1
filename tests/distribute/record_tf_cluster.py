"""Record what TensorFlow does when cluster_programs/ run as clusters of processes:
custom_loop.py as 1 and 2 processes, collectives.py (every collective of the strategy) and
sharding.py (every AutoShardPolicy, distribute_datasets_from_function) as 2 and 3;
ctl_tutorial.py (the custom-training-loop tutorial) as 2 processes, run twice on one
checkpoint directory (2 epochs, then a restart asked for 3); keras_tutorial.py ("Multi-worker
training with Keras": its CNN, fit, the chief-only save, load and fit on) as 2 processes.

Run with a TensorFlow 2.x (tf-keras) interpreter, not simdist's venv::

    /tmp/tfvenv/bin/python tests/distribute/record_tf_cluster.py

Each task is a real TF process on 127.0.0.1 with its own TF_CONFIG (CPU only, one replica
per worker), started and killed as the tests do (cluster_processes.run_cluster, bounded).
The results go to ``fixtures/tf_cluster.json``: ``{"tensorflow": version, "clusters":
{"1": [worker results], "2": [...]}}`` and ``fixtures/tf_cluster_collectives.json`` and
``tf_cluster_sharding.json`` (same shape, "2" and "3"), ``tf_ctl_tutorial.json``
(``{"tensorflow", "runs": [[first run's worker results], [restart's]]}``),
``tf_keras_tutorial.json`` (``{"tensorflow", "workers": [worker results]}``);
test_process_cluster.py (also the Keras tutorial), test_cluster_collectives.py,
test_cluster_sharding.py and test_ctl_tutorial.py replay them.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cluster_processes import run_cluster  # noqa: E402

TF_ENV = {"TF_MODULE": "tensorflow", "INIT": "constant", "TF_USE_LEGACY_KERAS": "1",
          "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": "", "PYTHONPATH": ""}


RECORDINGS = {"tf_cluster.json": ("custom_loop.py", (1, 2)),
              "tf_cluster_collectives.json": ("collectives.py", (2, 3)),
              "tf_cluster_sharding.json": ("sharding.py", (2, 3))}


def text_files(directory) -> str:
    """f0.txt ... f3.txt with 4 numbered lines each (sharding.py's file pipeline)."""
    for i in range(4):
        with open(os.path.join(directory, f"f{i}.txt"), "w") as f:
            f.write("".join(f"{i}-{j}\n" for j in range(4)))
    return directory


def record(program, sizes) -> dict | None:
    out = {"tensorflow": None, "clusters": {}}
    env = dict(TF_ENV, FILES_DIR=text_files(tempfile.mkdtemp()))
    for n in sizes:
        results = run_cluster(program, n=n, env=env, timeout=240, python=sys.executable)
        for rc, res, err in results:
            if rc != 0 or res is None:
                print(f"{program}, {n} worker(s): a task failed:\n{err}", file=sys.stderr)
                return None
        out["tensorflow"] = results[0][1]["tensorflow"]
        out["clusters"][str(n)] = [res for _, res, _ in results]
    return out


# (NUM_EPOCHS of each run) for ctl_tutorial.py; test_ctl_tutorial.py runs the same.
CTL_TUTORIAL_RUNS = ("2", "3")


def record_ctl_tutorial() -> dict | None:
    """ctl_tutorial.py as 2 processes, then again (a restart) on the same CKPT_DIR."""
    env = dict(TF_ENV, CKPT_DIR=tempfile.mkdtemp())
    out = {"tensorflow": None, "runs": []}
    for epochs in CTL_TUTORIAL_RUNS:
        results = run_cluster("ctl_tutorial.py", n=2, env=dict(env, NUM_EPOCHS=epochs),
                              timeout=240, python=sys.executable)
        if any(rc != 0 or res is None for rc, res, _ in results):
            print(f"ctl_tutorial.py: a task failed:\n{results}", file=sys.stderr)
            return None
        out["tensorflow"] = results[0][1]["tensorflow"]
        out["runs"].append([res for _, res, _ in results])
    return out


def record_keras_tutorial() -> dict | None:
    """keras_tutorial.py as 2 processes (seeded weights, no shuffle)."""
    env = dict(TF_ENV, MODEL_DIR=tempfile.mkdtemp())
    results = run_cluster("keras_tutorial.py", n=2, env=env, timeout=240,
                          python=sys.executable)
    if any(rc != 0 or res is None for rc, res, _ in results):
        print(f"keras_tutorial.py: a task failed:\n{results}", file=sys.stderr)
        return None
    return {"tensorflow": results[0][1]["tensorflow"], "workers": [r for _, r, _ in results]}


def main() -> int:
    only = sys.argv[1:]
    recordings = dict(RECORDINGS, **{"tf_ctl_tutorial.json": record_ctl_tutorial,
                                     "tf_keras_tutorial.json": record_keras_tutorial})
    for name, how in recordings.items():
        if only and name not in only:
            continue
        out = how() if callable(how) else record(*how)
        if out is None:
            return 1
        path = os.path.join(HERE, "fixtures", name)
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        print(f"wrote {path} (TensorFlow {out['tensorflow']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
