"""Names of the tensors a traced tf.function makes, as TF 2.21 names them
(record_tf_function.py records, test_function_names.py replays): a user's
``tf.name_scope`` prefixes the ops made inside it, ``name=`` names an op, names are made
unique (``x``, ``x_1``; a scope used again becomes ``s_1/``), and a Keras model's ops are
named under the model's and the layer's scopes (``sequential/dense/BiasAdd``). Each case
also keeps TF's full operation list (``graph.get_operations()``: name and type) of the
traced graph as ``ops``, for reference; the replay compares the tensor names (``names``).
Snippets as in tests/tf_snippets.py."""

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
}
