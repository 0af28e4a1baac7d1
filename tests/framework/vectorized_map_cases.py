"""tf.vectorized_map as TF 2.21 runs it (recorded by record_tf_linalg.py into
fixtures/tf_vectorized_map.json; replayed by test_vectorized_map.py): values, dtypes and
shapes for tensors and structures, broadcast elements of one row, results that do not
depend on the element, an empty batch; fn traced once per call (eagerly in a tf.function
of its own), inside a tf.function and for an unknown batch size; the per-example gradients
of TF's docstring; gradients through it; the ops TF cannot vectorize (its while_loop
fallback's warnings, or its ValueError); TF's errors (first dimensions that differ,
scalars, .numpy() and Python bools on the traced element, an uncallable fn).
Snippets as in tests/tf_snippets.py."""

E = """
def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        lines = [line.strip() for line in str(e).split("\\n") if line.strip()]
        cause = [line for line in lines if line.startswith(type(e).__name__ + ":")]
        last = [line for line in lines if not line.startswith("[[")][-1]   # not the node
        return [type(e).__name__, lines[0], (cause or [last])[0]]
    return "no error"
x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
"""

CASES = {
    "vectorized_map: tensors, structures, broadcast rows, constants": E + """
v = tf.Variable([1.0, -2.0])
out = [tf.vectorized_map(lambda a: a * a, x),
       tf.vectorized_map(lambda a: (a[0] + a[1], tf.reduce_sum(a[1])), (x, x)),
       tf.vectorized_map(lambda a: {"s": a["u"] * 2.0, "t": a["w"]}, {"u": x, "w": x[:, 0]}),
       tf.vectorized_map(lambda a: [a[1], a[0]], [x, x[:, ::-1]]),
       tf.vectorized_map(lambda a: a[0] + a[1], (x, tf.constant([[10.0, 20.0]]))),
       tf.vectorized_map(lambda a: tf.constant(1.0), x),
       tf.vectorized_map(lambda a: 2.5, x),
       tf.vectorized_map(lambda a: None, x),
       tf.vectorized_map(lambda a: tf.cast(a, tf.int32), x),
       tf.vectorized_map(lambda a: a + 1, tf.constant([1, 2, 3])),
       tf.vectorized_map(lambda a: tf.matmul(a[None], tf.ones([2, 3])), x),
       tf.vectorized_map(lambda a: a[:, None] * a[None, :], x),
       tf.vectorized_map(lambda a: a * 2.0, tf.zeros([0, 2])),
       tf.vectorized_map(lambda a: a * v, x),
       tf.vectorized_map(lambda a: a * 2.0, v),
       tf.vectorized_map(lambda a: tf.cond(tf.reduce_sum(a) > 4.0, lambda: a, lambda: -a), x),
       tf.vectorized_map(lambda a: tf.nn.softmax(a) * tf.reduce_max(a), x)]
""",
    "vectorized_map: fn traced once per call, in and out of a tf.function": E + """
calls = []
def fn(a):
    calls.append(a.shape.as_list())
    return tf.reduce_max(a) * a
eager = [tf.vectorized_map(fn, x), tf.vectorized_map(fn, x + 1.0)]
@tf.function
def f(z):
    calls.append("f")
    return tf.vectorized_map(fn, z)
traced = [f(x), f(x + 1.0), f(tf.ones([4, 2]))]
g = f.get_concrete_function(tf.TensorSpec([None, 2]))
out = [eager, traced, calls, g.structured_outputs.shape, g(x), f.experimental_get_tracing_count(),
       f.get_concrete_function(tf.TensorSpec([None, 2])).structured_outputs.shape]
""",
    "vectorized_map: per-example gradients (TF's docstring)": E + """
layer = tf.keras.layers.Dense(1)
layer.build([None, 3])
layer.set_weights([np.array([[0.5], [-1.0], [0.25]], np.float32), np.array([0.1], np.float32)])
def model_fn(arg):
    with tf.GradientTape() as g:
        inp, label = arg
        inp = tf.expand_dims(inp, 0)
        label = tf.expand_dims(label, 0)
        prediction = layer(inp)
        loss = tf.nn.l2_loss(label - prediction)
    return g.gradient(loss, (layer.kernel, layer.bias))
inputs = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 7.0)
labels = tf.constant([[1.0], [0.0], [-1.0], [2.0]])
per_example = tf.vectorized_map(model_fn, (inputs, labels))
step = tf.function(lambda i, l: tf.vectorized_map(model_fn, (i, l)))
out = [per_example, [t.shape for t in per_example], step(inputs, labels)]
""",
    "vectorized_map errors": E + """
def condition(a):
    if tf.reduce_sum(a) > 3:
        return a
    return -a
out = [error(lambda: tf.vectorized_map(lambda a: a[0] + a[1],
                                       (x, tf.constant([[10.0, 20.0], [1.0, 1.0]])))),
       error(lambda: tf.vectorized_map(lambda a: a, tf.constant(1.0))),
       error(lambda: tf.vectorized_map(lambda a: a * 2, [[1.0, 2.0], [3.0, 4.0]])),
       error(lambda: tf.vectorized_map(lambda a: a.numpy(), x)),
       error(lambda: tf.vectorized_map(condition, x)),
       error(lambda: tf.vectorized_map(3, x))]
""",
}
CASES["vectorized_map: gradients through it, eager and traced; tf.nn.l2_loss"] = E + """
w = tf.Variable([0.5, -1.0])
def outer(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.vectorized_map(lambda a: tf.reduce_sum(a[0] * a[1] * w) ** 2, (x, x[:1]))
        s = tf.reduce_sum(y) + tf.nn.l2_loss(x)
    return y, tape.gradient(s, [x, w])
r = np.random.RandomState(0).randn(5, 33).astype(np.float32)
out = [outer(x), tf.function(outer)(x), tf.nn.l2_loss(r), tf.nn.l2_loss(tf.constant(3.0)),
       error(lambda: tf.nn.l2_loss(tf.constant([1, 2])))[:2]]
"""
CASES["vectorized_map: ops without a vectorization, fallback_to_while_loop"] = E + """
import logging
seen = []
class Keep(logging.Handler):   # (not the retracing warning: its count is per process)
    def emit(self, record):
        if "retracing" not in record.getMessage():
            seen.append(record.getMessage())
keep = Keep()
logging.getLogger("tensorflow").addHandler(keep)
try:
    c = tf.constant([1, 1, 2])
    @tf.function
    def f(z):
        return tf.vectorized_map(lambda a: tf.unique(a)[0] * 2.0, z)
    out = [tf.vectorized_map(lambda a: tf.unique(a)[0], x), list(seen),
           tf.vectorized_map(lambda a: tf.unique(a)[0], x, warn=False),
           tf.vectorized_map(lambda a: tf.unique(c)[0] + tf.cast(a[0], tf.int32), x),
           tf.vectorized_map(lambda a: tf.unique(a)[0] + tf.unique(a * 2.0)[0], x),
           f(x), f(x), tf.vectorized_map(lambda a: tf.nn.l2_loss(a), x), list(seen),
           error(lambda: tf.vectorized_map(lambda a: tf.unique(a)[0], x,
                                           fallback_to_while_loop=False)),
           error(lambda: tf.function(lambda z: tf.vectorized_map(
               lambda a: tf.where(a > 2.0), z, fallback_to_while_loop=False))(x))[:2]]
finally:
    logging.getLogger("tensorflow").removeHandler(keep)
out.append(seen)
"""
