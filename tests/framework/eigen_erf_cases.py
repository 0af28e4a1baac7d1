"""float32 tf.math.erfc, tf.nn.gelu (both forms) and the gradients of erf and erfc as TF
2.21's CPU kernels give them, bit for bit (recorded by record_tf_eigen_math.py into
fixtures/tf_eigen_erf.json; replayed by test_eigen_math_tf_conformance.py;
simdist/framework/ops/eigen_erf.py, eigen_rcpps.py). Erfc's whole packets take the CPU's
rcpps (the recording machine's: an AMD Zen 3 EPYC), its tail a division; the specials as
in eigen_log1p_cases. gelu's inputs avoid subnormal halves (TF's Mul flushes them, simdist's
does not), and only the exact gelu is traced: in a tf.function TF's grappler rewrites the
approximate form's Pow(x, 3) into x * Square(x), which simdist's graphs do not. Results as
in eigen_exp_cases."""

from eigen_log1p_cases import SPECIALS

CASES = {
    "erfc of 2003 values, of the specials and in tails": SPECIALS.format(seed=41) + """
x = np.concatenate([rng.uniform(-1.2, 1.2, 500), rng.uniform(-12, 12, 1000),
                    rng.randn(503) * 3]).astype(np.float32)
out = [bits(tf.math.erfc(tf.constant(x))), each(tf.math.erfc),
       [bits(tf.math.erfc(tf.constant(x[i:i + 7]))) for i in range(0, 49, 7)]]
""",
    "gelu, exact and approximate, and Keras's": SPECIALS.format(seed=42) + """
x = tf.constant(np.concatenate([rng.randn(700) * 3, rng.uniform(-12, 12, 301)])
                .astype(np.float32))
out = [bits(tf.nn.gelu(x)), bits(tf.nn.gelu(x, approximate=True)),
       bits(tf.keras.activations.gelu(x[:13])),
       bits(tf.function(tf.nn.gelu)(x[:21]))]
""",
    "gradients of erf and erfc": SPECIALS.format(seed=43) + """
x = tf.constant((rng.randn(203) * 2).astype(np.float32))
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    a, b = tf.math.erf(x), tf.math.erfc(x)
out = [bits(tape.gradient(a, x)), bits(tape.gradient(b, x))]
""",
}
