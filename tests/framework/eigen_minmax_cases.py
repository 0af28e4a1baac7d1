"""float32 tf.maximum and tf.minimum as TF 2.21's CPU kernels give them, bit for bit
(recorded by record_tf_eigen_math.py into fixtures/tf_eigen_minmax.json; replayed by
test_eigen_math_tf_conformance.py; simdist/framework/ops/eigen_minmax.py): -0 against +0
both ways in whole packets (the second input wins) and in the tail (the first wins),
subnormals (zeros to TF), NaNs with payloads and a traced function (same shapes only: a
scalar operand takes another path in TF, not modelled).
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
}
