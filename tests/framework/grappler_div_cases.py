"""Grappler's ReduceDivToReciprocalMul (constant_folding.cc) as TF 2.21 gives it on a CPU,
bit for bit (recorded by record_tf_eigen_math.py into fixtures/tf_grappler_div.json;
replayed by test_eigen_math_tf_conformance.py; simdist/framework/ops/grappler_arithmetic.py).
In a tf.function, ``x / c`` by a constant ``c`` (a Python number, a tf.constant made in the
function, an int's folded Cast) runs as ``x * Reciprocal(c)``, the Reciprocal folded by
TF's CPU kernel (a float32 ``c`` of 8 or more values: rcpps and a Newton step), so its bits
differ from eager division; a captured divisor, ``c / x``, FloorDiv and Dataset.map's
functions keep the division. Each result is the bits of a tensor as 16-bit pieces (float16,
float32, float64), and whether the function's bits differ from eager ones."""

DATA = """
rng = np.random.RandomState({seed})
def bits(t):
    b = np.ascontiguousarray(t.numpy())
    u = b.view("u%d" % b.itemsize).astype(np.uint64)
    return [(u >> s) & 0xFFFF for s in range(0, 8 * b.itemsize, 16)]
def same(a, b):
    return a.numpy().tobytes() == b.numpy().tobytes()
"""

CASES = {
    "x / c in a tf.function: a Python number, a tf.constant made there, an int, truediv, "
    "divide; float16, float32, float64": DATA.format(seed=31) + """
x = rng.uniform(-10, 10, 203)
def divisions(v):
    return [v / 255.0, v / tf.constant(3.0, v.dtype), v / 7, tf.math.truediv(v, 0.3),
            tf.divide(v, 10.0), v / np.float32(6.0).astype(v.dtype.as_numpy_dtype)]
out = []
for dtype in (tf.float16, tf.float32, tf.float64):
    v = tf.constant(x, dtype)
    eager, traced = divisions(v), tf.function(divisions)(v)
    out.append([[bits(t), same(t, e)] for t, e in zip(traced, eager)])
""",
    "x / c where TF keeps the division: a captured divisor, c / x, floordiv, ints' "
    "truediv, Dataset.map": DATA.format(seed=32) + """
v = tf.constant(rng.uniform(-10, 10, 203).astype(np.float32))
n = tf.constant(rng.randint(-1000, 1000, 203).astype(np.int32))
c = tf.constant(3.0)
def kept(v, n):
    return [v / c, 3.0 / v, v // 3.0, n / 7, n // 7]
traced = tf.function(kept)(v, n)
mapped = next(iter(tf.data.Dataset.from_tensors(v).map(lambda e: (e / 255.0, e ** 0.5))))
out = [[[bits(t), same(t, e)] for t, e in zip(traced, kept(v, n))],
       [bits(mapped[0]), same(mapped[0], v / 255.0), same(mapped[1], v ** 0.5)]]
""",
    "x / c by a constant of 16 float32 values, broadcast (its Reciprocal in packets)":
        DATA.format(seed=33) + """
v = tf.constant(rng.uniform(-10, 10, (13, 16)).astype(np.float32))
c = rng.uniform(0.1, 9, 16).astype(np.float32)
f = tf.function(lambda v: [v / tf.constant(c), v / c, v[:, :5] / c[:5]])
out = [bits(t) for t in f(v)] + [same(f(v)[0], v / c)]
""",
    "RealDiv's gradient in a tf.function's tape (grad / c folded too)": DATA.format(seed=34)
    + """
v = tf.constant(rng.uniform(-10, 10, 203).astype(np.float32))
w = tf.constant(rng.uniform(-2, 2, 203).astype(np.float32))
def grads(v):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        losses = [tf.reduce_sum((v / 3.0) * w), tf.reduce_sum(tf.math.truediv(v * v, 0.7))]
    return [tape.gradient(loss, v) for loss in losses]
out = [[bits(g) for g in grads(v)], [bits(g) for g in tf.function(grads)(v)]]
""",
}
