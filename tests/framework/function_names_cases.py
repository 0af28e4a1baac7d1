"""Names of the tensors a traced tf.function makes, as TF 2.21 names them
(record_tf_function.py records, test_function_names.py replays): a user's
``tf.name_scope`` prefixes the ops made inside it, ``name=`` names an op, names are made
unique (``x``, ``x_1``; a scope used again becomes ``s_1/``), and a Keras model's ops are
named under the model's and the layer's scopes (``sequential/dense/BiasAdd``). Each case
also keeps TF's full operation list (``graph.get_operations()``: name and type) of the
traced graph as ``ops``, for reference; the replay compares the tensor names (``names``).
Snippets as in tests/tf_snippets.py."""

from tf_snippets import MODULE

SETUP = """
names = []
def seen(*ts):
    names.extend(t.name for t in ts)
def ops(f, *args):
    g = f.get_concrete_function(*args).graph
    return [[o.name, o.type] for o in g.get_operations()] if hasattr(g, "get_operations") \\
        else None
"""

CASES = {
    "tf.convert_to_tensor of Python values: Const ops": SETUP + """
@tf.function
def f(x):
    a = tf.convert_to_tensor(2.0) + x
    b = tf.convert_to_tensor([1.0, 3.0]) * a
    c = tf.convert_to_tensor(x) - 1.0   # a tensor converts to itself: no op
    seen(a, b, c)
    return b, c
r = f(tf.constant(1.0))
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0))}
""",
    "name_scope and name= in a plain function": SETUP + """
@tf.function
def f(x):
    a = x + 1.0
    with tf.name_scope("scale"):
        b = a * 2.0
        c = tf.multiply(b, 3.0, name="triple")
        with tf.name_scope("inner"):
            d = tf.add(c, b)
    e = tf.identity(d, name="result")
    seen(a, b, c, d, e)
    return e
r = f(tf.constant(1.0))
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0))}
""",
    "unique names: a name and a scope used twice": SETUP + """
@tf.function
def f(x):
    a = tf.add(x, 1.0, name="x")
    b = tf.add(a, 1.0, name="x")
    c = tf.add(b, 1.0, name="x_1")
    with tf.name_scope("s"):
        d = c * 2.0
    with tf.name_scope("s"):
        e = d * 2.0
    g = tf.add(e, 1.0, name="X")
    h = tf.reduce_sum(g)
    k = tf.reduce_sum(h, name="Sum")
    seen(a, b, c, d, e, g, h, k)
    return k
r = f(tf.constant(1.0))
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0))}
""",
    "ops named after TF's op types": SETUP + """
@tf.function
def f(x, y):
    a = tf.matmul(x, y)
    b = tf.reduce_mean(a)
    c = tf.nn.relu(a)
    d = tf.square(c)
    e = tf.reduce_sum(d)
    g = tf.cast(e, tf.float64)
    h = tf.reshape(a, [-1])
    k = a - 1.0
    m = -a
    n = a / 2.0
    seen(a, b, c, d, e, g, h, k, m, n)
    return b
x = tf.ones([2, 2])
r = f(x, x)
out = {"names": names, "value": r, "ops": ops(f, x, x)}
""",
    "a Sequential model's ops inside a trace": SETUP + """
model = tf.keras.Sequential([
    tf.keras.layers.Dense(3, activation="relu", kernel_initializer="ones"),
    tf.keras.layers.Dense(1, kernel_initializer="ones")])
@tf.function
def f(x):
    h = model.layers[0](x)
    y = model(x)
    seen(h, y)
    return y
x = tf.ones([2, 4])
r = f(x)
out = {"names": names, "value": r, "ops": ops(f, x)}
""",
    "a custom training step's names": SETUP + """
model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
loss_fn = tf.keras.losses.MeanSquaredError()
opt = tf.keras.optimizers.SGD(0.1)
@tf.function
def step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = loss_fn(y, pred)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    seen(pred, loss)
    return loss
x, y = tf.ones([2, 3]), tf.zeros([2, 1])
r = step(x, y)
out = {"names": names, "value": r, "ops": ops(step, x, y)}
""",
    "more ops named after TF's op types": SETUP + """
@tf.function
def f(x, y):
    ts = [tf.sigmoid(x), tf.tanh(x), tf.nn.softmax(x), tf.maximum(x, y), tf.minimum(x, y),
          tf.abs(x), tf.math.log(x), tf.exp(x), tf.sqrt(x), tf.math.squared_difference(x, y),
          tf.reduce_max(x), tf.reduce_min(x), tf.reduce_prod(x), tf.argmax(x, axis=1),
          tf.transpose(x), tf.concat([x, y], 0), tf.expand_dims(x, 0), tf.squeeze(x),
          tf.nn.sigmoid(x), tf.math.pow(x, 2.0), x ** 2.0, x @ y, tf.zeros_like(x),
          tf.ones_like(x), tf.stack([x, y]), tf.math.reduce_any(x > y),
          tf.equal(x, y), tf.where(x > y, x, y), tf.gather(x, [0]), tf.clip_by_value(x, 0.0, 1.0),
          tf.nn.relu6(x), tf.nn.elu(x), tf.nn.leaky_relu(x),
          tf.nn.log_softmax(x), tf.math.rsqrt(x), tf.math.reciprocal(x), tf.math.floor(x),
          tf.math.round(x), tf.math.sign(x), tf.math.logical_not(x > y), tf.tile(x, [1, 2]),
          tf.shape(x), tf.size(x), tf.rank(x), tf.one_hot([0, 1], 2), tf.fill([2], 1.0),
          tf.range(3), x[0], tf.math.add_n([x, y]),
          tf.math.truediv(x, y), tf.math.floordiv(x, y), tf.math.mod(x, y), x // y, x % y,
          tf.math.divide_no_nan(x, y), tf.math.is_nan(x)]
    seen(*ts)
    return ts[0]
x = tf.ones([2, 2])
r = f(x, x)
out = {"names": names, "value": r, "ops": ops(f, x, x)}
""",
    "losses and layers called twice, reductions": SETUP + """
dense = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones")
mse = tf.keras.losses.MeanSquaredError()
total = tf.keras.losses.MeanSquaredError(reduction="sum")
each = tf.keras.losses.MeanAbsoluteError(reduction="none", name="_my_mae_")
cce = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
@tf.function
def f(x, y):
    a = dense(x)
    b = dense(x)
    seen(a, b, mse(y, a), mse(y, b), total(y, a), each(y, a), cce([0, 1], a))
    return a
x, y = tf.ones([2, 3]), tf.zeros([2, 2])
r = f(x, y)
out = {"names": names, "value": r, "ops": ops(f, x, y)}
""",
    "a nested tf.function call's op": SETUP + """
v = tf.Variable(1.0)
@tf.function
def pure(x):
    return x * 2.0
@tf.function
def reads(x):
    return x * v
@tf.function
def prints(x):
    tf.print(x)
    return x + 1.0
@tf.function
def f(x):
    a, b, c, d = pure(x), reads(x), prints(x), pure(x)
    with tf.name_scope("s"):
        e = pure(x)
    seen(a, b, c, d, e)
    return a + b + c + d + e
r = f(tf.constant(1.0))
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0))}
""",
    "tf.where with one argument and with three": SETUP + """
@tf.function
def f(x):
    a = tf.where(x > 1.0)
    b = tf.where(x > 1.0, x, -x)
    c = tf.where(x > 2.0, name="picked")
    seen(a, b, c)
    return b
x = tf.constant([1.0, 2.0, 3.0])
r = f(x)
out = {"names": names, "value": r, "ops": ops(f, x)}
""",
    "a nested function's outputs are its call op's": SETUP + """
v = tf.Variable(3.0)
@tf.function
def inner(x):
    return {"a": x * 2.0, "b": [1.0, 2], "c": (x, 3), "d": None, "e": "s", "v": v}
@tf.function
def passes(x):
    return x
@tf.function
def f(x):
    r = inner(x)
    p = passes(x)
    flat = [t for t in tf.nest.flatten(r) if t is not None] + [p]
    seen(*flat)
    dtypes.extend(t.dtype.name for t in flat)
    return r["b"], r["c"], r["e"], r["d"], p
dtypes = []
r = f(tf.constant(1.0))
out = {"names": names, "value": [r, dtypes], "ops": ops(f, tf.constant(1.0))}
""",
    "get_operations: types, inputs, outputs, tensor.op, a variable read by an op": SETUP + """
v = tf.Variable(2.0)
dense = tf.keras.layers.Dense(2, kernel_initializer="ones")
def listed(g):
    return [[o.name, o.type, [i.name for i in o.inputs], [t.name for t in o.outputs]]
            for o in g.get_operations()]
@tf.function
def f(x, y):
    a = tf.matmul(x, y)
    b = a + 1.0
    c = 2.0 * b
    d = tf.reduce_sum(c, axis=1)
    e = tf.nn.relu(d - tf.constant(3.0))
    h = e * v
    k = dense(tf.reshape(h, [-1, 1]))
    seen(a, b, c, d, e, h, k)
    producers.extend([t.op.name, t.op.type] for t in (a, b, c, d, e, h, k))
    return k, tf.shape(x)
producers = []
x, y = tf.ones([2, 3]), tf.ones([3, 4])
r = f(x, y)
g = f.get_concrete_function(x, y).graph
out = {"names": names, "value": r, "ops": ops(f, x, y),
       "graph": [listed(g), producers, g.get_tensor_by_name("add:0").op.name,
                 [n.name for n in g.as_graph_def().node][:4],
                 [list(n.input) for n in g.as_graph_def().node][:6]]}
""",
    "strategy.run in a trace: replica_1/ and replica_2/ name scopes": SETUP + """
@tf.function
def step(x):
    def fn(x):
        a = x * 2.0
        with tf.name_scope("inner"):
            b = a + tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                            tf.float32)
        seen(a, b)
        return b
    with tf.name_scope("outer"):
        r = S3.run(fn, args=(x,))
    return S3.experimental_local_results(r)
S3 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
r = step(tf.constant(1.0))
out = {"names": names, "value": list(r), "ops": ops(step, tf.constant(1.0))}
""",
    "tf.cond and tf.while_loop: their ops named in their own scopes": SETUP + """
@tf.function
def f(x):
    def t():
        a = x * 2.0
        seen(a)
        return a
    def e():
        b = x * 3.0
        seen(b)
        return b
    c = tf.cond(x > 0, t, e)
    def body(i, y):
        z = y + 1.0
        seen(z)
        return i + 1, z
    _, w = tf.while_loop(lambda i, y: i < 3, body, [0, c])
    c2 = tf.cond(x > 0, t, e)
    seen(c, w, c2)
    return w + c2
r = f(tf.constant(1.0))
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0))}
""",
    "variable reads: an argument's, value, operators, conversions": SETUP + """
w = tf.Variable([[3.0]])
@tf.function
def f(v, x):
    a = tf.matmul(v.value(), x)
    b = v * 2.0
    c = v.value() + 1.0
    d = tf.matmul(w, x)
    e = tf.identity(w)
    g = 2.0 * w
    with tf.name_scope("s"):
        h = w.value()
    seen(a, b, c, d, e, g, h)
    return a + b + c + d + e + g + h
x, v = tf.ones([1, 1]), tf.Variable([[2.0]])
r = f(v, x)
g = f.get_concrete_function(v, x).graph
out = {"names": names, "value": r, "ops": ops(f, v, x),
       "graph": [[o.name, o.type, [i.name for i in o.inputs]] for o in g.get_operations()]}
""",
    "read_value: Read/ReadVariableOp and its Identity": SETUP + """
v = tf.Variable(2.0)
w = tf.Variable([1.0, 2.0], name="w")
@tf.function
def f(x):
    a = v.read_value()
    b = v.read_value() * x
    c = w.read_value()
    d = v.value()
    e = tf.identity(v)
    with tf.name_scope("s"):
        h = v.read_value()
    seen(a, b, c, d, e, h)
    return a + b + tf.reduce_sum(c) + d + e + h
x = tf.constant(1.0)
r = f(x)
g = f.get_concrete_function(x).graph
out = {"names": names, "value": r, "ops": ops(f, x),
       "graph": [[o.name, o.type, [i.name for i in o.inputs]] for o in g.get_operations()]}
""",
    "a Dense layer and a variable in strategy.run: each replica's reads": SETUP + """
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with S2.scope():
    dense = tf.keras.layers.Dense(1, kernel_initializer="ones")
    dense.build((None, 2))
    v = tf.Variable(2.0)
@tf.function
def step(x):
    def fn(x):
        y = dense(x) * v
        seen(y)
        return y
    return S2.experimental_local_results(S2.run(fn, args=(x,)))
x = tf.ones([1, 2])
r = step(x)
g = step.get_concrete_function(x).graph
out = {"names": names, "value": list(r), "ops": ops(step, x),
       "graph": [o.name for o in g.get_operations() if o.type == "ReadVariableOp"]}
""",
    # TF's graph mode of tf.custom_gradient (custom_gradient.py _graph_mode_decorator): the
    # body's ops, an unused Identity per output, then IdentityN(outputs + arguments).
    "tf.custom_gradient in a trace: the body's ops, Identity and IdentityN": SETUP + """
@tf.custom_gradient
def softplus(x):   # log(1 + exp(x)) = x + log(1 + exp(-x))
    e = tf.exp(-x)
    def grad(dy):
        return dy / (1 + e)
    return x + tf.math.log1p(e), grad
@tf.custom_gradient
def clipped(x, y):
    def grad(dy):
        return tf.clip_by_norm(dy, 0.5), dy * 3.0
    return x * y, grad
@tf.function
def f(x):
    a = softplus(x)
    b = clipped(x, 2.0 * x)
    seen(a, b)
    return a + b
@tf.function
def grads(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = softplus(x) + clipped(x, 3.0 * x)
    return tape.gradient(y, x)
def listed(g):
    return [[o.name, o.type, [i.name for i in o.inputs]] for o in g.get_operations()]
r = [f(tf.constant(1.0)), grads(tf.constant(1.0)), grads(tf.constant(-2.0)),
     grads.experimental_get_tracing_count()]
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0)),
       "graph": [listed(f.get_concrete_function(tf.constant(1.0)).graph)]}
""",
    "tf.custom_gradient reading a variable in a trace: IdentityN reads it too": SETUP + """
v = tf.Variable(3.0)
@tf.custom_gradient
def scaled(x):
    def grad(dy, variables=None):
        return dy * 10.0, [dy * 100.0 * x]
    return x * v, grad
@tf.function
def f(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x)
    seen(y)
    return y, tape.gradient(y, [x, v])
def listed(g):
    return [[o.name, o.type, [i.name for i in o.inputs]] for o in g.get_operations()]
@tf.function
def plain(x):
    return scaled(x) + 1.0
r = [f(tf.constant(2.0)), f(tf.constant(-1.0)), plain(tf.constant(2.0))]
out = {"names": names, "value": r, "ops": ops(plain, tf.constant(1.0)),
       "graph": [listed(plain.get_concrete_function(tf.constant(1.0)).graph)]}
""",
    # TF's _ReductionDims names a reduction's default axes before the op (Const, Sum)
    "a reduction over every axis: its axes' Const named before it": SETUP + """
@tf.function
def f(x):
    a = tf.reduce_sum(x * 2.0)
    b = tf.constant([1.0, 2.0])
    c = tf.reduce_mean(x[0])
    d = tf.constant(3.0)
    with tf.name_scope("s"):
        e = tf.reduce_max(x) + tf.constant(1.0)
    g = tf.reduce_sum(tf.reduce_sum(x)) + tf.constant(4.0)   # a scalar's: Rank, range
    seen(a, b, c, d, e, g)
    return a + tf.reduce_sum(b) + c + d + e + g
r = f(tf.ones([2, 3]))
out = {"names": names, "value": r, "ops": ops(f, tf.ones([2, 3]))}
""",
    # TF's array_ops._constant_if_small: a Const under 1000 elements, else a Fill
    "tf.ones and tf.zeros of a Python shape: a Const, or a Fill from 1000 elements":
        SETUP + """
@tf.function
def f(x):
    a = tf.ones([3]) * x + tf.zeros([2, 1])
    b = tf.ones([40, 40])[0, :1] + tf.zeros((10, 100), tf.int32)[0, 0].dtype.size
    seen(a, b)
    return a, b
r = f(tf.constant(1.0))
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0))}
""",
    # TF's name_scope_v2 in a graph yields Graph.name_scope's unique scope
    "name_scope(...) as scope in a trace: the graph's unique scope, a variable under it":
        SETUP + """
made = []
@tf.function
def f(x):
    with tf.name_scope("x") as scope:
        if not made:
            made.append(tf.Variable(1.0, name="v"))
        with tf.name_scope("x") as inner:
            y = x * made[0]
    with tf.name_scope("x") as again:
        z = tf.identity(y + 1.0, name="out")
    with tf.name_scope(scope):
        w = z - 1.0
    seen(y, z, w, made[0])
    return w, tf.constant(scope), tf.constant(inner), tf.constant(again)
r = f(tf.constant(1.0))
out = {"names": names, "value": r, "ops": ops(f, tf.constant(1.0))}
""",    # tf-keras casts a layer's inputs in its scope, an AutoCastVariable inside the op using it
    "a mixed_float16 Dense layer: its input's Cast, its weights read and cast by its ops":
        SETUP + """
layer = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones",
                              bias_initializer="ones", dtype="mixed_float16")
layer.build((None, 3))
@tf.function
def f(x):
    y = layer(x)
    seen(y)
    return y
r = f(tf.ones([4, 3]))
out = {"names": names, "value": r, "ops": ops(f, tf.ones([4, 3]))}
""",
}


# Module programs (AutoGraph needs their source) list a traced function's operations with:
OPS = """
def ops(f, *args):
    g = f.get_concrete_function(*args).graph
    return [[o.name, o.type] for o in g.get_operations()]
"""

# AutoGraph's loop over a dataset needs the program's source: a module file of its own
DATASET_PROGRAM = OPS + """ds = tf.data.Dataset.range(3)
@tf.function
def loop(x):
    s = tf.constant(0, tf.int64)
    for e in ds:
        s += e
    return s
@tf.function
def reduce():
    return ds.reduce(tf.constant(0, tf.int64), lambda a, b: a + b)
@tf.function
def pair():
    return ds.reduce((tf.constant(0, tf.int64), 1.0), lambda a, b: (a[0] + b, a[1] * 2.0))
@tf.function
def with_break(x):
    s = tf.constant(0, tf.int64)
    for e in ds:
        if s > x:
            break
        s += e
    return s
x, k = tf.constant(2.0), tf.constant(1, tf.int64)
out = {"names": [], "value": [loop(x), reduce(), pair(), with_break(k)],
       "ops": [ops(loop, x), ops(reduce), ops(pair), ops(with_break, k)]}
"""
CASES["a dataset reduced in a trace: ReduceDataset, and ScanDataset for a loop"] = (
    MODULE + f"out = run_module('names_dataset', {DATASET_PROGRAM!r})\n")


# AutoGraph's while on a tensor: TF evaluates its first test in a throwaway graph ('tmp'), so
# the outer graph holds only the While op's inputs and the loop (no Less of its own)
WHILE_PROGRAM = OPS + """@tf.function
def doubling(x):
    n = tf.constant(0)
    while x < 10.0:
        x = x * 2.0
        n += 1
    return x, n
@tf.function
def python_test(x):
    i = 0
    while i < 2:
        x = x + 1.0
        i += 1
    return x
x = tf.constant(1.5)
out = {"names": [], "value": [doubling(x), python_test(x)],
       "ops": [ops(doubling, x), ops(python_test, x)]}
"""
CASES["an AutoGraph while: its first test traced in a throwaway graph"] = (
    MODULE + f"out = run_module('names_while', {WHILE_PROGRAM!r})\n")
