"""Record the operations TF 2.21 lists for a TPUStrategy.run traced in a tf.function
(fixtures/tf_tpu_graph.json); test_tpu_graph_operations.py compares simdist's list.

No TPU is needed to build the graph: TF's own ``tf.distribute.TPUStrategy`` is made over
a cluster resolver that reports one host with 8 TPU cores (``get_tpu_system_metadata``,
no connection, no TPU system initialized), and its ``run`` is traced inside a
tf.function by ``get_concrete_function`` only (nothing executes on a TPU). So the graph
is the one TPUStrategy builds: ``tpu_function`` (tpu_strategy.py) with its dynamic-shape
padding inputs (``experimental_enable_dynamic_batch_size``, on by default), and
``tpu.replicate`` (tensorflow/python/tpu/tpu.py).

Also recorded: the error TF raises when the traced function is a lambda (its graph is
named ``<lambda>``, and ``cluster_<lambda>/pivot`` is no valid name scope).

Run with the TensorFlow interpreter (not simdist's venv); naming programs re-records only
them:
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \
        tests/distribute/record_tf_tpu_graph.py ["one output" ...]
"""

import json
import os
import sys

import tensorflow as tf
from tensorflow.python.distribute.cluster_resolver import tpu_cluster_resolver
from tensorflow.python.tpu import tpu_system_metadata

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "tf_tpu_graph.json")
sys.path.insert(0, HERE)
from tpu_graph_programs import NUM_REPLICAS, PROGRAMS, traced  # noqa: E402

_WORKER = "/job:worker/replica:0/task:0/device:"


class EightCores(tpu_cluster_resolver.TPUClusterResolver):
    """A resolver reporting one host with NUM_REPLICAS TPU cores (nothing connected)."""

    def __init__(self):   # (TPUClusterResolver's would look a TPU up)
        pass

    def get_tpu_system_metadata(self):
        devices = [tf.config.LogicalDevice(_WORKER + "CPU:0", "CPU")] + [
            tf.config.LogicalDevice(f"{_WORKER}TPU:{i}", "TPU") for i in range(NUM_REPLICAS)]
        return tpu_system_metadata.TPUSystemMetadata(
            num_cores=NUM_REPLICAS, num_hosts=1, num_of_cores_per_host=NUM_REPLICAS,
            topology=None, devices=devices)

    def get_job_name(self):
        return "worker"


def record_program(strategy, name):
    step, arg = traced(tf, strategy, name)
    graph = step.get_concrete_function(arg).graph
    return [[op.name, op.type] for op in graph.get_operations()]


def _doubled(x):
    return x * 2.0


def record_lambda_error(strategy):
    step = tf.function(lambda x: strategy.run(_doubled, args=(x,)))
    try:
        step.get_concrete_function(tf.constant(1.0))
    except ValueError as e:
        return {"type": type(e).__name__, "last_line": str(e).strip().splitlines()[-1].strip()}
    return None


def main(names):
    strategy = tf.distribute.TPUStrategy(EightCores())
    results = {}
    if names and os.path.exists(FIXTURE):
        with open(FIXTURE) as f:
            results = json.load(f)["results"]
    for name in names or sorted(PROGRAMS):
        results[name] = record_program(strategy, name)
    out = {"tf_version": tf.__version__, "results": results,
           "lambda_error": record_lambda_error(strategy)}
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
