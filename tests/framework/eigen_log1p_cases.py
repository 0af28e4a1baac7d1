"""float32 tf.math.log1p, tf.math.expm1, tf.nn.softplus and tf.math.erf as TF 2.21's CPU
kernels give them, bit for bit (recorded by record_tf_eigen_math.py into
fixtures/tf_eigen_log1p.json; replayed by test_eigen_math_tf_conformance.py;
simdist/framework/ops/eigen_log1p.py, eigen_erf.py). Random values over float32's range,
then the specials (signed zeros and infinities, NaNs with payloads, subnormals, -1,
softplus's thresholds, erf's clamp) both inside whole packets of 8 and in tensors of 7
values, which take the scalar path (the C library's log1pf, expm1f, expf); Elu and Selu's
exp(x) - 1; in a tf.function, Grappler's Log1p for ``log(x + 1)`` (its gradient stays Log's).
Results as in eigen_exp_cases."""

from eigen_exp_cases import DATA

SPECIALS = DATA + """
special = np.concatenate([
    np.array([0x7FC00000, 0xFFC00001, 0x7F800001, 0x00000001, 0x807FFFFF, 0x00800000],
             np.uint32).view(np.float32),
    np.array([0.0, -0.0, np.inf, -np.inf, -1.0, -1.0000001, -0.99999994, 1e-8, -3e-8,
              13.942385, -13.942385, 13.942387, -13.942387, 88.7, 89.0, -87.5, -104.5, 4.0,
              -4.0, 3.9, 3e38, -3e38], np.float32)])
def each(f):
    # the specials within packets (two packets' worth, then the tail), and 7 at a time
    x = tf.constant(np.concatenate([special, special[:4]]))
    return [bits(f(x))] + [bits(f(tf.constant(special[i:i + 7])))
                            for i in range(0, special.size, 7)]
"""

CASES = {
    "log1p, expm1, softplus and erf of 2003 values": SPECIALS.format(seed=31) + """
x = np.concatenate([rng.uniform(-1, 1, 500), rng.uniform(-20, 20, 500), rng.randn(500) * 3,
                    10.0 ** rng.uniform(-38, 38, 503) * rng.choice([-1, 1], 503)])
x = tf.constant(x.astype(np.float32))
out = [bits(f(x)) for f in (tf.math.log1p, tf.math.expm1, tf.nn.softplus, tf.math.erf)]
""",
    "log1p, expm1, softplus and erf of the specials": SPECIALS.format(seed=32) + """
out = [each(f) for f in (tf.math.log1p, tf.math.expm1, tf.nn.softplus, tf.math.erf)]
""",
    "tails of 1 to 7 values, Keras's softplus, traced": SPECIALS.format(seed=33) + """
x = (rng.randn(7, 7) * 5).astype(np.float32)
out = [[bits(f(tf.constant(x[i, :i + 1]))) for i in range(7)]
       for f in (tf.math.log1p, tf.math.expm1, tf.nn.softplus)]
g = tf.function(lambda v: (tf.keras.activations.softplus(v), tf.math.log1p(v)))
out.append([bits(t) for t in g(tf.constant(x.reshape(1, 49)))])
""",
    "Grappler's ConvertLog1pStage in a tf.function: log(1 + x) is Log1p(x)":
        DATA.format(seed=38) + """
x = tf.constant(np.concatenate([rng.uniform(-0.99, 3, 300), 10.0 ** rng.uniform(-12, -1, 100),
                                [0.0, -0.0, -1.0, np.inf, 3e-39]]).astype(np.float32))
w = tf.constant(rng.uniform(-2, 2, 405).astype(np.float32))
def logs(v):
    with tf.GradientTape() as tape:
        tape.watch(v)
        ys = [tf.math.log(1.0 + v), tf.math.log(v + 1), tf.math.log(v + 2.0),
              tf.math.log(tf.add(v, 1.0))]
        loss = tf.reduce_sum(ys[0] * w)
    return ys + [tape.gradient(loss, v)]
out = [[bits(y) for y in logs(x)], [bits(y) for y in tf.function(logs)(x)]]
""",
}

CASES["binary cross-entropy on logits and on a sigmoid's output"] = DATA.format(seed=34) + """
logits = tf.constant((rng.randn(64, 1) * 4).astype(np.float32))
labels = tf.constant(rng.randint(0, 2, (64, 1)).astype(np.float32))
bce = tf.keras.losses.BinaryCrossentropy(from_logits=False, reduction="none")
out = [bits(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)),
       bits(bce(labels, tf.sigmoid(logits))),
       bits(tf.keras.losses.binary_crossentropy(labels, logits, from_logits=True))]
"""

CASES["elu, selu and Keras's elu with alpha: exp(x) - 1, not expm1"] = DATA.format(seed=35) + """
x = tf.constant(np.concatenate([rng.randn(500) * 3, rng.uniform(-1e-3, 1e-3, 203)])
                .astype(np.float32))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.selu(x)
out = [bits(tf.nn.elu(x)), bits(y), bits(tf.keras.activations.elu(x[:13], alpha=0.5)),
       bits(tf.nn.elu(x[:7])), bits(tape.gradient(y, x)),
       tf.nn.selu(tf.constant(rng.randn(9))).numpy()]
"""

CASES["exp, sigmoid and softplus tails where glibc's expf is not correctly rounded"] = \
    DATA.format(seed=36) + """
hard = np.array([0xC19399BC, 0xC187D4B7, 0xBF81317F, 0xC17BDD23, 0x411012FB, 0x40891B41,
                 0x41976466, 0xC1587D67, 0xC28784C0, 0xC1DDAAC3, 0xC21980A0, 0xC0F9A2D3,
                 0xC1A0C5E0, 0xC0A2B3F1], np.uint32).view(np.float32)
out = [[bits(f(tf.constant(hard[i:i + 7]))) for i in (0, 7)]
       for f in (tf.exp, tf.sigmoid, tf.nn.softplus)]
"""
