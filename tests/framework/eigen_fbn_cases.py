"""Keras's fused normalizations' gradients as TF 2.21's CPU kernels give them, bit for bit
(recorded by record_tf_eigen_math.py into fixtures/tf_eigen_fbn.json; replayed by
test_eigen_math_tf_conformance.py; simdist/framework/ops/fused_batch_norm_ops.py,
eigen_redux.py): FusedBatchNormGradV3 in training (its own formula, the sums over the
rest in ReduceOuterDimensions' order: row after row, or in two blocks of rows on a big
tensor) and in inference (the freeze gradient), NHWC and NCHW, through a tape and in short
Keras fits (gamma, beta, the moving statistics); LayerNormalization's fused path (tf-keras
runs FusedBatchNormV3 on the input reshaped to NCHW ``(1, rows, values, 1)``): outputs,
gradients and a fit. Results as in eigen_exp_cases."""

from eigen_exp_cases import DATA

LAYERS = DATA + """
def built(make, x):
    lay = make()
    lay.build(x.shape)
    lay.set_weights([rng.uniform(0.5, 2, w.shape).astype(np.float32) for w in lay.weights])
    return lay
def grads(lay, x, training, n=96):
    # dy is w exactly: the gradient of sum(y * w)
    w = tf.constant(rng.randn(*x.shape).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = lay(x, training=training)
        loss = tf.reduce_sum(y * w)
    dx, *dw = tape.gradient(loss, [x] + lay.trainable_weights)
    # the first n values of y and dx (the fixture stays small)
    return [bits(tf.reshape(t, [-1])[:n]) for t in (y, dx)] + [bits(g) for g in dw]
def fit(model, shape, epochs=3):
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    x = (rng.randn(*shape) * 2 + 1).astype(np.float32)
    y = rng.randn(*model.compute_output_shape(shape)).astype(np.float32)
    model.fit(x, y, batch_size=8, epochs=epochs, shuffle=False, verbose=0)
    return [bits(w) for w in model.weights]
"""

CASES = {
    "FusedBatchNormGrad through a tape: NHWC, NCHW, training and inference":
        LAYERS.format(seed=81) + """
x = tf.constant((rng.randn(4, 3, 5, 12) * 2 + 1).astype(np.float32))
out = [grads(built(lambda: L.BatchNormalization(), x), x, True),
       grads(built(lambda: L.BatchNormalization(), x), x, False),
       grads(built(lambda: L.BatchNormalization(axis=1, center=False), x), x, True),
       grads(built(lambda: L.BatchNormalization(axis=1, scale=False), x), x, False),
       grads(built(lambda: L.BatchNormalization(momentum=0.5), x[:1, :1, :1]), x[:1, :1, :1],
             True)]
""",
    "FusedBatchNormGrad of a big batch (two blocks of rows)": LAYERS.format(seed=82) + """
x = tf.constant((rng.randn(64, 8, 8, 32) * 3 - 1).astype(np.float32))
out = [grads(built(lambda: L.BatchNormalization(), x), x, t) for t in (True, False)]
""",
    "Keras fits through fused BatchNormalization, trained and frozen":
        LAYERS.format(seed=83) + """
def model(*frozen):
    m = tf.keras.Sequential([tf.keras.Input((4, 4, 3))] + [
        L.BatchNormalization(momentum=0.9, trainable=not f) for f in frozen])
    return m
out = [fit(model(False), (32, 4, 4, 3)), fit(model(False, True), (32, 4, 4, 3)),
       fit(tf.keras.Sequential([tf.keras.Input((3, 4, 4)), L.BatchNormalization(axis=1)]),
           (24, 3, 4, 4))]
""",
    "LayerNormalization's fused path: outputs and gradients": LAYERS.format(seed=84) + """
x = tf.constant((rng.randn(6, 20) * 2 + 1).astype(np.float32))
x3 = tf.constant(rng.randn(3, 4, 10).astype(np.float32))
out = [grads(built(lambda: L.LayerNormalization(), x), x, True),
       grads(built(lambda: L.LayerNormalization(center=False, epsilon=1e-4), x3), x3, True),
       grads(built(lambda: L.LayerNormalization(axis=[1, 2], scale=False), x3), x3, True),
       grads(built(lambda: L.LayerNormalization(), x[:, :3]), x[:, :3], True)]
""",
    "Keras fit through fused LayerNormalization": LAYERS.format(seed=85) + """
out = fit(tf.keras.Sequential([tf.keras.Input((5, 12)), L.LayerNormalization(),
                               L.LayerNormalization(axis=[1, 2], epsilon=1e-2)]),
          (32, 5, 12))
""",
}
