"""``tf.math.bincount``, ``tf.histogram_fixed_width(_bins)`` and ``tf.strings.format`` as
TF 2.21 runs them (record_tf_strings.py records into fixtures/tf_count_ops.json,
test_count_ops.py replays): eager values and dtypes, the same ops in a tf.function (values
and traced static shapes), their (missing) gradients, and TF's errors (first line, the
kernel's device prefix and op suffix taken off). Snippets as in tests/tf_snippets.py."""

COMMON = """
def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        text = str(e).split("\\n")[0]
        if text.startswith("{{function_node"):
            text = text.split("}} ", 1)[1]
        return [type(e).__name__, text.split(" [Op:")[0]]
    return "no error"
def shapes(fn, *specs):
    outs = tf.function(fn).get_concrete_function(*specs).structured_outputs
    return [str(t.shape) for t in tf.nest.flatten(outs)]
def no_gradient(fn, x):
    x = tf.constant(x)
    with tf.GradientTape() as t:
        t.watch(x)
        y = fn(x)
    return error(lambda: t.gradient(y, x))
S = tf.TensorSpec
"""

VALUES = "v = [-1.0, 0.0, 1.5, 2.0, 5.0, 15.0]\n"

CASES = {
    "bincount counts, with minlength, maxlength, weights, dtype": """
b = tf.math.bincount
w = tf.constant([0.5, 1.0, 2.0, 3.0])
out = [b([1, 1, 2, 5]), b([]), b(tf.constant([], tf.int32)), b([1, 1, 2, 5], minlength=8),
       b([1, 1, 2, 5], maxlength=3), b([1, 1, 2, 5], weights=[0.5, 1.0, 2.0, 3.0]),
       b([1, 1, 2, 5], weights=tf.constant([0.5, 1.0, 2.0, 3.0], tf.float64)),
       b([1, 1, 2, 5], weights=w, dtype=tf.float64), b([1, 1, 2, 5], dtype=tf.float32),
       b([1, 1, 2, 5], dtype=tf.int64), b([1, 1, 2, 5], binary_output=True),
       b([1, 1, 2, 5], binary_output=True, dtype=tf.float32),
       b([[1, 1, 2], [0, 3, 3]]), b([1.7, 1.2, 2.9]), b(tf.constant([1, 3], tf.int64)),
       b(tf.constant([1, 3], tf.int64), minlength=5), b([1, 3], minlength=-2),
       b([1, 3], maxlength=0), b(tf.constant(3)), b(tf.constant([1, 2]), weights=[1, 2]),
       b([1, 1, 5], maxlength=3, weights=[1.0, 2.0, 3.0]),
       b(tf.range(10) % 4, weights=tf.range(10.0) / 3.0)]
""",
    "bincount per row with axis=-1": """
b = tf.math.bincount
x = [[1, 1, 2], [0, 3, 3]]
out = [b(x, axis=-1), b(x, axis=-1, binary_output=True),
       b(x, axis=-1, weights=tf.constant([[1.0, 2, 3], [4, 5, 6]])),
       b(tf.constant([[1, 3]]), axis=-1, minlength=6), b(tf.constant(3), axis=-1),
       b(x, axis=-1, maxlength=2), b(tf.zeros((2, 0), tf.int32), axis=-1)]
""",
    "bincount's errors": COMMON + """
b = tf.math.bincount
out = [error(lambda: b([1, -1, 2])), error(lambda: b([[1, -1, 2], [0, 3, 3]], axis=-1)),
       error(lambda: b([1, 1, 2], axis=1)),
       error(lambda: b([1, 1, 2], weights=tf.constant([1.0, 2, 3]), binary_output=True)),
       error(lambda: b([1, 1, 2], weights=[1.0, 2.0])), error(lambda: b([1, 3], maxlength=-2)),
       error(lambda: b(tf.constant([1, 3], tf.uint8))),
       error(lambda: b([1, 1, 2, 5], dtype=tf.float16)),
       error(lambda: b(tf.constant([1, 2]), weights=tf.constant([True, False]))),
       error(lambda: b(tf.constant([[[1, 3]]]), axis=-1)),
       no_gradient(lambda x: b([1, 1, 2], weights=x), [1.0, 1.0, 2.0])]
""",
    "bincount in a tf.function": COMMON + """
@tf.function
def counts(x, w):
    return tf.math.bincount(x, weights=w, minlength=4), tf.math.bincount(x, axis=-1)
out = [counts(tf.constant([[1, 1], [2, 5]]), tf.constant([[1.0, 2.0], [3.0, 4.0]])),
       counts(tf.constant([[0, 0]]), tf.constant([[1.5, 2.0]])),
       shapes(lambda x: [tf.math.bincount(x), tf.math.bincount(x, axis=-1)],
              S([None, 3], tf.int32)),
       shapes(lambda x: tf.math.bincount(x, minlength=3, maxlength=3), S([None], tf.int32))]
""",
    "bincount of RaggedTensors and SparseTensors": COMMON + """
b = tf.math.bincount
r = tf.ragged.constant([[1, 1, 3], [], [0, 2]])
rw = tf.ragged.constant([[0.5, 1.0, 2.0], [], [3.0, 4.0]])
s = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], [3, 1, 1], [2, 4])
sw = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], [1.5, 2.0, 3.0], [2, 4])
out = [b(r), b(r, axis=-1), b(r, weights=rw), b(r, weights=rw, axis=-1),
       b(r, axis=-1, binary_output=True, minlength=6), b(r, maxlength=2, dtype=tf.float32),
       b(s), b(s, axis=-1), b(s, weights=sw), b(s, axis=-1, maxlength=2),
       b(s, weights=sw, axis=-1),
       error(lambda: b(tf.ragged.constant([[1, -1]]))),
       error(lambda: b(tf.ragged.constant([[1, -1]]), axis=-1)),
       b(tf.sparse.SparseTensor([[0, 1]], [-3], [2, 4]), axis=-1),
       error(lambda: b(r, weights=tf.constant([1.0, 2, 3, 4, 5]))),
       error(lambda: b(s, weights=[1.0, 2.0, 3.0])),
       error(lambda: b(r, axis=-1, weights=rw, binary_output=True))]
""",
    "histogram_fixed_width and its bins": VALUES + """
h, bins = tf.histogram_fixed_width, tf.histogram_fixed_width_bins
edges = tf.constant([0.1, 0.2, 0.3, 0.7, 1.0, np.inf, -np.inf], tf.float32)
grid = tf.range(-5.0, 105.0) / 100.0
out = [h(v, [0.0, 5.0], nbins=5), bins(v, [0.0, 5.0], nbins=5),
       h(edges, [0.0, 1.0], nbins=10), bins(edges, [0.0, 1.0], nbins=10),
       h(grid, [0.0, 1.0], nbins=7), bins(grid, [0.0, 1.0], nbins=7),
       h(grid * 3.0 - 0.1, [-0.1, 2.9], nbins=3), bins(grid * 3.0 - 0.1, [-0.1, 2.9], nbins=3),
       h([1, 2, 3, 9], [0, 10], nbins=3), h(tf.constant([1, 2, 3, 9], tf.int64), [0, 10],
                                             nbins=4),
       h(v, [0.0, 5.0], nbins=5, dtype=tf.int64), bins(v, [0.0, 5.0], nbins=5, dtype=tf.int64),
       h(tf.constant(v, tf.float64), [0.0, 5.0], nbins=5),
       bins(tf.constant(v, tf.float64), tf.constant([0.0, 5.0], tf.float64), nbins=5),
       bins([[0.1, 0.9], [0.5, 0.49]], [0.0, 1.0], nbins=2),
       h([[0.1, 0.9], [0.5, 0.49]], [0.0, 1.0]), bins(tf.constant([0.1, np.nan]), [0.0, 1.0],
                                                       nbins=10)]
""",
    "histogram_fixed_width's errors, gradients, tf.function": COMMON + VALUES + """
h, bins = tf.histogram_fixed_width, tf.histogram_fixed_width_bins
@tf.function
def traced(x):
    return h(x, [0.0, 3.0], nbins=3), bins(x, [0.0, 3.0], nbins=3)
out = [error(lambda: h(tf.constant([0.1, np.nan]), [0.0, 1.0], nbins=10)),
       error(lambda: h(v, [0.0, 5.0], nbins=5, dtype=tf.float32)),
       error(lambda: h(v, [5.0, 0.0], nbins=5)), error(lambda: h(v, [0.0, 5.0], nbins=0)),
       error(lambda: h(v, [0.0, 5.0, 3.0], nbins=2)), error(lambda: bins(v, [0.0, 5.0], nbins=0)),
       error(lambda: bins([1, 2, 3, 9], [0, 10], nbins=3)),
       error(lambda: bins(tf.constant(v, tf.float64), [0.0, 5.0], nbins=5)),
       no_gradient(lambda x: h(x, [0.0, 3.0], nbins=3), [1.0, 1.0, 2.0]),
       traced(tf.constant([1.0, 1.0, 2.0, 7.0])), traced(tf.constant([[0.5], [-1.0]])),
       shapes(lambda x: traced(x), S([None, 2]))]
""",
    "strings.format": COMMON + """
f = tf.strings.format
@tf.function
def traced(x):
    return f("x: {}, sum: {}", [x, tf.reduce_sum(x)])
out = [f("tensor: {}, suffix", tf.range(5)), f("a: {}, b: {}", (tf.range(2), tf.range(1, 4, 2))),
       f("{}", tf.range(10)), f("{}", tf.range(10), summarize=2),
       f("{}", tf.range(10), summarize=-1), f("{}", tf.range(10), summarize=0),
       f("x=<>", [tf.constant([[1.5, 2], [3, 4]])], placeholder="<>"),
       f("{} {}", [tf.constant('ab'), tf.constant(['a', 'b'])]), f("{} {}", [1, 2.5]),
       f("no placeholder", []), f("{}", tf.constant([True, False])),
       f("{}", tf.constant(1 / 3, tf.float64)), f("{}{}", [tf.constant(1), tf.constant(2)]),
       f("{}", tf.reshape(tf.range(24), (2, 3, 4)), summarize=1),
       f("{}", tf.Variable([1.0, 2.0])), f("{}", tf.constant(0.1) * 3.0),
       error(lambda: f("{} {}", [tf.constant(1)])), error(lambda: f("{}", [1, 2])),
       traced(tf.constant([1.0, 2.5])), traced(tf.range(12)), shapes(traced, S([None]))]
""",
}
