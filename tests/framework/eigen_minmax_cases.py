"""float32 tf.maximum and tf.minimum as TF 2.21's CPU kernels give them, bit for bit
(recorded by record_tf_eigen_math.py into fixtures/tf_eigen_minmax.json; replayed by
test_eigen_math_tf_conformance.py; simdist/framework/ops/eigen_minmax.py): -0 against +0
both ways in whole packets (the second input wins) and in the tail (the first wins),
subnormals (zeros to TF), NaNs with payloads and a traced function; a scalar or broadcast
operand on either side (TF's rule on the broadcast operands, whole packets and the tail
counted in the output).
Results as in eigen_exp_cases."""

from eigen_log1p_cases import SPECIALS

CASES = {
    "maximum and minimum: signed zeros, subnormals and NaNs in packets and tails":
        SPECIALS.format(seed=61) + """
z = np.array([0.0, -0.0, 0.0, -0.0, 1e-40, -1e-40, 2e-39, -3.0], np.float32)
w = np.array([-0.0, 0.0, 0.0, -0.0, -1e-40, -0.0, -5.0, -2e-39], np.float32)
a = np.concatenate([z, z, special, rng.randn(11).astype(np.float32), z[:6]])
b = np.concatenate([w, w, special[::-1], rng.randn(11).astype(np.float32), w[:6]])
a, b = tf.constant(a), tf.constant(b)
out = [bits(tf.maximum(a, b)), bits(tf.minimum(a, b)), bits(tf.maximum(b, a)),
       bits(tf.minimum(b, a)), bits(tf.maximum(a[:7], b[:7])),
       bits(tf.function(tf.maximum)(a[:20], b[:20]))]
""",
    "maximum and minimum with a scalar or a broadcast operand": SPECIALS.format(seed=62) + """
z = np.array([0.0, -0.0, 1.0, -1.0, 0.0, -0.0, 2e-39, -2e-39, np.nan, 0.0, -0.0, 3.0, -0.0,
              0.0, -0.0, 0.0, 0.0, -0.0, 0.0, -0.0, -0.0], np.float32)
big = np.where(rng.rand(41, 37) < 0.5, np.float32(0), np.float32(-0.0)) * rng.randint(
    0, 2, (41, 37)).astype(np.float32)
row, col = tf.constant(z[:10]), tf.constant(z[:3].reshape(3, 1))
out = []
for f in (tf.maximum, tf.minimum):
    for s in (0.0, -0.0, 1e-39, float('nan')):
        c = tf.constant(np.float32(s))
        out += [bits(f(tf.constant(z[:n]), c)) for n in (21, 5)]
        out += [bits(f(c, tf.constant(z[:n]))) for n in (21, 5)]
    x2 = tf.constant(np.tile(z[11:21], (3, 1)))
    out += [bits(f(x2, row)), bits(f(row, x2)), bits(f(x2, col)), bits(f(col, x2)),
            bits(f(col, tf.constant(z[10:14].reshape(1, 4)))),
            bits(f(tf.constant(big), tf.constant(big[0] * -1))), bits(f(tf.constant(big), -0.0)),
            bits(tf.function(f)(x2, 0.0))]
""",
}
