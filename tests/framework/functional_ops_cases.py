"""tf.map_fn, tf.scan, tf.foldl / foldr, the cumulative ops and tf.nest's structure check,
as TF 2.21 runs them eagerly and traced (recorded by record_tf_linalg.py into
fixtures/tf_functional.json; replayed by test_functional_ops.py): values, dtypes, static
shapes of traces, gradients through the loops, and TF's errors (structure mismatches in
TF's text, scalars, dtype changes without fn_output_signature, bad scan axes). Snippets as
in tests/tf_snippets.py."""

from linalg_cases import GRAD

G = GRAD + """
def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return [type(e).__name__, str(e)]
    return "no error"
x3 = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
"""

CASES = {
    "map_fn over tensors and structures": G + """
out = [tf.map_fn(lambda x: x * 2, tf.constant([1, 2, 3])),
       tf.map_fn(lambda x: tf.cast(x, tf.float32) / 2, tf.constant([1, 2, 3]),
                 fn_output_signature=tf.float32),
       tf.map_fn(lambda x: (x[0] + x[1], x[0] * x[1]), (tf.constant([1, 2]), tf.constant([3, 4])),
                 fn_output_signature=(tf.int32, tf.int32)),
       tf.map_fn(lambda d: {"a": d["a"] + 1, "b": d["b"]},
                 {"a": tf.constant([1.0, 2.0]), "b": tf.constant([[1], [2]])}),
       tf.map_fn(lambda r: tf.reduce_sum(r), x3),
       tf.map_fn(lambda r: tf.cumsum(r) / tf.reduce_sum(r), x3),
       tf.map_fn(lambda x: x, tf.zeros([0, 2])),
       tf.map_fn(lambda x: tf.strings.length(x), tf.constant(["a", "bcd"]),
                 fn_output_signature=tf.int32)]
""",
    "map_fn errors": G + """
out = [error(lambda: tf.map_fn(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2, 3]))),
       error(lambda: tf.map_fn(lambda x: (x, x * 2), (tf.constant([1, 2]), tf.constant([3, 4])))),
       error(lambda: tf.map_fn(lambda x: x[0] + x[1], (tf.constant([1, 2]), tf.constant([3, 4])))),
       error(lambda: tf.map_fn(lambda x: x, tf.constant(3))),
       error(lambda: tf.map_fn(lambda x: x, (tf.constant([1, 2]), tf.constant([3, 4, 5])))),
       error(lambda: tf.map_fn(lambda x: x, []))]
""",
    "map_fn traced": G + """
n = []
@tf.function
def f(x):
    n.append(1)
    return tf.map_fn(lambda r: r * tf.reduce_max(r), x)
shape = lambda spec: f.get_concrete_function(spec).structured_outputs.shape
out = [f(x3), f(tf.ones([4, 3])), shape(tf.TensorSpec([None, 3])),
       shape(tf.TensorSpec([5, 3])), len(n),
       grad(lambda x: tf.reduce_sum(tf.map_fn(lambda r: r ** 2, x)), x3),
       grad(tf.function(lambda x: tf.reduce_sum(tf.map_fn(lambda r: tf.sin(r), x))), x3)]
""",
    "map_fn of a converted python condition, traced": G + """
@tf.function
def f(x):
    def g(v):
        if v > 2:
            return v * 10
        return -v
    return tf.map_fn(g, x)
out = f(tf.constant([1, 2, 3, 4]))
""",
    "scan, foldl, foldr": G + """
out = [tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4])),
       tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4]), initializer=10, reverse=True),
       tf.scan(lambda a, x: (a[0] + x, a[1] * x), tf.constant([1.0, 2.0, 3.0]),
               initializer=(tf.constant(0.0), tf.constant(1.0))),
       tf.scan(lambda a, x: a * 0.5 + x, x3),
       tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3, 4])),
       tf.foldl(lambda a, x: a - x, tf.constant([1, 2, 3, 4]), initializer=100),
       tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3, 4]), initializer=0),
       tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3, 4])),
       tf.function(lambda v: tf.scan(lambda a, x: a * x, v))(tf.constant([1.0, 2.0, 3.0])),
       grad(lambda v: tf.reduce_sum(tf.scan(lambda a, x: a * x, v)), tf.constant([1.0, 2.0, 3.0])),
       grad(lambda v: tf.foldl(lambda a, x: a * x, v), tf.constant([1.0, 2.0, 3.0]))]
""",
    "scan and fold errors": G + """
out = [error(lambda: tf.scan(lambda a, x: (a, x), tf.constant([1, 2]))),
       error(lambda: tf.foldl(3, tf.constant([1, 2]))),
       error(lambda: tf.scan(lambda a, x: a + x, tf.constant(3)))]
""",
    "cumulative ops": G + """
out = [tf.cumsum(tf.constant([1, 2, 3])), tf.cumsum(x3, axis=1, exclusive=True, reverse=True),
       tf.math.cumsum(x3, axis=-2), tf.math.cumprod(tf.constant([1.0, 2.0, 3.0]), exclusive=True),
       tf.math.cumprod(x3, axis=1, reverse=True),
       tf.math.cumulative_logsumexp(tf.constant([1.0, 2.0, 3.0])),
       tf.math.cumulative_logsumexp(tf.constant([1.0, -np.inf, 2.0]), exclusive=True),
       tf.math.cumulative_logsumexp(tf.constant([-np.inf, -np.inf])),
       tf.math.cumulative_logsumexp(x3, axis=1, reverse=True),
       tf.cumsum(tf.constant([1.5, 2.5], tf.float16)),
       tf.cumsum(tf.constant([1, 2]), axis=tf.constant(0, tf.int64)), tf.cumsum([1, 2]),
       grad(lambda x: tf.reduce_sum(tf.cumsum(x, axis=1) * x), x3),
       grad(lambda x: tf.reduce_sum(tf.math.cumprod(x, exclusive=True, axis=1)), x3),
       grad(lambda x: tf.reduce_sum(tf.math.cumprod(x, reverse=True)),
            tf.constant([2.0, 0.0, 3.0])),
       grad(lambda x: tf.reduce_sum(tf.math.cumulative_logsumexp(x, axis=1) * [[1.0, -2.0, 0.5]]),
            x3),
       tf.function(lambda x: tf.cumsum(x, axis=1))(x3)]
""",
    "cumsum with an axis out of range": "out = tf.cumsum(tf.constant([1, 2, 3]), axis=1)",
    "cumsum of a scalar": "out = tf.cumsum(tf.constant(3))",
    "cumsum with a vector axis": "out = tf.cumsum(tf.constant([[1, 2]]), axis=tf.constant([1]))",
    "cumsum of bools": "out = tf.cumsum(tf.constant([True]))",
    "cumsum of strings": "out = tf.cumsum(tf.constant(['a']))",
    "cumsum with a float axis": "out = tf.cumsum(tf.constant([1, 2]), axis=1.0)",
    "cumulative_logsumexp of integers": "out = tf.math.cumulative_logsumexp(tf.constant([1, 2]))",
    "nest.assert_same_structure texts": G + """
import collections
P = collections.namedtuple('P', 'a b')
pairs = [((1, 2), ((1, 3), (2, 4)), {}), ((1, 2), 3, {}), ([1, [2]], [1, 2], {}),
         ((1, 2), (1, 2, 3), {}), ({'a': 1}, {'b': 1}, {}), ((1, 2), [1, 2], {}),
         ((1, 2), [1, 2], {'check_types': False}), (P(1, 2), (1, 2), {}), ({'a': 1}, [1], {}),
         ((1, (2, 3)), (1, (2, 3, 4)), {}), ([], [], {}), ((1, []), (1, ()), {}),
         ({'a': (1, 2)}, {'a': (1,)}, {}), ((), (1,), {}), ('ab', ('a', 'b'), {})]
out = [error(lambda: tf.nest.assert_same_structure(a, b, **kw)) for a, b, kw in pairs] + [
       error(lambda: tf.nest.map_structure(lambda x, y: x + y, (1, 2), [3, 4])),
       tf.nest.map_structure(lambda x, y: x + y, (1, 2), [3, 4], check_types=False)]
""",
}
