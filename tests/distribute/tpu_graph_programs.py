"""Replica functions whose TPU graph TF's operations list is recorded for
(record_tf_tpu_graph.py) and compared with simdist's (test_tpu_graph_operations.py): each
takes the module, the replica id (an int32 tensor) and the replica's arguments: a
float32 scalar tensor (of the value given), then the Python values given after it."""

NUM_REPLICAS = 8


def scale_and_shift(tf, rid, x):
    return x * 2.0 + 1.0


def uses_the_replica_id(tf, rid, x):
    return x * tf.cast(rid, tf.float32), tf.constant(3.0)


def a_dict_of_outputs(tf, rid, x):
    return {"doubled": x * 2.0, "id": rid}


def scaled_by_a_python_value(tf, rid, x, scale):
    return x * scale


PROGRAMS = {
    "one output": (scale_and_shift, 1.0),
    "the replica id and a constant, two outputs": (uses_the_replica_id, 1.0),
    "a dict of outputs (not flat)": (a_dict_of_outputs, 1.0),
    "a Python value among the arguments": (scaled_by_a_python_value, 1.0, 3.0),
}
