"""Keras's loss functions called directly inside a tf.function, as TF 2.21 (tf-keras)
computes and lists them (record_tf_graph_steps.py records, test_graph_listing_conformance.py
replays): each case's ``out`` is the traced graph's ``get_operations()`` (each op as
[name, type, input names]) and the losses' values: mean_absolute_percentage_error,
mean_squared_logarithmic_error, huber, log_cosh, kl_divergence, poisson, hinge,
squared_hinge (0/1 labels converted by a cond), categorical_hinge, and the crossentropies
with ``from_logits=True`` (logistic loss, softmax_cross_entropy_with_logits); sparse
labels of the logits' rank (flattened, the logits reshaped to ``[-1, classes]``: a list
holding a tensor, which TF packs: ``Reshape_1/shape/0`` and a ``Pack``).
Snippets as in tests/tf_snippets.py (straight-line functions)."""

OPS = """
def ops(f, *args):
    g = f.get_concrete_function(*args).graph
    return [[o.name, o.type, [t.name for t in o.inputs]] for o in g.get_operations()]
p = tf.constant([[0.2, -0.3, 1.5], [0.1, 0.7, -2.8]])
y = tf.constant([[0.0, 0.5, 1.0], [2.0, 1.0, 0.0]])
"""

CASES = {
    "MAPE, MSLE, huber, log_cosh": OPS + """
L = tf.keras.losses
@tf.function
def step(p, y):
    return (L.mean_absolute_percentage_error(y, p), L.mean_squared_logarithmic_error(y, p),
            L.huber(y, p), L.huber(y, p, delta=0.5), L.log_cosh(y, p))
out = [ops(step, p, y), step(p, y)]
""",
    "kl_divergence, poisson": OPS + """
L = tf.keras.losses
@tf.function
def step(p, y):
    q = tf.abs(p)
    return L.kl_divergence(y, q), L.poisson(y, q)
out = [ops(step, p, y), step(p, y)]
""",
    "hinge, squared_hinge, categorical_hinge": OPS + """
L = tf.keras.losses
@tf.function
def step(p, y):
    return L.hinge(y, p), L.squared_hinge(y, p), L.categorical_hinge(y, p)
binary = tf.constant([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]])
signed = tf.constant([[-1.0, 1.0, 1.0], [1.0, -1.0, -1.0]])
out = [ops(step, p, binary), step(p, binary), step(p, signed), step(p, y)]
""",
    "crossentropies from_logits called directly": OPS + """
L = tf.keras.losses
@tf.function
def step(p, y, labels):
    return (L.binary_crossentropy(y / 2.0, p, from_logits=True),
            L.categorical_crossentropy(y / 3.0, p, from_logits=True),
            L.sparse_categorical_crossentropy(labels, p, from_logits=True))
labels = tf.constant([2, 0])
out = [ops(step, p, y, labels), step(p, y, labels)]
""",
    "sparse labels of shape (batch, 1) called directly; lists holding tensors packed": OPS + """
L = tf.keras.losses
@tf.function
def step(p, labels):
    n = tf.shape(p)[-1]
    return (L.sparse_categorical_crossentropy(labels, p, from_logits=True),
            tf.reshape(p, [n, 2, -1]), tf.reshape(p, [-1, n]))
labels = tf.constant([[2], [0]])
out = [ops(step, p, labels), step(p, labels)]
""",
}
