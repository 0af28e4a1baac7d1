"""Gradients of tf.gather / embedding lookups as TF 2.21 gives them, eagerly and inside a
traced tf.function (record_tf_function.py records into fixtures/tf_indexed_slices.json;
test_indexed_slices.py replays): TF's gradient with respect to the gathered params is a
``tf.IndexedSlices`` (the gathered rows' gradients, their indices, the params' dense shape),
two of them add up by concatenation, and a dense use of the same params makes it dense.
Three or more dense gradients of one tensor sum left to right (AddN) in the order of TF's
tape eagerly (breadth first from the target), in another order in a trace."""

SLICES = """
def slices(g):
    if not isinstance(g, tf.IndexedSlices):
        return ['dense', g]
    return [type(g).__name__, g.indices, g.values, g.dense_shape, tf.convert_to_tensor(g)]
"""

CASES = {
    "gather gradient of a variable in a traced function": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
@tf.function
def f(ids):
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(emb, ids) * 2.0)
    return t.gradient(y, emb)
out = [slices(f(tf.constant([0, 2, 0]))), slices(f(tf.constant([1])))]
""",
    "gather gradient of a variable eagerly": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
with tf.GradientTape() as t:
    y = tf.reduce_sum(tf.gather(emb, tf.constant([2, 1])) * 3.0)
out = slices(t.gradient(y, emb))
""",
    "two gathers of one variable add up by concatenation": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
@tf.function
def f():
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(emb, [0, 1])) + tf.reduce_sum(tf.gather(emb, [1]) * 5.0)
    return t.gradient(y, emb)
out = slices(f())
""",
    "a dense use of the gathered variable makes the gradient dense": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
@tf.function
def f():
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.gather(emb, [2])) + tf.reduce_sum(emb * 0.5)
    return t.gradient(y, emb)
out = slices(f())
""",
    "an Embedding layer trained in a traced step": SLICES + """
layer = tf.keras.layers.Embedding(4, 2, embeddings_initializer='ones')
layer.build((None,))
opt = tf.keras.optimizers.SGD(0.5)
@tf.function
def step(ids):
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(layer(ids) ** 2)
    g = t.gradient(loss, layer.trainable_variables)
    opt.apply_gradients(zip(g, layer.trainable_variables))
    return g[0]
out = [slices(step(tf.constant([[1, 3], [1, 0]]))), layer.get_weights()]
""",
}

# --- a Cast keeps the gradient sparse (TF's math_ops.cast of an IndexedSlices) -------------
CASES.update({
    "a cast's gradient stays IndexedSlices, eagerly and traced": SLICES + """
emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
def grad(ids):
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.cast(tf.gather(tf.cast(emb, tf.float16), ids), tf.float32) * 3.0)
    return t.gradient(y, emb)
out = [slices(grad(tf.constant([2, 0]))), slices(tf.function(grad)(tf.constant([1, 1])))]
""",
    "an Embedding under mixed_float16 trained in a traced step": SLICES + """
tf.keras.mixed_precision.set_global_policy('mixed_float16')
try:
    layer = tf.keras.layers.Embedding(4, 2, embeddings_initializer='ones')
    layer.build((None,))
finally:
    tf.keras.mixed_precision.set_global_policy('float32')
opt = tf.keras.optimizers.SGD(0.5)
@tf.function
def step(ids):
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(tf.cast(layer(ids), tf.float32) ** 2)
    g = t.gradient(loss, layer.trainable_variables)
    opt.apply_gradients(zip(g, layer.trainable_variables))
    return g[0]
out = [slices(step(tf.constant([[1, 3], [1, 0]]))), layer.compute_dtype,
       layer.get_weights()]
""",
})

# --- IndexedSlices reduced across replicas (MirroredStrategy on 2 logical CPUs): TF's
# ReductionToOneDevice concatenates the replicas' slices on one device and copies them back
# (AllReduceCrossDeviceOps does the same for its sparse values, with a warning)
MIRRORED = SLICES + """
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
def rows(ctx):   # replica r has r + 1 rows of r + 1, at rows r, r + 1, ...
    n = ctx.replica_id_in_sync_group + 1
    return tf.ones([n, 2]) * float(n), tf.range(n) + n - 1
parts = S2.experimental_distribute_values_from_function(rows)
def sparse_grad(values, indices):
    return tf.IndexedSlices(values * 1.0, indices, tf.constant([4, 2]))
def each(v):
    return [slices(x) + [x.values.device, x.indices.device]
            for x in S2.experimental_local_results(v)]
"""

CASES.update({
    "all_reduce of IndexedSlices under MirroredStrategy in a traced step": MIRRORED + """
@tf.function
def step(p):
    def fn(p):
        ctx = tf.distribute.get_replica_context()
        g = sparse_grad(*p)
        return ctx.all_reduce("SUM", g), ctx.all_reduce("MEAN", [g, tf.ones(2)])
    return S2.run(fn, args=(p,))
total, (mean, dense) = step(parts)
out = [each(total), each(mean), [x.device for x in S2.experimental_local_results(dense)]]
""",
    "all_reduce of IndexedSlices under MirroredStrategy eagerly": MIRRORED + """
total = S2.run(lambda p: tf.distribute.get_replica_context().all_reduce("SUM", sparse_grad(*p)),
               args=(parts,))
out = each(total)
""",
    "strategy.reduce and batch_reduce_to of IndexedSlices": MIRRORED + """
@tf.function
def step(p):
    g = S2.run(sparse_grad, args=p)
    return (S2.reduce("SUM", g, axis=None), S2.reduce("MEAN", g, axis=None),
            S2.extended.batch_reduce_to("SUM", [(g, "/cpu:1")]))
total, mean, (on1,) = step(parts)
out = [slices(total) + [total.values.device], slices(mean), slices(on1) + [on1.values.device]]
""",
    "IndexedSlices with HierarchicalCopyAllReduce are reduced on one device": MIRRORED + """
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"],
                                    cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
parts = S2.experimental_distribute_values_from_function(rows)
@tf.function
def step(p):
    def fn(p):
        return tf.distribute.get_replica_context().all_reduce("MEAN",
                                                              [sparse_grad(*p), tf.ones(3)])
    return S2.run(fn, args=(p,))
r = step(parts)
out = [each(r[0]), [x.device for x in S2.experimental_local_results(r[1])]]
""",
    "an Embedding trained under MirroredStrategy in a traced step": MIRRORED + """
with S2.scope():
    layer = tf.keras.layers.Embedding(4, 2, embeddings_initializer='ones')
    layer.build((None,))
    opt = tf.keras.optimizers.SGD(0.5)
@tf.function
def step(ids):
    def fn(ids):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(layer(ids) ** 2)
        g = t.gradient(loss, layer.trainable_variables)
        opt.apply_gradients(zip(g, layer.trainable_variables))
        return g[0]
    return S2.run(fn, args=(ids,))
ids = S2.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([[1, 3]]) if ctx.replica_id_in_sync_group == 0
    else tf.constant([[0, 1]]))
g = step(ids)
out = [each(g), [w.numpy() for w in S2.experimental_local_results(layer.embeddings)]]
""",
})

# --- several gradients of one tensor: TF's tape (tape.h) runs the ops' gradients breadth
# first from the target and sums a tensor's gradients in that order (backprop's
# _aggregate_grads: IndexedSlices concatenated; int64 indices win)
CASES.update({
    "gathers of one variable concatenate in the tape's breadth-first order": SLICES + """
v = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
def grads():
    found = []
    with tf.GradientTape(persistent=True) as t:
        z1 = tf.reduce_sum(tf.gather(v, [1]) * 2.0) + tf.reduce_sum(tf.gather(v, [0, 2]))
        y1, y2, y3 = tf.gather(v, [0]), tf.gather(v, [1]), tf.gather(v, [2])
        z2 = tf.reduce_sum(y1 * 3.0) + tf.reduce_sum(y2) + tf.reduce_sum(tf.exp(y3 * 0.1) * 2.0)
        z3 = (tf.reduce_sum(tf.exp(y1 * 0.1) * 2.0) + tf.reduce_sum(y2 * 3.0)
              + tf.reduce_sum(y3))
        z4 = tf.reduce_sum(tf.gather(v, [3]) * tf.gather(v, [1]))
    return [slices(t.gradient(z, v)) for z in (z1, z2, z3, z4)]
out = [grads(), tf.function(grads)()]
""",
    "int32 and int64 indices concatenate as int64; a watched tensor's gather": SLICES + """
v = tf.Variable(np.ones((4, 3), np.float32))
x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    z = (tf.reduce_sum(tf.gather(v, tf.constant([3], tf.int64)))
         + tf.reduce_sum(tf.gather(v, [1])))
    zx = tf.reduce_sum(tf.gather(x, [2, 2])) + tf.reduce_sum(tf.gather(x, [0]) * 3.0)
g = t.gradient(z, v)
out = [slices(g), g.indices.dtype.name, slices(t.gradient(zx, x))]
""",
    "an IndexedSlices made dense in a traced function; its shape; no dense_shape": SLICES + """
v = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
@tf.function
def known():
    with tf.GradientTape() as t:
        z = tf.reduce_sum(tf.gather(v, [0, 1])) + tf.reduce_sum(tf.gather(v, [3]))
    g = t.gradient(z, v)
    return g.indices, tf.convert_to_tensor(g), tf.reduce_sum(g) * 1.0
@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def unknown(x):
    with tf.GradientTape() as t:
        t.watch(x)
        z = tf.reduce_sum(tf.gather(x, [0, 1])) + tf.reduce_sum(x * x)
    return t.gradient(z, x)
g = tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1]), tf.constant([3, 2]))
try:
    tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1])))
except ValueError as e:
    error = str(e).split(':')[0]
out = [known(), unknown(tf.ones((3, 2))), g.shape, tf.convert_to_tensor(g),
       tf.math.add_n([g, tf.ones((3, 2))]), tf.add(g, g), error]
""",
    "three or more dense gradients of one tensor sum in the tape's order eagerly": """
x = tf.constant([1.0, 2.0])
def added(order):   # the terms made a, b, c; added in the given order
    with tf.GradientTape() as t:
        t.watch(x)
        terms = {"a": x * 1e8, "b": x * 1.0, "c": x * -1e8}
        y = tf.add_n([terms[k] for k in order])
    return t.gradient(y, x)
def stacked(vals):
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.stack([tf.reduce_sum(x * v) for v in vals]))
    return t.gradient(y, x)
def plus():
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(x * 1e8) + tf.reduce_sum(x * 1.0) + tf.reduce_sum(x * -1e8)
    return t.gradient(y, x)
out = [[added(o) for o in ("abc", "acb", "bac", "bca", "cab", "cba")],
       [stacked(v) for v in ([1e8, 1.0, -1e8, 1.0], [1.0, 1e8, 1.0, -1e8],
                             [1e8, -1e8, 1.0, 1.0])],
       plus(), tf.function(plus)()]
""",
})
