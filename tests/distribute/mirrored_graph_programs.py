"""Traced steps of a MirroredStrategy over logical CPUs whose graph TF's operations list is
recorded for (record_tf_mirrored_graph.py) and compared with simdist's
(test_mirrored_graph_operations.py): each program takes the module and the strategy and
returns ``step(x)``, a tf.function traced for a float32 scalar ``x``."""

DEVICES = (2, 4)   # logical CPUs of the strategy, one recording each


def listed(graph) -> list:
    """The graph's operations: name, type and the names of its inputs."""
    return [[op.name, op.type, [t.name for t in op.inputs]] for op in graph.get_operations()]


def _local(strategy, value):
    return strategy.experimental_local_results(value)


def an_all_reduce(tf, strategy):
    @tf.function
    def step(x):
        def fn(x):
            return tf.distribute.get_replica_context().all_reduce("SUM", x * 3.0) * 2.0
        return _local(strategy, strategy.run(fn, args=(x,)))
    return step


def all_reduces(tf, strategy):
    """MEAN (a division after the sum), then a SUM of two values in one call."""
    @tf.function
    def step(x):
        def fn(x):
            ctx = tf.distribute.get_replica_context()
            return ctx.all_reduce("MEAN", x + 1.0), ctx.all_reduce("SUM", (x * 3.0, x * 2.0))
        return _local(strategy, strategy.run(fn, args=(x,)))
    return step


def values_of_other_shapes(tf, strategy):
    """A matrix, a vector and a scalar packed in one all-reduce."""
    @tf.function
    def step(x):
        def fn(x):
            rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                          tf.float32)
            m = tf.ones([2, 3]) * x + rid
            return tf.distribute.get_replica_context().all_reduce(
                "SUM", [m, tf.reduce_sum(m, axis=0), x * rid])
        return _local(strategy, strategy.run(fn, args=(x,)))
    return step


def an_integer_all_reduce(tf, strategy):
    """int32: TF reduces it to one device (ReductionToOneDevice), no collective."""
    @tf.function
    def step(x):
        def fn(x):
            return tf.distribute.get_replica_context().all_reduce(
                "SUM", tf.cast(x, tf.int32) + 1)
        return _local(strategy, strategy.run(fn, args=(x,)))
    return step


def a_sum_before_the_all_reduce(tf, strategy):
    """A Sum over every axis: its axes' Const is named before the all-reduce's Consts."""
    @tf.function
    def step(x):
        def fn(x):
            total = tf.reduce_sum(x * tf.ones([2]))
            return tf.distribute.get_replica_context().all_reduce("SUM", total) + \
                tf.constant(1.0)
        return _local(strategy, strategy.run(fn, args=(x,)))
    return step


def in_name_scopes(tf, strategy):
    """strategy.run in a scope, the all-reduce in one of the replica function's."""
    @tf.function
    def step(x):
        def fn(x):
            with tf.name_scope("inner"):
                y = tf.distribute.get_replica_context().all_reduce("SUM", x * 3.0)
            return y + 1.0
        with tf.name_scope("outer"):
            out = strategy.run(fn, args=(x,))
        return strategy.reduce("MEAN", out, axis=None)
    return step


def reduce_of(op, axis):
    def program(tf, strategy):
        @tf.function
        def step(x):
            def fn(x):
                rid = tf.distribute.get_replica_context().replica_id_in_sync_group
                return x * tf.cast(rid + 1, tf.float32) * tf.ones([3])
            return strategy.reduce(op, strategy.run(fn, args=(x,)), axis=axis)
        return step
    return program


def optimizer_step(make):
    """``make(tf)``'s apply_gradients (an optimizer's, or each of a list's in turn) of a
    vector's and a scalar's gradients (the loss's Sum has its axis)."""
    def program(tf, strategy):
        with strategy.scope():
            w = tf.Variable([1.0, 2.0])
            b = tf.Variable(0.5)
            opt = make(tf)

        @tf.function
        def step(x):
            def fn(x):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_sum(w * x, axis=0) + b * x
                grads = tape.gradient(loss, [w, b])
                for each in opt if isinstance(opt, list) else [opt]:
                    each.apply_gradients(zip(grads, [w, b]))
                return loss
            return _local(strategy, strategy.run(fn, args=(x,)))
        return step
    return program


PROGRAMS = {
    "an all-reduce": an_all_reduce,
    "all-reduces: MEAN, then SUM of two values": all_reduces,
    "an all-reduce of a matrix, a vector and a scalar": values_of_other_shapes,
    "an int32 all-reduce": an_integer_all_reduce,
    "name scopes around the run and the all-reduce": in_name_scopes,
    "a sum over every axis before the all-reduce": a_sum_before_the_all_reduce,
    "strategy.reduce SUM": reduce_of("SUM", None),
    "strategy.reduce MEAN": reduce_of("MEAN", None),
    "strategy.reduce SUM along axis 0": reduce_of("SUM", 0),
    "strategy.reduce MEAN along axis 0": reduce_of("MEAN", 0),
    "SGD's apply_gradients": optimizer_step(lambda tf: tf.keras.optimizers.SGD(0.1)),
    "SGD with momentum and nesterov": optimizer_step(
        lambda tf: tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True)),
    "Adam's apply_gradients": optimizer_step(lambda tf: tf.keras.optimizers.Adam(0.01)),
    "RMSprop with momentum, centered": optimizer_step(
        lambda tf: tf.keras.optimizers.RMSprop(0.01, momentum=0.9, centered=True)),
    "Adagrad's apply_gradients": optimizer_step(lambda tf: tf.keras.optimizers.Adagrad(0.1)),
    "Adamax's, Adadelta's and Ftrl's apply_gradients": optimizer_step(lambda tf: [
        tf.keras.optimizers.Adamax(0.01), tf.keras.optimizers.Adadelta(1.0),
        tf.keras.optimizers.Ftrl(0.1)]),
    "Nadam's apply_gradients": optimizer_step(lambda tf: tf.keras.optimizers.Nadam(0.01)),
    "Lion's and Adafactor's apply_gradients": optimizer_step(lambda tf: [
        tf.keras.optimizers.Lion(0.01), tf.keras.optimizers.Adafactor(0.1)]),
}


# The default (CollectiveAllReduce) is only traced: its values are tf_mirrored_graph's, and a
# process's second collective strategy of TF cannot run (its group key is taken)
DEFAULT = "MirroredStrategy's default"

# The cross-device ops each program runs with, by TF's class name, and the default
# (record_tf_cross_device_graph.py, test_cross_device_graph_operations.py); TF builds
# NcclAllReduce's graph on CPUs but finds no kernel to run it.
CROSS_DEVICE_OPS = ("HierarchicalCopyAllReduce", "NcclAllReduce", "ReductionToOneDevice",
                    DEFAULT)
CROSS_DEVICE_PROGRAMS = (
    "an all-reduce", "all-reduces: MEAN, then SUM of two values",
    "an all-reduce of a matrix, a vector and a scalar", "strategy.reduce MEAN along axis 0")


def cross_device_case(tf, n, ops_name, name) -> dict:
    """``name`` traced on a MirroredStrategy of ``n`` CPUs with ``ops_name``: its listing,
    each op's device, and its values for ``x = 2.0`` or the error type running it raises."""
    strategy = tf.distribute.MirroredStrategy(
        [f"/cpu:{i}" for i in range(n)],
        cross_device_ops=None if ops_name == DEFAULT else getattr(tf.distribute, ops_name)())
    step = PROGRAMS[name](tf, strategy)
    graph = step.get_concrete_function(tf.constant(1.0)).graph
    ops = listed(graph)
    devices = [op.device for op in graph.get_operations()]
    if ops_name == DEFAULT:
        return {"ops": ops, "devices": devices}
    try:
        values = [v.numpy().tolist() for v in tf.nest.flatten(step(tf.constant(2.0)))]
    except tf.errors.OpError as e:
        values = type(e).__name__
    return {"ops": ops, "devices": devices, "values": values}


# Strategies of one replica (GPUs hidden: MultiWorkerMirroredStrategy on CPUs has one) and
# the programs they run: TF's CrossDeviceOps take their one-value shortcut.
ONE = "one replica"   # the fixture's key of these
ONE_REPLICA = ("MultiWorkerMirroredStrategy AUTO", "MultiWorkerMirroredStrategy RING",
               "MultiWorkerMirroredStrategy NCCL", "MirroredStrategy of one CPU")
ONE_REPLICA_PROGRAMS = (
    "an all-reduce", "all-reduces: MEAN, then SUM of two values",
    "name scopes around the run and the all-reduce", "strategy.reduce SUM",
    "strategy.reduce MEAN along axis 0")


def one_replica_case(tf, strategy_name, name) -> dict:
    """``name`` traced with the strategy ``strategy_name`` (of ``ONE_REPLICA``): its
    listing and its values for ``x = 2.0``."""
    if tf.config.get_visible_devices("GPU"):
        tf.config.set_visible_devices([], "GPU")
    if strategy_name.startswith("MirroredStrategy"):
        strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    else:
        implementation = getattr(tf.distribute.experimental.CommunicationImplementation,
                                 strategy_name.split()[-1])
        strategy = tf.distribute.MultiWorkerMirroredStrategy(
            communication_options=tf.distribute.experimental.CommunicationOptions(
                implementation=implementation))
    step = PROGRAMS[name](tf, strategy)
    ops = listed(step.get_concrete_function(tf.constant(1.0)).graph)
    return {"ops": ops, "values": [v.numpy().tolist()
                                   for v in tf.nest.flatten(step(tf.constant(2.0)))]}
