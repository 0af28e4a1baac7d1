"""float32 tf.nn.sparse_softmax_cross_entropy_with_logits and
tf.nn.softmax_cross_entropy_with_logits as TF 2.21's CPU kernels give them, bit for bit:
losses and gradients (recorded by record_tf_eigen_math.py into fixtures/tf_eigen_xent.json;
replayed by test_eigen_math_tf_conformance.py; simdist/framework/ops/eigen_xent.py). The
kernels take exp inside each row's sum (a row's last n % 8 classes by std::exp), the
sparse loss's log by logf, the dense loss's log by packets; rows picked from a 4000 x 10
draw are the ones where the gradient's divisor depends on that. Class counts below, at and
above a packet, rank 3 with axis 0 (moved to the end), infinities and NaN, Keras's losses
from logits in a traced step. Results as in eigen_exp_cases."""

from eigen_exp_cases import DATA

XENT = DATA + """
def both(x, labels, dense, axis=-1, picked=None):
    x = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
        full = tf.nn.softmax_cross_entropy_with_logits(labels=dense, logits=x, axis=axis)
    grads = [tape.gradient(sparse, x), tape.gradient(full, x)]
    if picked is not None:  # rows (and classes) of the gradients kept
        grads = [tf.constant(g.numpy()[picked]) for g in grads]
    return [bits(sparse[:64]), bits(full[:64])] + [bits(g) for g in grads]
def draw(rows, classes, scale):
    x = (rng.randn(rows, classes) * scale).astype(np.float32)
    p = rng.rand(rows, classes).astype(np.float32)
    return x, rng.randint(0, classes, rows).astype(np.int32), p / p.sum(-1, keepdims=True)
"""

CASES = {
    "sparse and dense cross-entropy of 4000 x 10 logits": XENT.format(seed=71) + """
x = (rng.randn(4000, 10) * 6).astype(np.float32)
labels = rng.randint(0, 10, 4000)
p = rng.rand(4000, 10).astype(np.float32)
out = both(x, labels, p / p.sum(-1, keepdims=True), picked=[0, 1, 1211, 1876, 3035, 3596])
""",
    "class counts 1, 3, 8, 37, 100 and 1000 at two scales": XENT.format(seed=72) + """
out = [both(*draw(rows, classes, scale), picked=np.s_[:, -20:]) for rows, classes in
       ((4, 1), (9, 3), (33, 8), (7, 37), (16, 100), (3, 1000)) for scale in (1.0, 8.0)]
""",
    "rank 3, the classes on axis 0, infinities and NaN": XENT.format(seed=73) + """
x3, p3 = rng.randn(2, 3, 11).astype(np.float32), rng.rand(2, 3, 11).astype(np.float32)
inf, nan = np.inf, np.nan
x = np.array([[1, 2, inf, 0], [1, 2, -inf, 0], [-inf] * 4, [inf, inf, 1, 2], [nan, 1, 2, 3],
              [1e30, -1e30, 3e38, 0], [0, 0, 0, 0]], np.float32)
out = [both(x3, rng.randint(0, 11, (2, 3)), p3),
       bits(tf.nn.softmax_cross_entropy_with_logits(labels=p3, logits=x3, axis=0)),
       both(x, np.array([0, 2, 1, 0, 1, 2, 3]), np.full((7, 4), 0.25, np.float32))]
""",
    "Keras's cross-entropies from logits in a traced step": XENT.format(seed=74) + """
x, labels, p = draw(64, 10, 4.0)
sparse = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
full = tf.keras.losses.CategoricalCrossentropy(from_logits=True)
@tf.function
def step(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        each = sparse(labels, x)
        loss = tf.reduce_sum(each) + full(p, x)
    return each, loss, tape.gradient(loss, x)
out = [bits(t) for t in step(tf.constant(x))]
""",
}
