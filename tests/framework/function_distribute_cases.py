"""tf.function + a distribution strategy as TF 2.21 runs it (record_tf_function.py records,
test_function_distribute.py replays): strategy.run traces the replica function once per
replica (print per replica per trace), replica_id_in_sync_group is a symbolic tensor,
merge_call / all_reduce / strategy.reduce are graph ops, variable updates and distributed
iterators run at every call, retracing on a new shape, and where the returned values sit.
The strategy is ``S2``, a MirroredStrategy on 2 logical CPUs. Snippets as in
tests/tf_snippets.py."""

SETUP = """
import contextlib, io
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
printed = io.StringIO()
def calls(fn, *arg_lists):
    with contextlib.redirect_stdout(printed):
        return [fn(*a) for a in arg_lists]
def local(v):
    return list(S2.experimental_local_results(v))
def devices(v):
    return [t.device for t in S2.experimental_local_results(v)]
"""

CASES = {
    "strategy.run traces the replica function once per replica": SETUP + """
@tf.function
def step(x):
    print("tracing step")
    def fn(x):
        print("tracing fn")
        ctx = tf.distribute.get_replica_context()
        return x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    return S2.run(fn, args=(x,))
r = calls(step, (tf.constant(1.0),), (tf.constant(2.0),), (tf.constant(3.0),))
out = [printed.getvalue(), [local(v) for v in r], devices(r[-1]),
       step.experimental_get_tracing_count()]
""",
    "a new shape retraces: the replica functions are traced again": SETUP + """
@tf.function
def step(x):
    def fn(x):
        print("tracing fn", x.shape)
        return tf.reduce_sum(x)
    return S2.run(fn, args=(x,))
r = calls(step, (tf.ones(2),), (tf.ones(2),), (tf.ones(3),), (tf.ones(3),))
out = [printed.getvalue(), [local(v) for v in r], step.experimental_get_tracing_count()]
""",
    "replica_id_in_sync_group is a symbolic tensor": SETUP + """
seen = []
@tf.function
def step():
    def fn():
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        seen.append([rid.dtype.name, str(rid.shape), type(rid).__name__ == "SymbolicTensor"
                     or not hasattr(rid, "numpy") or "Tensor(" in str(rid)])
        try:
            rid.numpy()
        except AttributeError as e:
            seen.append(str(e))
        return rid
    return S2.run(fn)
r = step()
out = [seen, local(r), devices(r)]
""",
    "merge_call: merge_fn is traced once with PerReplica values": SETUP + """
merges = []
@tf.function
def step(x):
    def merge_fn(strategy, v):
        merges.append([type(v).__name__, len(strategy.experimental_local_results(v))])
        return strategy.reduce("SUM", v, axis=None)
    def fn(x):
        ctx = tf.distribute.get_replica_context()
        y = x + tf.cast(ctx.replica_id_in_sync_group, tf.float32)
        return ctx.merge_call(merge_fn, args=(y,))
    return S2.run(fn, args=(x,))
r = calls(step, (tf.constant(1.0),), (tf.constant(5.0),))
out = [merges, [local(v) for v in r], devices(r[-1])]
""",
    "all_reduce and strategy.reduce in a traced step": SETUP + """
@tf.function
def step(x):
    def fn(x):
        ctx = tf.distribute.get_replica_context()
        y = x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        return ctx.all_reduce("SUM", y), ctx.all_reduce("MEAN", y)
    s, m = S2.run(fn, args=(x,))
    return s, m, S2.reduce("SUM", s, axis=None), S2.reduce("MEAN", m, axis=None)
s, m, rs, rm = step(tf.constant([1.0, 2.0]))
out = [local(s), local(m), rs, rm, devices(s), rs.device, rm.device]
""",
    "mirrored and sync-on-read variable updates run at every call": SETUP + """
with S2.scope():
    v = tf.Variable(0.0, aggregation=tf.VariableAggregation.MEAN)
    c = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.SUM)
@tf.function
def step():
    def fn():
        rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        v.assign_add(rid + 1.0)
        c.assign_add(rid + 1.0)
        return v.read_value()
    return S2.run(fn)
r = [step() for _ in range(3)]
out = [[local(x) for x in r], local(v), c.read_value(), local(c),
       step.experimental_get_tracing_count()]
""",
    "a distributed iterator is consumed across calls, then OutOfRange": SETUP + """
ds = tf.data.Dataset.range(12).batch(4)
it = iter(S2.experimental_distribute_dataset(ds))
@tf.function
def step():
    x = next(it)
    return S2.run(lambda x: x * 10, args=(x,))
r = [local(step()) for _ in range(3)]
try:
    step()
    end = None
except tf.errors.OutOfRangeError as e:
    end = type(e).__name__
out = [r, end, step.experimental_get_tracing_count()]
""",
    "a distributed iterator passed as an argument": SETUP + """
ds = tf.data.Dataset.range(8).batch(4)
it = iter(S2.experimental_distribute_dataset(ds))
@tf.function
def step(it):
    return S2.run(lambda x: tf.reduce_sum(x), args=(next(it),))
r = [local(step(it)) for _ in range(2)]
out = [r, step.experimental_get_tracing_count()]
""",
    "a Keras model trained with strategy.run in a tf.function": SETUP + """
# TF 2.21's collective all-reduce of the packed gradients fails on 2 logical CPUs (shape
# mismatch in the collective instance): the step reduces through one device instead.
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"],
                                    cross_device_ops=tf.distribute.ReductionToOneDevice())
with S2.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(
        2, kernel_initializer="ones", bias_initializer="zeros", input_shape=(3,))])
    opt = tf.keras.optimizers.SGD(0.1)
@tf.function
def step(x, y):
    print("tracing step")
    def fn(x, y):
        print("tracing fn")
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(
                tf.reduce_sum(tf.square(model(x) - y), axis=1), global_batch_size=4)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return S2.reduce("SUM", S2.run(fn, args=(x, y)), axis=None)
x = tf.constant([[1.0, 2.0, 3.0], [0.5, 0.0, 1.0]])
y = tf.constant([[1.0, 0.0], [0.0, 1.0]])
r = calls(step, (x, y), (x, y), (x, y))
out = [printed.getvalue(), r, local(model.weights[0]), opt.iterations,
       step.experimental_get_tracing_count()]
""",
    "OneDeviceStrategy: strategy.run in a tf.function": SETUP + """
S1 = tf.distribute.OneDeviceStrategy("/cpu:1")
@tf.function
def step(x):
    def fn(x):
        print("tracing fn")
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        return x * 2.0 + tf.cast(rid, tf.float32)
    r = S1.run(fn, args=(x,))
    return r, S1.reduce("SUM", r, axis=None)
r = calls(step, (tf.constant(1.0),), (tf.constant(2.0),))
out = [printed.getvalue(), [list(x) for x in r], r[-1][0].device, r[-1][1].device,
       step.experimental_get_tracing_count()]
""",
    "CentralStorageStrategy: a variable on the host updated by a traced step": SETUP + """
SC = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
with SC.scope():
    w = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
@tf.function
def step(x):
    def fn(x):
        print("tracing fn")
        w.assign_add(x)
        return w * 1.0
    return SC.run(fn, args=(x,))
r = calls(step, (tf.constant(1.0),), (tf.constant(2.0),))
out = [printed.getvalue(), [list(SC.experimental_local_results(x)) for x in r],
       w.read_value(), step.experimental_get_tracing_count()]
""",
    "merge_call in a tf.function nested in a traced replica function: TF's RuntimeError":
    SETUP + """
@tf.function
def inner(x):
    ctx = tf.distribute.get_replica_context()
    return ctx.merge_call(lambda s, v: s.reduce("SUM", v, axis=None), args=(x,))
@tf.function
def step(x):
    return S2.run(lambda x: inner(x * 2.0), args=(x,))
step(tf.constant(1.0))
""",
    "merge_call in a tf.function called by an eager replica function: TF's RuntimeError":
    SETUP + """
@tf.function
def inner(x):
    ctx = tf.distribute.get_replica_context()
    return ctx.merge_call(lambda s, v: s.reduce("SUM", v, axis=None), args=(x,))
S2.run(lambda x: inner(x * 2.0), args=(tf.constant(1.0),))
""",
    "apply_gradients in a tf.function called by a replica function: TF's RuntimeError":
    SETUP + """
with S2.scope():
    v = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.1)
@tf.function
def apply(g):
    opt.apply_gradients([(g, v)])
S2.run(lambda: apply(tf.constant(1.0)))
""",
}

# --- gradients through an all-reduce: the gradient of an all-sum (all-mean) is the all-sum
# (all-mean) of the incoming gradients (TF's grad_wrapper in ReplicaContext.all_reduce).
# TF 2.21 reuses collective instance keys across strategies in one process ("Shape mismatch
# in the collective instance 100"): record each of these cases in a process of its own
# (name it alone on the recorder's command line).
CASES.update({
    "gradients through all_reduce SUM and MEAN, traced and eager": SETUP + """
with S2.scope():
    v = tf.Variable(2.0)
def fn(x):
    ctx = tf.distribute.get_replica_context()
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * v * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        z = ctx.all_reduce("SUM", y) * 3.0 + ctx.all_reduce("MEAN", y * y)
    return t.gradient(z, [x, v])
step = tf.function(lambda x: S2.run(fn, args=(x,)))
traced = [step(tf.constant(1.5)), step(tf.constant(-0.5))]
eager = S2.run(fn, args=(tf.constant(1.5),))
out = [[[local(g) for g in r] for r in traced], [local(g) for g in eager],
       [devices(g) for g in traced[0]], step.experimental_get_tracing_count()]
""",
    "a traced training step whose loss all-reduces across replicas": SETUP + """
with S2.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, kernel_initializer='ones')])
    model.build((None, 3))
    opt = tf.keras.optimizers.SGD(0.1)
data = S2.experimental_distribute_values_from_function(
    lambda ctx: tf.reshape(tf.range(6, dtype=tf.float32), (2, 3)) *
    float(ctx.replica_id_in_sync_group + 1))
@tf.function
def step(x):
    def fn(x):
        ctx = tf.distribute.get_replica_context()
        with tf.GradientTape() as t:
            h = model(x)
            centre = ctx.all_reduce("MEAN", tf.reduce_mean(h, axis=0))
            loss = tf.reduce_sum((h - centre) ** 2) / 8.0
        g = t.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(g, model.trainable_variables))
        return loss, g[0]
    return S2.run(fn, args=(x,))
r = [step(data) for _ in range(2)]
out = [[[local(v) for v in x] for x in r], [w.numpy() for w in model.weights]]
""",
    "SyncBatchNormalization trained in a traced step": SETUP + """
with S2.scope():
    bn = tf.keras.layers.experimental.SyncBatchNormalization(momentum=0.5)
    bn.build((None, 2))
    opt = tf.keras.optimizers.SGD(0.5)
data = S2.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([[1.0, -2.0], [3.0, 0.5]]) * float(ctx.replica_id_in_sync_group + 1))
@tf.function
def step(x):
    def fn(x):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(bn(x, training=True) * tf.constant([[1.0, 2.0], [-1.0, 0.5]]))
        g = t.gradient(loss, bn.trainable_variables)
        opt.apply_gradients(zip(g, bn.trainable_variables))
        return g
    return S2.run(fn, args=(x,))
r = [step(data) for _ in range(2)]
out = [[[local(v) for v in x] for x in r], [w.numpy() for w in bn.weights]]
""",
})

# --- LossScaleOptimizer in a custom training step under MirroredStrategy: a non-finite
# gradient on any replica skips the step everywhere and halves the scale; after
# dynamic_growth_steps finite steps the scale doubles (TF's DynamicLossScale)
LOSS_SCALE = SETUP + """
def run_steps(opt, traced):
    with S2.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='ones')])
        model.build((None, 2))
        opt = opt()
    def fn(x):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(model(x) ** 2) / 4.0
            scaled = opt.get_scaled_loss(loss)
        g = opt.get_unscaled_gradients(t.gradient(scaled, model.trainable_variables))
        opt.apply_gradients(zip(g, model.trainable_variables))
        return scaled
    step = lambda x: S2.run(fn, args=(x,))
    if traced:
        step = tf.function(step)
    seen = []
    for bad in [False, True, False, False, False, True]:
        x = S2.experimental_distribute_values_from_function(
            lambda ctx: tf.constant([[1.0, 2.0]]) * (float('inf') if bad and
            ctx.replica_id_in_sync_group == 1 else 0.5 * (ctx.replica_id_in_sync_group + 1)))
        scaled = step(x)
        seen.append([local(scaled), opt.loss_scale.numpy(), opt.iterations.numpy(),
                     opt.dynamic_counter.numpy() if opt.dynamic else None,
                     [w.numpy() for w in model.weights]])
    return seen
"""

CASES.update({
    "dynamic LossScaleOptimizer in a traced step: skipped steps and growth": LOSS_SCALE + """
opt = lambda: tf.keras.mixed_precision.LossScaleOptimizer(
    tf.keras.optimizers.SGD(0.1), initial_scale=64.0, dynamic_growth_steps=2)
out = run_steps(opt, traced=True)
""",
    "dynamic LossScaleOptimizer in an eager step: skipped steps and growth": LOSS_SCALE + """
opt = lambda: tf.keras.mixed_precision.LossScaleOptimizer(
    tf.keras.optimizers.SGD(0.1), initial_scale=64.0, dynamic_growth_steps=2)
out = run_steps(opt, traced=False)
""",
    "fixed LossScaleOptimizer in a traced step": LOSS_SCALE + """
opt = lambda: tf.keras.mixed_precision.LossScaleOptimizer(
    tf.keras.optimizers.SGD(0.1), dynamic=False, initial_scale=8.0)
out = run_steps(opt, traced=True)
""",
})

# strategy.run(tf.function) and merge_call in nested tf.functions (TF's mirrored_run.py:
# call_for_each_replica lifts a tf.function fn into a clone that runs the replicas;
# _MirroredReplicaContext._merge_call refuses a graph other than the replica thread's; the
# base ReplicaContext (OneDeviceStrategy, the default strategy) has no such check).
NESTED_MERGE = """
def nested():
    @tf.function
    def inner(x):
        ctx = tf.distribute.get_replica_context()
        return ctx.merge_call(lambda s, v: s.reduce("SUM", v, axis=None), args=(x,))
    return lambda x: inner(x * 2.0)
"""

CASES.update({
    "strategy.run of a tf.function: TF traces its replicas into a clone of it": SETUP + """
@tf.function
def replica_sum():
    print("tracing replica_sum")
    ctx = tf.distribute.get_replica_context()
    return ctx.all_reduce("SUM", tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32))
@tf.function
def f(x):
    print("tracing f", x.shape)
    return tf.distribute.get_replica_context().all_reduce("SUM", x * 1.0)
r = calls(lambda: S2.run(replica_sum), (), (), ())
r2 = calls(lambda x: S2.run(f, args=(x,)), (tf.constant(1.0),), (tf.constant(2.0),),
           (tf.ones(2),))
out = [printed.getvalue(), [local(v) for v in r], devices(r[-1]), [local(v) for v in r2],
       replica_sum.experimental_get_tracing_count(), f.experimental_get_tracing_count()]
""",
    "strategy.run of an object whose __call__ is a tf.function that merge_calls: "
    "TF's RuntimeError": SETUP + """
class Step:
    @tf.function
    def __call__(self):
        return tf.distribute.get_replica_context().all_reduce("SUM", 1.0)
S2.run(Step())
""",
    "merge_call in a nested tf.function under a one-device MirroredStrategy: "
    "TF's RuntimeError": SETUP + NESTED_MERGE + """
S1 = tf.distribute.MirroredStrategy(["/cpu:0"])
S1.run(nested(), args=(tf.constant(1.0),))
""",
    "merge_call in a nested tf.function under OneDeviceStrategy and the default strategy":
    SETUP + NESTED_MERGE + """
one = tf.distribute.OneDeviceStrategy("/cpu:0")
out = [one.run(nested(), args=(tf.constant(1.0),)),
       tf.distribute.get_strategy().run(nested(), args=(tf.constant(3.0),))]
""",
})

# merge_call (all_reduce, a mirrored variable's assign) inside a tf.cond branch or a
# tf.while_loop body that a traced replica function builds: TF's RuntimeError (the branch or
# body is a FuncGraph of its own, not the replica thread's graph: mirrored_run.py).
CASES["merge_call in a control-flow body of a traced replica function: TF's RuntimeError"] = \
    SETUP + """
def merge_fn(strategy, x):
    return strategy.reduce("SUM", x, axis=None)
def refused(step, *args):
    try:
        step(*args)
        return "no error"
    except Exception as e:
        return [type(e).__name__, "`merge_call` called while defining a new graph" in str(e)]
@tf.function
def in_cond(p):
    def replica(p):
        ctx = tf.distribute.get_replica_context()
        return tf.cond(p, lambda: ctx.merge_call(merge_fn, args=(tf.constant(1.0),)),
                       lambda: tf.constant(0.0))
    return S2.run(replica, args=(p,))
@tf.function
def in_while():
    def replica():
        ctx = tf.distribute.get_replica_context()
        return tf.while_loop(
            lambda i, s: i < 2,
            lambda i, s: (i + 1, s + ctx.merge_call(merge_fn, args=(tf.constant(1.0),))),
            (0, tf.constant(0.0)))
    return S2.run(replica)
@tf.function
def all_reduce_in_cond(p):
    def replica(p):
        ctx = tf.distribute.get_replica_context()
        return tf.cond(p, lambda: ctx.all_reduce("SUM", tf.constant(1.0)),
                       lambda: tf.constant(0.0))
    return S2.run(replica, args=(p,))
with S2.scope():
    v = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
@tf.function
def assign_in_cond(p):
    def replica(p):
        return tf.cond(p, lambda: v.assign_add(1.0), lambda: tf.identity(v))
    return S2.run(replica, args=(p,))
@tf.function
def merge_outside_the_cond(p):
    def replica(p):
        ctx = tf.distribute.get_replica_context()
        s = ctx.all_reduce("SUM", tf.constant(1.0))
        return tf.cond(p, lambda: s * 2.0, lambda: s)
    return S2.run(replica, args=(p,))
out = [refused(in_cond, tf.constant(True)), refused(in_while),
       refused(all_reduce_in_cond, tf.constant(True)), refused(assign_in_cond, tf.constant(True)),
       local(merge_outside_the_cond(tf.constant(True)))]
"""

# A Keras model built by its first call inside a traced replica function: its weights are
# made outside the graph (TF's Keras builds in init_scope), as MirroredVariables, and the
# first trace that made them is followed by a second (tracing count 2).
CASES["a Keras model built inside a traced replica function"] = SETUP + """
with S2.scope():
    m = tf.keras.Sequential([tf.keras.layers.Dense(3, kernel_initializer="ones"),
                             tf.keras.layers.Dense(1, kernel_initializer="ones")])
state = {}
@tf.function
def step(a):
    print("tracing step")
    def fn(a):
        if "v" not in state:
            state["v"] = tf.Variable(2.0)
        return m(a) * state["v"]
    return S2.run(fn, args=(a,))
x = tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])
r = calls(step, (x,), (x + 1.0,))
out = [printed.getvalue(), [local(v) for v in r], step.experimental_get_tracing_count(),
       type(m.layers[0].kernel).__name__, type(state["v"]).__name__, len(m.weights)]
"""
