"""float32 tf.pow as TF 2.21's CPU kernel gives it, bit for bit (recorded by
record_tf_eigen_math.py into fixtures/tf_eigen_pow.json; replayed by
test_eigen_math_tf_conformance.py; simdist/framework/ops/eigen_pow.py). Sizes that are not
whole packets of 8 (TF's tail takes the C library's powf), a Python exponent on either side,
broadcasting, a traced tf.function, the special values and the ends of float32; in a
tf.function, Grappler's rewrite of a constant exponent 2, 3, 0.5, -0.5, -1 into Square,
x * Square(x), Sqrt, Rsqrt, Reciprocal (TF's results differ from eager ones there), and
Pow's gradient ((grad * y) * pow(x, y - 1) eager; grad * (y * pow(x, y - 1)) with y - 1
folded in a function). Results as in eigen_exp_cases (two uint32 arrays of each float32's
upper and lower 16 bits)."""

from eigen_exp_cases import DATA

CASES = {
    "pow of 1003 pairs in [0, 10] x [-3, 3]": DATA.format(seed=11) + """
x = rng.uniform(0, 10, 1003).astype(np.float32)
y = rng.uniform(-3, 3, 1003).astype(np.float32)
out = bits(tf.pow(tf.constant(x), tf.constant(y)))
""",
    "pow over magnitudes from 1e-30 to 1e30, signed, half-integer exponents":
        DATA.format(seed=12) + """
x = (rng.randn(64, 13) * 10.0 ** rng.uniform(-30, 30, (64, 13))).astype(np.float32)
y = (np.round(rng.uniform(-6, 6, (64, 13)) * 2) / 2).astype(np.float32)
out = bits(tf.pow(x, y))
""",
    "x ** 2, x ** 0.5 and 2 ** x with Python exponents": DATA.format(seed=13) + """
x = tf.constant(rng.uniform(0, 100, 1001).astype(np.float32))
out = [bits(x ** 2), bits(x ** 0.5), bits(2.0 ** (x / 10.0)), bits(tf.math.pow(x, -1.5))]
""",
    "pow broadcast and traced": DATA.format(seed=14) + """
a = tf.constant(rng.uniform(0.1, 4, (5, 1)).astype(np.float32))
b = tf.constant(rng.uniform(-4, 4, (1, 7)).astype(np.float32))
c = tf.constant(rng.uniform(0.1, 4, (3, 16)).astype(np.float32))
out = [bits(tf.pow(a, b)), bits(tf.function(lambda p, q: p ** q)(c, tf.constant(2.5)))]
""",
    "pow of special values": DATA.format(seed=15) + """
s = np.array([0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 2, -2, 0.5, -0.5, 3, -3, 1e-40,
              -1e-40, 1e30], np.float32)
xs, ys = np.meshgrid(s, s)
out = [bits(tf.pow(xs.ravel(), ys.ravel())), bits(tf.pow(tf.fill([9], -1.5), 0.5))]
""",
    "pow overflowing and underflowing": DATA.format(seed=16) + """
xs, ys = np.meshgrid(np.array([0.9, 1.1, 2.0, 0.5], np.float32),
                     np.array([1e9, -1e9, 200, -200, 1e30, 127, 128, -149, -150, 126],
                              np.float32))
out = bits(tf.pow(xs.ravel(), ys.ravel()))
""",
    "Grappler's ConvertPowStage in a tf.function: x ** 2, 3, 0.5, -0.5, -1, 1, 0":
        DATA.format(seed=17) + """
x = np.concatenate([rng.uniform(0, 10, 100), rng.uniform(-3, 3, 100),
                    [0.0, -0.0, np.inf, -np.inf, np.nan, 3e-39, -3e-39, 1e30, -1e-30, 7.0]])
x = tf.constant(x.astype(np.float32))
def powers(v):
    return [v ** 2, v ** 3, v ** 0.5, v ** -0.5, v ** -1, v ** 1, v ** 0, tf.pow(v, 2.0),
            v ** 2.5, v ** np.float32(3)]
out = [[bits(p) for p in powers(x)], [bits(p) for p in tf.function(powers)(x)],
       bits(tf.function(lambda v: v[:13] ** 3)(x))]
""",
    "Pow's gradient, eager and in a tf.function (Grappler's folded y - 1)":
        DATA.format(seed=18) + """
x = tf.constant(rng.uniform(0.1, 5, 203).astype(np.float32))
w = tf.constant(rng.uniform(-2, 2, 203).astype(np.float32))
def grads(v):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        losses = [tf.reduce_sum(p * w) for p in (v ** 2, v ** 3, v ** 0.5, v ** -0.5,
                                                  v ** -1, v ** 2.5, tf.pow(v, 1.7))]
    return [tape.gradient(loss, v) for loss in losses]
out = [[bits(g) for g in grads(x)], [bits(g) for g in tf.function(grads)(x)]]
""",
}
