"""``tf.tensordot`` as TF 2.21 computes and traces it (record_tf_graph_steps.py records,
test_graph_listing_conformance.py replays): values for an int ``axes``, pairs of lists and of ints,
negative axes, ``axes=0`` (the outer product), int32 and float64 inputs, axes given as a
tensor; TF's errors (a negative or too large ``N``, a list not of two, lists of different
lengths, an axis beyond the rank, contracted dimensions or dtypes that differ); the
gradients; and in a trace, ``get_operations()`` as TF lists them: the static path (a
Transpose or a Reshape only when it changes the tensor, the result's Reshape named after
the scope), and the dynamic one for a dimension known only at run time (Shape, GatherV2,
Prod, Pack, ConcatV2) with its static shape, and for axes given as a tensor (its rows
sliced, Select, range, ListDiff). Snippets as in tests/tf_snippets.py."""

OPS = """
def ops(f, *args):
    g = f.get_concrete_function(*args).graph
    return [[o.name, o.type, [t.name for t in o.inputs]] for o in g.get_operations()]
x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0)
y = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 5.0 - 1.0)
"""

CASES = {
    "values: an int N, pairs of lists, of ints, negative axes, the outer product": OPS + """
out = [tf.tensordot(x, y, 1), tf.tensordot(x, y, [[1, 2], [1, 0]]),
       tf.tensordot(x, y, [1, 1]), tf.tensordot(x, y, ([-1], [-2])),
       tf.tensordot(y, y, 0), tf.tensordot(x, x, 3), tf.tensordot(y, x, axes=[[0], [2]]),
       tf.linalg.tensordot(y, y, [[0, 1], [0, 1]])]
""",
    "values: int32, float64, NumPy and list inputs, axes as a tensor": OPS + """
a = np.arange(60).reshape(3, 4, 5)
b = np.arange(24).reshape(4, 3, 2)
out = [tf.tensordot(a, b, axes=([1, 0], [0, 1])),
       tf.tensordot(tf.constant(a, tf.int32), tf.constant(b, tf.int32), [[0], [1]]),
       tf.tensordot(tf.cast(x, tf.float64), tf.cast(y, tf.float64), 1),
       tf.tensordot([[1.0, 2.0]], [[3.0], [4.0]], 1),
       tf.tensordot(x, y, tf.constant([[2], [0]])), tf.tensordot(x, y, tf.constant([[-1], [0]])),
       tf.tensordot(x, y, tf.constant([[1, 2], [1, 0]]))]
""",
    "error: axes a tensor of shape [2]": OPS + "out = tf.tensordot(x, y, tf.constant([2, 0]))\n",
    "error: a negative N": OPS + "out = tf.tensordot(y, y, -1)\n",
    "error: N larger than the rank": OPS + "out = tf.tensordot(y, y, 3)\n",
    "error: axes a list of three": OPS + "out = tf.tensordot(y, y, [[0], [1], [0]])\n",
    "error: axes lists of different lengths": OPS + "out = tf.tensordot(y, y, [[0, 1], [0]])\n",
    "error: an axis beyond the rank": OPS + "out = tf.tensordot(y, y, [[5], [0]])\n",
    "error: contracted dimensions that differ": OPS + "out = tf.tensordot(x, y, [[1], [0]])\n",
    "error: contracted dimensions that differ, traced": OPS + """
@tf.function
def f(a, b):
    return tf.tensordot(a, b, [[1], [0]])
out = f(x, y)
""",
    "error: dtypes that differ": OPS + """
out = tf.tensordot(tf.constant([[1, 2]]), tf.constant([[1.0], [2.0]]), 1)
""",
    "gradients": OPS + """
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, y])
    t1 = tf.tensordot(x, y, [[1, 2], [1, 0]])
    t2 = tf.tensordot(x, y, 1)
    loss = tf.reduce_sum(t1 * t1) + tf.reduce_sum(tf.sin(t2))
out = tape.gradient(loss, [x, y])
""",
    "traced: the static path's ops": OPS + """
@tf.function
def f(a, b, c):
    return (tf.tensordot(a, b, 1), tf.tensordot(a, c, [[0], [1]]), tf.tensordot(a, b, 0),
            tf.tensordot(x, y, 1, name="contract"), tf.tensordot(a, c, [[0, 1], [1, 0]]))
out = ops(f, tf.ones([2, 3]), tf.ones([3, 4]), tf.ones([3, 2]))
""",
    "traced: a 3-D input, its ops and values": OPS + """
@tf.function
def f(a, b):
    return tf.tensordot(a, b, [[1, 2], [1, 0]]), tf.tensordot(a, b, [[2], [0]])
out = [ops(f, x, y), f(x, y)]
""",
    "traced: a dimension known only at run time": OPS + """
@tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([3, 4])])
def f(a, b):
    return tf.tensordot(a, b, axes=1)
@tf.function(input_signature=[tf.TensorSpec([2, None, 4]), tf.TensorSpec([4, 3])])
def g(a, b):
    return tf.tensordot(a, b, [[2], [0]])
out = [ops(f), f.get_concrete_function().structured_outputs.shape, f(y, x[0]),
       ops(g), g.get_concrete_function().structured_outputs.shape, g(x, y)]
""",
    "traced gradient of a static tensordot": OPS + """
w = tf.Variable(tf.ones([3, 4]))
@tf.function
def f(a):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.tensordot(a, w, [[0], [0]]))
    return tape.gradient(loss, w)
out = [ops(f, tf.ones([3, 2])), f(tf.ones([3, 2]))]
""",
    "a Keras Dense layer on rank-3 inputs: tf-keras's tensordot, static and dynamic": OPS + """
layer = tf.keras.layers.Dense(3, activation="relu")
layer.build((None, 4, 4))
layer.set_weights([y.numpy(), np.array([0.5, -0.25, 0.0], np.float32)])
@tf.function
def f(a):
    return layer(a)
@tf.function(input_signature=[tf.TensorSpec([None, None, 4])])
def g(a):
    return layer(a)
out = [ops(f, x[:, :2]), ops(g), g.get_concrete_function().structured_outputs.shape,
       layer(x), g(x)]
""",
    "traced: inputs of unknown rank, an int N and pairs of lists": OPS + """
@tf.function(input_signature=[tf.TensorSpec(None)])
def f(a):
    return tf.tensordot(a, y, 1)
@tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec([None, 3])])
def g(a, b):
    return tf.tensordot(a, b, [[-2], [1]]), tf.tensordot(b, a, [[1], [1]])
out = [ops(f), f(x), ops(g), g(x, y)]
""",
    # _tensordot_axes: axes[0], axes[1] of the tensor, each side's axes read at run time
    "traced: axes given as a tensor, its ops with their dtypes and shapes": OPS + """
@tf.function
def f(a, b, axes):
    return tf.tensordot(a, b, axes)
g = f.get_concrete_function(x, y, tf.constant([[2], [0]])).graph
out = [[[o.name, o.type, [t.name for t in o.inputs],
         [[t.dtype.name, str(t.shape)] for t in o.outputs]] for o in g.get_operations()],
       f(x, y, tf.constant([[2], [0]])), f(x, y, tf.constant([[1, 2], [1, 0]]))]
""",
}
