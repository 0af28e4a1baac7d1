"""Ops the tf.data tutorials use, as TF 2.21 runs them eagerly and traced (record_tf_function.py
records, test_selection_ops.py replays): ``tf.numpy_function`` / ``tf.py_function`` (eager,
at every call of a tf.function, per element of a ``Dataset.map``; unknown output shapes;
the kernel's checks in a graph), ``tf.unique``, ``tf.boolean_mask``, ``tf.slice``,
``tf.pad``, the 3-argument ``tf.where`` (broadcasting), ``tf.one_hot``'s ``axis`` and
``depth``, ``Tensor.set_shape`` and ``tf.ensure_shape``: values, traced static shapes, and
TF's errors (eager kernel texts; trace-time shape-function texts, TF's "in user code:"
frames taken off; a graph's execution error by the line that says what is wrong,
``pyfunc_<n>`` numbered by TF's own counter)."""

COMMON = """
import re
def message(e):
    text = str(e).strip()
    marker = type(e).__name__ + ": "
    if "in user code:" in text:
        text = text[text.rindex(marker) + len(marker):].replace("\\n    ", "\\n")
    if text.startswith("{{function_node"):
        text = text.split("}} ", 1)[1]
    return re.sub(r"pyfunc_\\d+", "pyfunc_N", text.split(" [Op:")[0].split("\\n")[0])
def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, message(e)]
    return "no error"
def says(fn, text):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, text in re.sub(r"pyfunc_\\d+", "pyfunc_N", str(e))]
    return "no error"
def shapes(fn, *specs):
    try:
        outs = tf.function(fn).get_concrete_function(*specs).structured_outputs
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, message(e)]
    return [str(t.shape) for t in tf.nest.flatten(outs)]
S = tf.TensorSpec
"""

SCRIPT = COMMON + """
runs = []
def doubled(a):
    runs.append(type(a).__name__)
    return a * 2
@tf.function
def f(x):
    return tf.numpy_function(doubled, [x], tf.float32)
@tf.function
def g(x):
    return tf.py_function(lambda a: a * 3.0, [x], tf.float32) + 1.0
m = tf.data.Dataset.range(3).map(lambda x: tf.numpy_function(doubled, [x], tf.int64))
made = list(runs)
values = [int(v) for v in m]
out = [tf.numpy_function(doubled, [tf.constant([1.0, 2.0])], tf.float32),
       tf.numpy_function(lambda a, b: (a + b, a - b), [tf.constant(1.0), 2.0],
                         [tf.float32, tf.float32]),
       tf.py_function(lambda a: a * 2, [tf.constant([1.0, 2.0])], tf.float32),
       tf.py_function(lambda a: [a], [tf.constant(1.0)], [tf.float32]),
       f(tf.constant(1.0)), f(tf.constant(2.0)), g(tf.constant(2.0)),
       f.experimental_get_tracing_count(), made, values, list(runs),
       str(m.element_spec),
       shapes(lambda a: tf.numpy_function(lambda v: (v, v), [a], [tf.float32, tf.float32]),
              S([3])),
       shapes(lambda a: tf.py_function(lambda v: v, [a], tf.float32), S([3])),
       tf.numpy_function(lambda a: a * 1.0, [tf.constant(1)], tf.float32).dtype.name,
       tf.numpy_function(lambda a: None, [tf.constant(1.0)], []),
       error(lambda: tf.numpy_function(lambda a: 1 / 0, [tf.constant(1.0)], tf.float32)),
       says(lambda: tf.function(lambda x: tf.numpy_function(
           lambda a: a.astype(np.float64), [x], tf.float32))(tf.constant(1.0)),
           "0-th value returned by pyfunc_N is double, but expects float"),
       says(lambda: tf.function(lambda x: tf.numpy_function(
           lambda a: (a, a), [x], tf.float32))(tf.constant(1.0)),
           "pyfunc_N returns 2 values, but expects to see 1 values."),
       says(lambda: tf.function(lambda x: tf.numpy_function(
           lambda a: 1 / 0, [x], tf.float32))(tf.constant(1.0)),
           "ZeroDivisionError: division by zero"),
       says(lambda: list(tf.data.Dataset.range(2).map(
           lambda x: tf.numpy_function(lambda v: v * 1.5, [x], tf.int64))),
           "0-th value returned by pyfunc_N is double, but expects int64")]
"""

UNIQUE = COMMON + """
u = tf.unique(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))
out = [u.y, u.idx, type(u).__name__, list(tf.unique(tf.constant([3.0, 1.0, 3.0]),
                                                  out_idx=tf.int64)),
       [v.numpy().tolist() for v in tf.unique(tf.constant(["b", "a", "b"]))],
       error(lambda: tf.unique(tf.constant([[1, 2]]))),
       error(lambda: tf.unique(tf.constant(1))),
       shapes(tf.unique, S([5], tf.int32)), shapes(tf.unique, S(None, tf.int32)),
       shapes(tf.unique, S([2, 2], tf.int32))]
"""

BOOLEAN_MASK = COMMON + """
t = tf.constant([[1, 2], [3, 4], [5, 6]])
bm = lambda a, m, axis=None: tf.boolean_mask(a, m, axis=axis)
out = [tf.boolean_mask(t, [True, False, True]), tf.boolean_mask(t, [False, True], axis=1),
       tf.boolean_mask(t, [[True, False], [False, True], [True, True]]),
       tf.boolean_mask(t, [1, 0, 1]),
       error(lambda: tf.boolean_mask(t, True)), error(lambda: tf.boolean_mask(t, [True, False])),
       shapes(bm, S([3, 2]), S([3], tf.bool)),
       shapes(lambda a, m: bm(a, m, axis=1), S([3, 2, 4]), S([2], tf.bool)),
       shapes(bm, S([3, 2]), S(None, tf.bool)), shapes(bm, S([3, 2]), S([2], tf.bool)),
       shapes(bm, S([3, 2, 5]), S([3, 2], tf.bool)), shapes(bm, S([None, 2]), S([None], tf.bool)),
       shapes(lambda a: bm(a, [True, False, True]), S([3, 2]))]
"""

# t[mask]: a whole key that is a boolean tensor or NumPy bool array is tf.boolean_mask.
GETITEM_MASK = COMMON + """
t = tf.constant([[1, 2], [3, 4], [5, 6]])
v = tf.Variable([1.0, 2.0, 3.0])
out = [t[tf.constant([True, False, True])], t[np.array([False, True, False])],
       t[t > 2], v[v > 1.5], t[0][tf.constant([False, True])],
       error(lambda: t[tf.constant([True, False])]), error(lambda: t[True]),
       error(lambda: t[tf.constant(True)]),
       shapes(lambda a, m: a[m], S([3, 2]), S([3], tf.bool)),
       shapes(lambda a: a[a > 2], S([None, 2]))]
"""

SLICE = COMMON + """
x = tf.reshape(tf.range(24), [2, 3, 4])
run = lambda: tf.function(lambda a: tf.slice(a, [0, 0, 0], [3, 1, 1]))(tf.ones([2, 3, 4]))
out = [tf.slice(x, [1, 0, 1], [1, 2, -1]), tf.slice(x, [0, 2, 0], [-1, -1, 2]),
       error(lambda: tf.slice(x, [0, 0, 0], [3, 1, 1])),
       error(lambda: tf.slice(x, [0, 4, 0], [1, 1, 1])),
       error(lambda: tf.slice(x, [0, 0], [1, 1])),
       error(lambda: tf.slice(x, [-1, 0, 0], [1, 1, 1])),
       shapes(lambda a: tf.slice(a, [1, 0, 1], [1, 2, -1]), S([2, 3, 4])),
       shapes(lambda a: tf.slice(a, [1, 0, 1], [1, 2, -1]), S([None, 3, None])),
       shapes(lambda a: tf.slice(a, [0, 0, 0], [3, 1, 1]), S([2, 3, 4])),
       shapes(lambda a: tf.slice(a, [0, 0], [1, 1]), S([2, 3, 4])),
       shapes(lambda a, b: tf.slice(a, b, [1, 2, -1]), S([2, 3, 4]), S([3], tf.int32)),
       shapes(lambda a, s: tf.slice(a, [0, 0, 0], s), S([2, 3, 4]), S([3], tf.int32)),
       says(run, "Expected size[0] in [0, 2], but got 3")]
"""

PAD = COMMON + """
m = tf.constant([[1, 2, 3], [4, 5, 6]])
run = lambda: tf.function(lambda a: tf.pad(a, [[2, 2], [0, 0]], "REFLECT"))(tf.ones([2, 3]))
out = [tf.pad(m, [[1, 1], [2, 2]]), tf.pad(m, [[0, 1], [1, 0]], constant_values=9),
       tf.pad(m, [[1, 1], [2, 2]], "REFLECT"), tf.pad(m, [[1, 1], [2, 2]], "SYMMETRIC"),
       tf.pad(m, [[1, 0], [0, 1]], "constant"),
       tf.pad(tf.constant(["a"]), [[1, 0]], constant_values="z"),
       error(lambda: tf.pad(m, [[2, 2], [0, 0]], "REFLECT")),
       error(lambda: tf.pad(m, [[3, 0], [0, 0]], "SYMMETRIC")),
       error(lambda: tf.pad(m, [[1, 1], [2, 2]], "WRAP")), error(lambda: tf.pad(m, [[1, 1]])),
       error(lambda: tf.pad(m, [[-1, 0], [0, 0]])), error(lambda: tf.pad(m, [1, 1])),
       shapes(lambda a: tf.pad(a, [[1, 1], [2, 2]]), S([None, 3])),
       shapes(lambda a, p: tf.pad(a, p), S([2, 3]), S([2, 2], tf.int32)),
       shapes(lambda a: tf.pad(a, [[1, 1]]), S([2, 3])),
       shapes(lambda a: tf.pad(a, [[1, 1]], constant_values=2.0), S([2, 3])),
       shapes(lambda a: tf.pad(a, [[1, 1]], "REFLECT"), S([2, 3])),
       shapes(lambda a: tf.pad(a, [[2, 2], [0, 0]], "REFLECT"), S([2, 3])),
       says(run, "paddings must be less than the dimension size: 2, 2 not less than 2")]
"""

WHERE = COMMON + """
w = lambda c, x, y: tf.where(c, x, y)
out = [tf.where([True, False], tf.ones([2, 2]), tf.zeros([2])),
       tf.where([[True], [False]], tf.ones([3]), tf.zeros([2, 1])),
       error(lambda: tf.where([True, False, True], tf.ones([2]), tf.zeros([2]))),
       error(lambda: tf.where(True, tf.ones([3]), tf.zeros([2]))),
       error(lambda: tf.where(True, tf.ones([2]), tf.zeros([2], tf.int32))),
       error(lambda: tf.where([True], tf.ones([1]))),
       shapes(w, S([None, 1], tf.bool), S([3]), S([2, 1])),
       shapes(w, S([2, 1], tf.bool), S([3]), S([4, 1, 1])),
       shapes(w, S([3], tf.bool), S([2]), S([2])), shapes(w, S([], tf.bool), S([3]), S([2])),
       shapes(w, S([None], tf.bool), S([None, 4]), S([1])),
       shapes(w, S([2], tf.bool), S([2]), S([2], tf.int32)),
       shapes(w, S([2], tf.int32), S([2]), S([2]))]
"""

ONE_HOT = COMMON + """
oh = lambda axis: (lambda i: tf.one_hot(i, 3, axis=axis))
run = lambda: tf.function(oh(2))(tf.constant([1, 2]))
out = [tf.one_hot([0, 2], 3, axis=0), tf.one_hot([[0, 2], [1, 1]], 3, axis=1),
       tf.one_hot(tf.constant([1], tf.int64), 3, on_value=5, off_value=-1),
       error(lambda: tf.one_hot([0, 2], 3, axis=2)), error(lambda: tf.one_hot([0, 2], 3, axis=-2)),
       error(lambda: tf.one_hot([1], -1)), error(lambda: tf.one_hot([1.0], 3)),
       shapes(oh(0), S([None], tf.int32)), shapes(oh(1), S([2, 5], tf.int32)),
       shapes(oh(2), S([4], tf.int32)), shapes(oh(-2), S([4], tf.int32)),
       shapes(lambda i, d: tf.one_hot(i, d, axis=0), S([4], tf.int32), S([], tf.int32)),
       shapes(lambda i: tf.one_hot(i, -1), S([4], tf.int32)),
       shapes(lambda i: tf.one_hot(i, 3), S([4], tf.float32)),
       says(run, "Expected axis to be -1 or between [0, 2).  But received: 2"),
       tf.function(lambda i, d: tf.one_hot(i, d, axis=0))(tf.constant([0, 2]), tf.constant(3))]
"""

SHAPES = COMMON + """
def set_to(shape):
    def fn(x):
        x.set_shape(shape)
        return x
    return fn
def stacked(x):
    return tf.numpy_function(lambda v: np.stack([v, v]), [x], tf.int64)
def map_set(shape):
    return tf.data.Dataset.range(3).map(lambda x: set_to(shape)(stacked(x)))
ensure = lambda shape: (lambda x: tf.ensure_shape(x, shape))
out = [set_to([2])(tf.constant([1, 2])), error(lambda: set_to([3])(tf.constant([1, 2]))),
       error(lambda: set_to([2, 1])(tf.constant([1, 2]))),
       shapes(set_to([None, 3]), S(None)), shapes(set_to([2, None]), S([None, 3])),
       shapes(set_to([2, 4]), S([None, 3])), shapes(set_to([2]), S([None, 3])),
       tf.ensure_shape(tf.constant([1, 2]), [None]),
       error(lambda: tf.ensure_shape(tf.constant([1, 2]), [3])),
       error(lambda: tf.ensure_shape(tf.constant([1, 2]), [2, 1])),
       shapes(ensure([None, 3]), S(None)), shapes(ensure([2, None]), S([None, 3])),
       shapes(ensure([2, 4]), S([None, 3])), shapes(ensure([2]), S([None, 3])),
       says(lambda: tf.function(ensure([None, 4]))(tf.ones([2, 3])),
            "Dimension 1 in both shapes must be equal, but are 4 and 3."),
       says(lambda: tf.function(ensure([None, 4]), input_signature=[S([None, None])])(
           tf.ones([2, 3])), "[2,3] is not compatible with expected shape [?,4]."),
       str(map_set([2]).element_spec), [v.tolist() for v in map_set([2]).as_numpy_iterator()],
       says(lambda: list(map_set([3])), "Incompatible shapes at component 0: expected [3] but "
                                        "got [2].")]
"""

# gather_nd / scatter_nd / tensor_scatter_nd_*: values, TF's kernel errors, gradients, shapes.
SCATTER_ND = COMMON + """
t5 = np.reshape(np.arange(18), [2, 3, 3])
t = tf.constant([[2., 7., 0.], [9., 0., 1.], [0., 3., 8.]])
ii = [[0, 2], [1, 1], [0, 2]]
def grads(f, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as g:
        g.watch(xs)
        y = f(*xs)
        s = tf.reduce_sum(y * tf.reshape(tf.range(tf.size(y), dtype=y.dtype) + 1., y.shape))
    return [y] + g.gradient(s, xs)
out = [tf.gather_nd(t5, [[0, 0, 0], [1, 2, 1]]), tf.gather_nd(t5, [[[0, 0], [0, 2]]]),
       tf.gather_nd(t5, tf.constant([[1]], tf.int64)),
       tf.scatter_nd([[1], [3], [1]], [2, 4, 6], [5]),
       tf.scatter_nd(tf.constant([[0, 1]]), [[1., 2.]], tf.constant([2, 2, 2])),
       tf.tensor_scatter_nd_update(t, [[0, 0], [2, 2]], [5., 6.]),
       tf.tensor_scatter_nd_add(t, ii, [6., 5., 4.]), tf.tensor_scatter_nd_sub(t, ii, [1., 2., 3.]),
       tf.tensor_scatter_nd_min(t, ii, [-6., 5., -4.]),
       tf.tensor_scatter_nd_max(t, ii, [6., -5., 4.]),
       tf.tensor_scatter_nd_add(t, [[1]], [[1., 1., 1.]]),
       grads(lambda p: tf.gather_nd(p, ii), t),
       grads(lambda u: tf.scatter_nd(ii, u, [3, 3]), [1., 2., 3.]),
       grads(lambda a, u: tf.tensor_scatter_nd_add(a, ii, u), t, [1., 2., 3.]),
       grads(lambda a, u: tf.tensor_scatter_nd_sub(a, ii, u), t, [1., 2., 3.]),
       grads(lambda a, u: tf.tensor_scatter_nd_update(a, [[0, 1], [2, 0]], u), t, [1., 2.]),
       error(lambda: tf.gather_nd(t5, [[0, 5]])), error(lambda: tf.gather_nd(t5, [[0, 0, 0, 0]])),
       error(lambda: tf.gather_nd(t5, [[0.0]])), error(lambda: tf.gather_nd(t5, [[-1]])),
       error(lambda: tf.gather_nd(tf.constant(t5), tf.constant([[3]]))),
       error(lambda: tf.scatter_nd([[10]], [1], [10])),
       error(lambda: tf.scatter_nd([[1]], [1, 2], [10])),
       error(lambda: tf.scatter_nd([[1, 1]], [5], [3])),
       error(lambda: tf.tensor_scatter_nd_add(tf.zeros([3]), [[3]], [1.0])),
       error(lambda: tf.tensor_scatter_nd_add(tf.zeros([3]), [[1]], [1.0, 2.0])),
       shapes(lambda p, i: tf.gather_nd(p, i), S([2, 3, 3]), S([4, 2], tf.int32)),
       shapes(lambda p, i: tf.gather_nd(p, i), S([None, 3, 3]), S([None, 1], tf.int32)),
       shapes(lambda a, i, u: tf.tensor_scatter_nd_add(a, i, u), S([3, 3]), S([2, 1], tf.int32),
              S([2, 3]))]
"""

# gather_nd with batch_dims (TF's batch_gather_nd) and the min/max scatters' gradients.
BATCH_GATHER_ND = SCATTER_ND.split("out = [")[0] + """
p3 = tf.reshape(tf.range(24.0), [2, 3, 4])
x = tf.constant([1.0, 5.0, 3.0, 2.0])
out = [tf.gather_nd(p3, [[1], [0]], batch_dims=1),
       tf.gather_nd(p3, [[[1, 2]], [[0, 3]]], batch_dims=1),
       tf.gather_nd(p3, [[[1], [2]], [[0], [0]]], batch_dims=1),
       tf.gather_nd(p3, tf.constant([[[1], [0], [2]], [[3], [3], [0]]], tf.int64), batch_dims=2),
       tf.gather_nd(p3, [[1], [0]], batch_dims=1.0),
       grads(lambda p: tf.gather_nd(p, [[[1], [2]], [[0], [0]]], batch_dims=1), p3),
       tf.function(lambda p: tf.gather_nd(p, [[2], [1]], batch_dims=1))(p3),
       error(lambda: tf.gather_nd(p3, [[[1]], [[0]]], batch_dims=2)),
       error(lambda: tf.gather_nd(p3, [[1], [0], [2]], batch_dims=1)),
       error(lambda: tf.gather_nd(p3, [[1], [0]], batch_dims=-1)),
       error(lambda: tf.gather_nd(p3, [[1], [0]], batch_dims=2)),
       error(lambda: tf.gather_nd(p3, [[5], [0]], batch_dims=1)),
       grads(lambda a, u: tf.tensor_scatter_nd_max(a, [[0], [1], [2]], u), x, [4.0, 0.5, 3.0]),
       grads(lambda a, u: tf.tensor_scatter_nd_min(a, [[0], [1], [2]], u), x, [4.0, 0.5, 3.0]),
       grads(lambda a, u: tf.tensor_scatter_nd_max(a, ii, u), t, [6., -5., 4.])]
"""

CASES = {
    "numpy_function and py_function: eager, per call of a tf.function, per element of a map":
        SCRIPT,
    "unique: values in order of appearance, idx, traced shapes, errors": UNIQUE,
    "boolean_mask: rows kept, axis, traced shapes, TF's static errors": BOOLEAN_MASK,
    "a boolean tensor or array as the whole index: boolean_mask": GETITEM_MASK,
    "gather_nd, scatter_nd and tensor_scatter_nd_*: values, errors, gradients, shapes":
        SCATTER_ND,
    "gather_nd with batch_dims; tensor_scatter_nd_min/max gradients": BATCH_GATHER_ND,
    "slice: values, -1 sizes, kernel errors, traced shapes and rank errors": SLICE,
    "pad: modes, constant values, kernel errors, traced shapes and rank errors": PAD,
    "3-argument where: broadcasting, traced shapes, shape and dtype errors": WHERE,
    "one_hot: axis, depth, index dtypes, traced shapes and errors": ONE_HOT,
    "set_shape and ensure_shape: eager checks, traced merges, a map's checked outputs":
        SHAPES,
}
