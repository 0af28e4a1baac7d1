"""float32 tf.exp and tf.nn.softmax as TF 2.21's CPU kernels give them, bit for bit
(recorded by record_tf_eigen_math.py into fixtures/tf_eigen_exp.json and
fixtures/tf_eigen_softmax.json; replayed by test_eigen_math_tf_conformance.py). Each
result is a float32 array's bit patterns as two uint32 arrays (upper and lower 16 bits, so
that one ulp apart is 1 apart). The sizes are not all whole packets of 8 (TF's scalar
std::exp takes the tail) and the values reach float32's overflow and denormal ranges.
Snippets as in tests/tf_snippets.py."""

DATA = """
rng = np.random.RandomState({seed})
def bits(t):
    b = t.numpy().view(np.uint32)
    return [b >> 16, b & 0xFFFF]
"""

EXP_CASES = {
    "exp of 1003 values in [-30, 30]": DATA.format(seed=1) + """
out = bits(tf.exp(tf.constant(rng.uniform(-30, 30, 1003).astype(np.float32))))
""",
    "exp at the ends of float32": DATA.format(seed=2) + """
x = np.concatenate([rng.uniform(-110, -80, 40), rng.uniform(80, 95, 40),
                    [0.0, -0.0, 1e-30, -1e-30, 88.72, 88.73, -103.9, -104.1]])
out = bits(tf.exp(tf.constant(x.astype(np.float32).reshape(8, 11))))
""",
    "exp of a scalar and of 5 values": DATA.format(seed=3) + """
out = [bits(tf.exp(tf.constant(np.float32(1.5)))),
       bits(tf.exp(tf.constant(rng.randn(5).astype(np.float32))))]
""",
}

CASES = EXP_CASES

SOFTMAX_CASES = {
    "softmax of 16 x 10 logits": DATA.format(seed=4) + """
x = tf.constant((rng.randn(16, 10) * 3).astype(np.float32))
out = [bits(x), bits(tf.nn.softmax(x))]
""",
    "softmax of 21 x 64 logits": DATA.format(seed=5) + """
x = tf.constant((rng.randn(21, 64) * 2).astype(np.float32))
out = [bits(x), bits(tf.nn.softmax(x))]
""",
    "softmax of 9 x 37 logits along axis 0": DATA.format(seed=6) + """
x = tf.constant((rng.randn(9, 37) * 4).astype(np.float32))
out = [bits(x), bits(tf.nn.softmax(x, axis=0))]
""",
}
