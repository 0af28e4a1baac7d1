"""Record the operations TF 2.21 lists for MirroredStrategy steps traced in a tf.function
(fixtures/tf_mirrored_graph.json); test_mirrored_graph_operations.py compares simdist's.

The strategy runs over 2 and over 4 logical CPUs (one CPU split, as the other recorders
do), so its cross-device ops are TF's default for CPUs: ``CollectiveAllReduce`` with the
RING implementation (mirrored_strategy.py, ``_make_collective_ops_with_fallbacks``), and
``ReductionToOneDevice`` for int32 values and for ``strategy.reduce`` to the host.
Each case keeps ``get_operations()`` (name, type and input names) of the graph traced for
a float32 scalar, and the step's values for ``x = 2.0``. Each device count records in a
process of its own, with one strategy for all programs (TF's collective group key 1
would join groups of two sizes; a second strategy's collectives are cancelled).

Run with the TensorFlow interpreter (not simdist's venv); naming programs re-records only
them:
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \
        tests/distribute/record_tf_mirrored_graph.py ["an all-reduce" ...]
"""

import json
import os
import subprocess
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")   # tf.keras is tf-keras (Keras 2)
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "tf_mirrored_graph.json")
sys.path.insert(0, HERE)
from mirrored_graph_programs import DEVICES, PROGRAMS, listed  # noqa: E402


def record_program(strategy, name):
    step = PROGRAMS[name](tf, strategy)
    graph = step.get_concrete_function(tf.constant(1.0)).graph
    values = [v.numpy().tolist() for v in tf.nest.flatten(step(tf.constant(2.0)))]
    return {"ops": listed(graph), "values": values}


def record_devices(n, names):
    """Print the results of ``names`` on ``n`` logical CPUs as JSON (a process's own)."""
    split_cpus(n)
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])
    print(json.dumps({name: record_program(strategy, name) for name in names}))


def split_cpus(n):
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0],
        [tf.config.LogicalDeviceConfiguration()] * n)


def by_devices(script, names, counts=DEVICES) -> dict:
    """``script`` run with ``names`` in a process per device count: what each printed."""
    results = {}
    for n in counts:
        run = subprocess.run([sys.executable, script, *names], capture_output=True,
                             text=True, check=True, env={**os.environ, "RECORD_DEVICES": str(n)},
                             timeout=600)
        results[str(n)] = json.loads(run.stdout.strip().splitlines()[-1])
    return results


def main(names):
    if os.environ.get("RECORD_DEVICES"):
        record_devices(int(os.environ["RECORD_DEVICES"]), names)
        return
    names = names or list(PROGRAMS)
    results = recorded(FIXTURE)
    got = by_devices(__file__, names)
    for name in names:
        results[name] = {n: got[n][name] for n in got}
    write(FIXTURE, {k: results[k] for k in PROGRAMS if k in results})


def recorded(fixture) -> dict:
    """The results ``fixture`` holds (none before the first recording)."""
    if not os.path.exists(fixture):
        return {}
    with open(fixture) as f:
        return json.load(f)["results"]


def write(fixture, results) -> None:
    with open(fixture, "w") as f:
        json.dump({"tf_version": tf.__version__, "results": results}, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
