"""Record the operations TF 2.21 lists for a TPUStrategy.run traced in a tf.function
(fixtures/tf_tpu_graph.json); test_tpu_graph_operations.py compares simdist's list.

No TPU is needed to build the graph: this runs the body of TPUStrategy's ``tpu_function``
(tensorflow/python/distribute/tpu_strategy.py, ``_tpu_function_creator``) itself -- an int32
constant per replica and the replica's arguments as ``tpu.replicate``'s inputs, the outputs
regrouped per replica -- with the replica id handed to the program as the replica context
hands it (``replica_id_in_sync_group`` is that input tensor, no op of its own). Only
``get_concrete_function`` runs (nothing executes on a TPU).

Run with the TensorFlow interpreter (not simdist's venv):
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \
        tests/distribute/record_tf_tpu_graph.py
"""

import json
import os
import sys

import tensorflow as tf
from tensorflow.python.tpu import tpu

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tpu_graph_programs import NUM_REPLICAS, PROGRAMS  # noqa: E402


def tpu_run(fn, args):
    """TPUStrategy's tpu_function for ``fn(replica_id, *args)`` (see the module docstring)."""
    result = [None]

    def replicated_fn(replica_id, replica_args, replica_kwargs):
        result[0] = fn(tf, replica_id, *replica_args, **replica_kwargs)
        return result[0]

    inputs = [[tf.constant(i, dtype=tf.int32), list(args), {}] for i in range(NUM_REPLICAS)]
    outputs = tpu.replicate(replicated_fn, inputs)
    per_replica = [tf.nest.pack_sequence_as(result[0], tf.nest.flatten(o)) for o in outputs]
    if isinstance(result[0], dict):   # regroup: one structure of per-replica values
        return {k: tuple(o[k] for o in per_replica) for k in result[0]}
    if isinstance(result[0], (tuple, list)):
        return tuple(zip(*per_replica))
    return tuple(per_replica)


def main():
    results = {}
    for name, (fn, arg, *values) in PROGRAMS.items():
        @tf.function
        def step(x, fn=fn, values=tuple(values)):
            return tpu_run(fn, (x, *values))

        graph = step.get_concrete_function(tf.constant(arg)).graph
        results[name] = [[op.name, op.type] for op in graph.get_operations()]
    with open(os.path.join(HERE, "fixtures", "tf_tpu_graph.json"), "w") as f:
        json.dump({"tf_version": tf.__version__, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
