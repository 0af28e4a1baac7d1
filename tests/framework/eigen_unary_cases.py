"""float32 tf.tanh, tf.sigmoid and tf.math.log as TF 2.21's CPU kernels give them, bit
for bit (recorded by record_tf_eigen_math.py into fixtures/tf_eigen_unary.json; replayed by
test_eigen_math_tf_conformance.py; simdist/framework/ops/eigen_unary.py). Sizes that are
not whole packets of 8 (Sigmoid's and Log's tails take std::exp and std::log), the clamps,
float32's ends and subnormals, NaNs' bits, Keras's activations and a traced function.
Results as in eigen_exp_cases."""

from eigen_exp_cases import DATA

CASES = {
    "tanh and sigmoid of 1003 values in [-10, 10]": DATA.format(seed=21) + """
x = tf.constant(rng.uniform(-10, 10, 1003).astype(np.float32))
out = [bits(tf.tanh(x)), bits(tf.sigmoid(x)), bits(tf.math.tanh(x[:5])),
       bits(tf.math.sigmoid(x[:13]))]
""",
    "tanh and sigmoid at their clamps and float32's ends": DATA.format(seed=22) + """
x = np.concatenate([rng.uniform(-120, 30, 200), [0.0, -0.0, 1e-30, -1e-40, 7.9, 7.91, -7.91,
                    8.1, 16.63, 16.64, -103.9, -104.1, np.inf, -np.inf, np.nan]])
x = tf.constant(x.astype(np.float32))
out = [bits(tf.tanh(x)), bits(tf.nn.sigmoid(x)), bits(tf.sigmoid(x[-3:]))]
""",
    "Keras's tanh and sigmoid activations, traced": DATA.format(seed=23) + """
x = tf.constant(rng.randn(6, 11).astype(np.float32) * 4)
f = tf.function(lambda v: (tf.keras.activations.tanh(v), tf.keras.activations.sigmoid(v)))
out = [bits(t) for t in f(x)]
""",
    "log over float32's range, zeros, negatives and subnormals": DATA.format(seed=24) + """
x = np.concatenate([rng.uniform(0, 100, 500), 10.0 ** rng.uniform(-38, 38, 500),
                    [0.0, -0.0, -1.0, 1.0, np.inf, -np.inf, np.nan, 1e-40, 0.70710677,
                     0.70710683, 2.0]])
x = tf.constant(x.astype(np.float32))
out = [bits(tf.math.log(x)), bits(tf.math.log(x[:6])), bits(tf.math.log(x[1002:1007])),
       bits(tf.function(lambda v: tf.math.log(v))(x[:100]))]
""",
}
