"""tf.linalg's factorisations and solves, as TF 2.21 gives them (recorded by
record_tf_linalg.py into fixtures/tf_linalg.json; replayed by test_linalg_ops.py): values
(what a singular vector's or eigenvector's sign does not change: singular values,
reconstructions, ``abs(u)``, projections; QR as it is), shapes, TF's kernel errors, the
composites (logdet, pinv, matrix_rank, cholesky_solve, lstsq), gradients through a tape
(sign-free losses), and the same ops traced in a tf.function. Snippets as in
tests/tf_snippets.py."""

GRAD = """
def grad(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
"""

M = GRAD + """
m32 = tf.constant([[4.0, 1.0], [2.0, 3.0], [0.0, 1.0]])
rng = np.random.RandomState(5)
a64 = tf.constant(rng.randn(2, 5, 3))
sym = tf.constant([[2.0, 1.0, 0.5], [1.0, 3.0, 0.0], [0.5, 0.0, 1.0]])
"""

CASES = {
    "svd values and reconstructions": M + """
s, u, v = tf.linalg.svd(m32)
sb, ub, vb = tf.linalg.svd(a64)
out = [s, tf.linalg.svd(m32, compute_uv=False), u @ tf.linalg.diag(s) @ tf.transpose(v),
       tf.abs(u), tf.abs(v), sb, tf.abs(ub), tf.einsum('...s,...us,...vs->...uv', sb, ub, vb),
       [t.shape for t in tf.linalg.svd(m32, full_matrices=True)],
       [t.shape for t in tf.linalg.svd(tf.transpose(a64, [0, 2, 1]))]]
""",
    "svd of empty, wide and NaN matrices": M + """
out = [[t.shape for t in tf.linalg.svd(tf.ones([2, 0]))],
       [t.shape for t in tf.linalg.svd(tf.zeros([0, 3, 2]))],
       tf.linalg.svd(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), compute_uv=False),
       tf.linalg.svd(tf.constant([[np.nan, 1.0], [1.0, 1.0]]), compute_uv=False)]
""",
    "svd of a vector": "out = tf.linalg.svd(tf.ones([3]))",
    "svd of integers": "out = tf.linalg.svd(tf.ones([2, 2], tf.int32))",
    "qr reduced and complete": M + """
q, r = tf.linalg.qr(m32)
qf, rf = tf.linalg.qr(m32, full_matrices=True)
qb, rb = tf.linalg.qr(a64)
out = [q, r, qf, rf, qb, rb, tf.linalg.qr(tf.transpose(m32)), q @ r]
""",
    "qr of a vector": "out = tf.linalg.qr(tf.ones([3]))",
    "qr of integers": "out = tf.linalg.qr(tf.ones([2, 2], tf.int32))",
    "eigh values, abs vectors, lower triangle read": M + """
e, v = tf.linalg.eigh(sym)
out = [e, tf.abs(v), v @ tf.linalg.diag(e) @ tf.transpose(v), tf.linalg.eigvalsh(sym),
       tf.linalg.eigh(tf.constant([[1.0, 5.0], [0.0, 1.0]]))[0],
       tf.linalg.eigvalsh(tf.constant(rng.randn(3, 4, 4)))]
""",
    "eigh of a non-square matrix": "out = tf.linalg.eigh(tf.ones([2, 3]))",
    "eigh of integers": "out = tf.linalg.eigh(tf.ones([2, 2], tf.int32))",
    "slogdet and logdet": M + """
out = [tf.linalg.slogdet(tf.constant([[2.0, 1.0], [1.0, -3.0]])),
       tf.linalg.slogdet(tf.zeros([2, 2])), tf.linalg.slogdet(tf.constant(rng.randn(3, 4, 4))),
       tf.linalg.logdet(sym), tf.linalg.logdet(tf.constant([[1.0, 2.0], [2.0, 1.0]]))]
""",
    "slogdet of a non-square matrix": "out = tf.linalg.slogdet(tf.ones([2, 3]))",
    "triangular_solve lower, upper, adjoint, broadcast, singular": M + """
low = tf.constant([[2.0, 7.0], [1.0, 3.0]])
b = tf.constant([[1.0], [2.0]])
out = [tf.linalg.triangular_solve(low, b), tf.linalg.triangular_solve(low, b, lower=False),
       tf.linalg.triangular_solve(low, b, adjoint=True),
       tf.linalg.triangular_solve(low, b, lower=False, adjoint=True),
       tf.linalg.triangular_solve(tf.stack([low, 2 * low]), b),
       tf.linalg.triangular_solve(tf.constant([[2.0, 0.0], [1.0, 0.0]]), b)]
""",
    "triangular_solve of a vector": (
        "out = tf.linalg.triangular_solve(tf.ones([2]), tf.ones([2, 1]))"),
    "triangular_solve of a non-square matrix": (
        "out = tf.linalg.triangular_solve(tf.ones([2, 3]), tf.ones([2, 1]))"),
    "triangular_solve with mismatched rows": (
        "out = tf.linalg.triangular_solve(tf.eye(2), tf.ones([1, 3]))"),
    "triangular_solve of two dtypes": (
        "out = tf.linalg.triangular_solve(tf.eye(2), tf.ones([2, 1], tf.float64))"),
    "pinv, matrix_rank, cholesky_solve": M + """
spd = tf.constant([[4.0, 2.0], [2.0, 3.0]])
out = [tf.linalg.pinv(m32), tf.linalg.pinv(a64), tf.linalg.pinv(tf.constant([[1.0, 2.0],
                                                                            [2.0, 4.0]])),
       tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])),
       tf.linalg.matrix_rank(a64), tf.linalg.matrix_rank(m32, tol=2.5),
       tf.linalg.cholesky_solve(tf.linalg.cholesky(spd), tf.constant([[1.0], [1.0]]))]
""",
    "pinv of integers": "out = tf.linalg.pinv(tf.ones([2, 2], tf.int32))",
    "matrix_rank of a vector": "out = tf.linalg.matrix_rank(tf.ones([3]))",
    "lstsq fast, exact, regularised, wide": M + """
b = tf.constant([[1.0], [2.0], [3.0]])
out = [tf.linalg.lstsq(m32, b), tf.linalg.lstsq(m32, b, fast=False),
       tf.linalg.lstsq(m32, b, l2_regularizer=0.5),
       tf.linalg.lstsq(tf.transpose(m32), tf.constant([[1.0], [2.0]])),
       tf.linalg.lstsq(a64, tf.constant(rng.randn(2, 5, 2)))]
""",
    "lstsq with mismatched rows": (
        "out = tf.linalg.lstsq(tf.ones([3, 2]), tf.ones([2, 1]))"),
    "gradients of factorisations": M + """
out = [grad(lambda x: tf.reduce_sum(tf.linalg.svd(x, compute_uv=False)), m32),
       grad(lambda x: tf.reduce_sum(tf.linalg.svd(x)[0] ** 2), a64),
       grad(lambda x: tf.reduce_sum(tf.linalg.qr(x)[0]) + tf.reduce_sum(tf.linalg.qr(x)[1]),
            m32),
       grad(lambda x: tf.reduce_sum(tf.linalg.qr(x)[1] ** 2), tf.transpose(m32)),
       grad(lambda x: tf.reduce_sum(tf.linalg.eigvalsh(x) * [1.0, 2.0, 3.0]), sym),
       grad(lambda x: tf.reduce_sum(tf.linalg.eigh(x)[1] ** 2 * [[1.0, 2.0, 3.0]]), sym),
       grad(lambda x: tf.linalg.slogdet(x)[1], sym), grad(tf.linalg.logdet, sym),
       grad(lambda x: tf.reduce_sum(tf.linalg.triangular_solve(x, tf.ones([3, 2]))), sym),
       grad(lambda x: tf.reduce_sum(tf.linalg.triangular_solve(sym, x, lower=False,
                                                               adjoint=True)), tf.ones([3, 2])),
       grad(lambda x: tf.reduce_sum(tf.linalg.pinv(x)), m32)]
""",
    "linalg ops traced": M + """
@tf.function
def f(x):
    s, u, v = tf.linalg.svd(x)
    q, r = tf.linalg.qr(x)
    return [s, u @ tf.linalg.diag(s) @ tf.transpose(v), q, r, tf.linalg.pinv(x),
            tf.linalg.matrix_rank(x), tf.linalg.slogdet(tf.transpose(x) @ x)[1]]
out = f(m32) + [[t.shape for t in f.get_concrete_function(
    tf.TensorSpec([None, 2])).structured_outputs]]
""",
}
