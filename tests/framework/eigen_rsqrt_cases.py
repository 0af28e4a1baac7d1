"""float32 tf.math.rsqrt as TF 2.21's CPU kernel gives it, bit for bit (recorded by
record_tf_eigen_math.py into fixtures/tf_eigen_rsqrt.json; replayed by
test_eigen_math_tf_conformance.py; simdist/framework/ops/eigen_rsqrt.py): the CPU's
approximate rsqrtps and Eigen's Newton step in whole packets of 8, ``1 / sqrt`` in the
tail, over float32's whole range, the specials of eigen_log1p_cases (zeros, subnormals,
negatives, infinities, NaNs) in packets and tails, a traced function, l2_normalize and
Keras's BatchNormalization and LayerNormalization where they take tf.nn.batch_normalization
(2-D inputs; LayerNormalization's epsilon below 1.001e-5), and BatchNormalization's fused
kernel (its statistics in Eigen's column order times 1 / n, its own normalization and
moving averages; its gradients: eigen_fbn_cases); tf.math.reciprocal (rcpps and a Newton
step in whole packets, the tail divided, subnormals flushed; eigen_rcpps.py) and tf.sqrt
(subnormal inputs read as zero), and Log's gradient, ``grad * Reciprocal(x)``.
Results as in eigen_exp_cases."""

from eigen_log1p_cases import SPECIALS

CASES = {
    "rsqrt of 2003 values over float32's range": SPECIALS.format(seed=71) + """
x = np.concatenate([rng.uniform(0, 4, 700), rng.uniform(0, 1e4, 500),
                    10.0 ** rng.uniform(-38, 38.5, 803)])
x = tf.constant(x.astype(np.float32))
out = [bits(tf.math.rsqrt(x)), bits(tf.math.rsqrt(x[:13])), bits(tf.math.rsqrt(x[0]))]
""",
    "rsqrt of the specials, traced": SPECIALS.format(seed=72) + """
f = tf.function(lambda v: tf.math.rsqrt(v) * 2.0)
out = [each(tf.math.rsqrt), bits(f(tf.constant(special)))]
""",
    "l2_normalize, Keras's BatchNormalization and LayerNormalization, plain":
        SPECIALS.format(seed=73) + """
x = tf.constant(rng.randn(6, 20).astype(np.float32))
def layer(make, x):
    lay = make()
    lay.build(x.shape)
    lay.set_weights([rng.uniform(0.5, 2, w.shape).astype(np.float32) for w in lay.weights])
    return [bits(lay(x, training=False)), bits(lay(x, training=True)),
            [bits(w) for w in lay.weights]]
out = [bits(tf.math.l2_normalize(x, axis=1)), bits(tf.math.l2_normalize(x, axis=0)),
       layer(lambda: L.BatchNormalization(), x),
       layer(lambda: L.BatchNormalization(momentum=0.5, epsilon=1e-5), x[:, :13]),
       layer(lambda: L.LayerNormalization(epsilon=1e-6), x)]
""",
    "Keras's fused BatchNormalization: NHWC, NCHW, 5-D, training and inference, traced":
        SPECIALS.format(seed=74) + """
def layer(make, x, steps=2):
    lay = make()
    lay.build(x.shape)
    lay.set_weights([rng.uniform(0.5, 2, w.shape).astype(np.float32) for w in lay.weights])
    seen = [bits(lay(x, training=False))]
    for _ in range(steps):
        seen += [bits(lay(x, training=True))] + [bits(w) for w in lay.weights]
    return seen
x = tf.constant((rng.randn(2, 3, 4, 12) * 2 + 1).astype(np.float32))
x5 = tf.constant(rng.randn(2, 2, 3, 2, 9).astype(np.float32))
out = [layer(lambda: L.BatchNormalization(), x),
       layer(lambda: L.BatchNormalization(axis=1, momentum=0.5, center=False), x),
       layer(lambda: L.BatchNormalization(momentum=0.0, scale=False, epsilon=1e-4), x[:, :2]),
       layer(lambda: L.BatchNormalization(axis=-1), x5),
       layer(lambda: L.BatchNormalization(), tf.constant(rng.randn(1, 1, 1, 3)
                                                         .astype(np.float32)), steps=1)]
lay = L.BatchNormalization(momentum=0.9)
call = tf.function(lambda v, t: lay(v, training=t))
out.append([bits(call(x, tf.constant(t))) for t in (True, False, True)]
           + [bits(w) for w in lay.weights])
""",
    "reciprocal, sqrt and Log's gradient: packets, tails and the specials":
        SPECIALS.format(seed=75) + """
x = np.concatenate([rng.uniform(0, 4, 500), rng.uniform(-1e4, 1e4, 500),
                    10.0 ** rng.uniform(-38, 38.5, 503) * rng.choice([-1, 1], 503)])
x = tf.constant(x.astype(np.float32))
w = tf.constant(rng.uniform(-2, 2, 500).astype(np.float32))
def log_grad(v):
    # TF's Log gradient is grad * Reciprocal(x)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.math.log(v) * w)
    return tape.gradient(y, v)
out = [bits(tf.math.reciprocal(x)), bits(tf.math.reciprocal(x[:13])), bits(tf.sqrt(x)),
       each(tf.math.reciprocal), each(tf.sqrt), bits(log_grad(x[:500])),
       bits(tf.function(log_grad)(x[:500]))]
""",
}
