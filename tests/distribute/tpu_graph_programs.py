"""Replica functions whose TPU graph TF's operations list is recorded for
(record_tf_tpu_graph.py) and compared with simdist's (test_tpu_graph_operations.py): each
takes the module, the replica id (an int32 tensor) and the replica's arguments: a
float32 scalar tensor (of the value given), then the values given after it (a callable
is called with the module before the function is traced: a variable made outside)."""

NUM_REPLICAS = 8


def replica_fn(tf, fn):
    """``fn`` as ``strategy.run`` calls it: the replica id from the replica context."""
    def run(x, *values):
        return fn(tf, tf.distribute.get_replica_context().replica_id_in_sync_group, x,
                  *values)
    return run


def scale_and_shift(tf, rid, x):
    return x * 2.0 + 1.0


def uses_the_replica_id(tf, rid, x):
    return x * tf.cast(rid, tf.float32), tf.constant(3.0)


def a_dict_of_outputs(tf, rid, x):
    return {"doubled": x * 2.0, "id": rid}


def scaled_by_a_python_value(tf, rid, x, scale):
    return x * scale


def returns_nothing(tf, rid, x):
    return None


def a_none_among_the_outputs(tf, rid, x):
    return x * 2.0, None


def random_ops(tf, rid, x):
    """Stateful, stateless, bounded and not: each lists its own ops in TF."""
    return (x * tf.random.uniform([2], seed=1) + tf.random.normal([2], seed=2)
            + tf.random.uniform([2], -1.0, 1.0) + tf.random.uniform([2], maxval=5.0)
            + tf.random.truncated_normal([2]) + tf.random.stateless_uniform([2], seed=[1, 2])
            + tf.random.stateless_normal([2], seed=[3, 4])
            + tf.cast(tf.random.uniform([2], 0, 10, tf.int32), tf.float32))


def stateless_truncated_and_integer(tf, rid, x):
    ints = tf.random.stateless_uniform([2], seed=[5, 6], minval=0, maxval=10, dtype=tf.int32)
    return x * tf.random.stateless_truncated_normal([2], seed=[1, 2]) + tf.cast(ints,
                                                                                 tf.float32)


def an_all_reduce(tf, rid, x):
    return tf.distribute.get_replica_context().all_reduce("SUM", x * 3.0) * 2.0


def all_reduces(tf, rid, x):
    """MEAN (TF scales first), then a SUM of two values in one call."""
    ctx = tf.distribute.get_replica_context()
    return ctx.all_reduce("MEAN", x), ctx.all_reduce("SUM", (x, x * 2.0))


def a_variable(tf):
    return tf.Variable(2.0)


PROGRAMS = {
    "one output": (scale_and_shift, 1.0),
    "the replica id and a constant, two outputs": (uses_the_replica_id, 1.0),
    "a dict of outputs (not flat)": (a_dict_of_outputs, 1.0),
    "a Python value among the arguments": (scaled_by_a_python_value, 1.0, 3.0),
    "a variable among the arguments": (scaled_by_a_python_value, 1.0, a_variable),
    "no output (None)": (returns_nothing, 1.0),
    "a None among the outputs": (a_none_among_the_outputs, 1.0),
    "random ops": (random_ops, 1.0),
    "stateless truncated normal and integer uniform":
        (stateless_truncated_and_integer, 1.0),
    "an all-reduce": (an_all_reduce, 1.0),
    "all-reduces: MEAN, then SUM of two values": (all_reduces, 1.0),
}
