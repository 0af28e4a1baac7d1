"""Replica functions whose TPU graph TF's operations list is recorded for
(record_tf_tpu_graph.py) and compared with simdist's (test_tpu_graph_operations.py): each
takes the module, the replica id (an int32 tensor) and the replica's arguments: a
float32 tensor (a scalar of the value given; ``Unknown(shape)``: traced for that shape,
its unknown dimensions None; ``Uneven(sizes)``: replica r's a vector of ``sizes[r % len]``
ones times the step's scalar, made in the step), then the values given after it (a
callable is called with the module before the function is traced: a variable made
outside)."""

NUM_REPLICAS = 8


class Unknown(tuple):
    """The step's argument: a float32 tensor of this shape (None: unknown)."""


class Uneven(tuple):
    """The replicas' argument: vectors of these lengths (replica r's: ``[r % len]``)."""


def traced(tf, strategy, name):
    """The tf.function ``step`` running program ``name`` and the argument its concrete
    function is traced for (the recorder's and the test's)."""
    fn, arg, *values = PROGRAMS[name]
    values = tuple(v(tf) if callable(v) else v for v in values)

    @tf.function
    def step(x):
        if isinstance(arg, Uneven):
            x = strategy.experimental_distribute_values_from_function(
                lambda ctx: tf.ones([arg[ctx.replica_id_in_sync_group % len(arg)]]) * x)
        return strategy.run(replica_fn(tf, fn), args=(x, *values))

    if isinstance(arg, Unknown):
        return step, tf.TensorSpec(arg, tf.float32)
    return step, tf.constant(1.0 if isinstance(arg, Uneven) else arg)


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




def an_all_reduce_in_a_cond(tf, rid, x):
    ctx = tf.distribute.get_replica_context()
    return tf.cond(x > 0, lambda: ctx.all_reduce("SUM", x * 2.0),
                   lambda: ctx.all_reduce("SUM", -x))


def an_all_reduce_in_a_loop(tf, rid, x):
    ctx = tf.distribute.get_replica_context()
    _, total = tf.while_loop(lambda i, t: i < 3,
                             lambda i, t: (i + 1, t + ctx.all_reduce("SUM", x)),
                             [tf.constant(0), tf.constant(0.0)])
    return total


def _summed(tf):
    @tf.function
    def summed(x):
        return tf.distribute.get_replica_context().all_reduce("SUM", x) + 1.0
    return summed


def an_all_reduce_in_a_nested_function(tf, rid, x):
    return _summed(tf)(x * 2.0)


def doubled(tf, rid, x):
    return x * 2.0


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
    "an all-reduce in a cond": (an_all_reduce_in_a_cond, 1.0),
    "an all-reduce in a while loop": (an_all_reduce_in_a_loop, 1.0),
    "an all-reduce in a nested tf.function": (an_all_reduce_in_a_nested_function, 1.0),
    "an input of unknown length (padded)": (doubled, Unknown([None])),
    "a matrix input of unknown rows (padded)": (doubled, Unknown([None, 3])),
    "a matrix input of unknown columns, and a scalar": (scaled_by_a_python_value,
                                                         Unknown([2, None]), 3.0),
    "inputs of other lengths per replica (padded in a cond)": (doubled, Uneven([1, 2])),
    "inputs of one length on every replica (not padded)": (doubled, Uneven([3])),
}
