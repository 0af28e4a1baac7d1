"""float32 matrix products as TF 2.21's CPU kernel gives them, bit for bit (recorded by
record_tf_onednn_sgemm.py into fixtures/tf_onednn_sgemm.json, replayed by
test_onednn_sgemm_tf_conformance.py; the order is simdist/framework/ops/onednn_sgemm.py's).
Each result is ``"shape sha256"`` of its float32 bits: a one-ulp difference anywhere changes
it (NumPy's BLAS differs from TF in 10% to 90% of the elements of these products). The
shapes cover oneDNN's tiles (16 output columns x 6 rows; the last 1 to 8 columns, the last
1 to 5 rows), its depth and row blocks (256, 48), Eigen's depth blocks (from k = 401), one
output row or column (Eigen's GEMVs), transposes, batched products, products whose depth Eigen
shards in two GEMMs (a small output, a long depth) and a Dense layer's training products;
"double rounding" makes float64 sums land exactly halfway between two float32
values, where a fused multiply-add rounds once. Snippets as in tests/tf_snippets.py."""

DATA = """
import hashlib
rng = np.random.RandomState({seed})
def pair(m, k, n, batch=()):
    a = rng.randn(*batch, m, k).astype(np.float32)
    return a, rng.randn(*batch, k, n).astype(np.float32)
def bits(t):
    v = np.ascontiguousarray(t.numpy(), dtype=np.float32)
    return f"{{v.shape}} {{hashlib.sha256(v.view(np.uint32).tobytes()).hexdigest()[:24]}}"
def mm(shape, **kw):
    a, b = pair(*shape)
    if kw.get("transpose_a"):
        a = np.ascontiguousarray(np.swapaxes(a, -1, -2))
    if kw.get("transpose_b"):
        b = np.ascontiguousarray(np.swapaxes(b, -1, -2))
    return bits(tf.matmul(tf.constant(a), tf.constant(b), **kw))
"""


def _shapes(seed, *shapes, **kw):
    listed = ", ".join(f"mm({s!r}{''.join(f', {k}={v}' for k, v in kw.items())})"
                       for s in shapes)
    return DATA.format(seed=seed) + f"out = [{listed}]\n"


CASES = {
    "whole tiles (32 x 20 x 32, 64 x 24 x 48, 96 x 16 x 64)":
        _shapes(1, (32, 20, 32), (64, 24, 48), (96, 16, 64)),
    "last output columns: 1 to 8 in a tile of 8, 9 to 15 in a tile of 16":
        _shapes(2, (12, 9, 3), (12, 9, 8), (12, 9, 10), (12, 9, 24), (12, 9, 40),
                (12, 9, 31)),
    "last output rows: tiles of 1 to 5 rows (unfused pairs of 1 and 2)":
        _shapes(3, (7, 11, 16), (8, 11, 16), (9, 11, 17), (10, 11, 16), (11, 12, 20),
                (5, 7, 9)),
    "small products (2 x 2 x 2, 7 x 5 x 3, 13 x 3 x 11, 6 x 1 x 5)":
        _shapes(4, (2, 2, 2), (7, 5, 3), (13, 3, 11), (6, 1, 5)),
    "rows in oneDNN's blocks of 48 (100, 130 and 256 rows)":
        _shapes(5, (100, 20, 32), (130, 12, 20), (256, 20, 32)),
    "depth in oneDNN's blocks: 300 in halves, 384":
        _shapes(6, (40, 300, 24), (10, 384, 9)),
    "depth in Eigen's blocks: 600 in 304 + 296, 1000 in 336s":
        _shapes(7, (20, 600, 20), (3, 1000, 5)),
    "the depth sharded in two GEMMs, each blocked for 2 threads (784 = 392 + 392 in 200s)":
        _shapes(20, (32, 784, 64), (64, 784, 32), (20, 979, 89), (45, 852, 92, (3,))),
    "one output row: Eigen's GEMV (depth 20, 200 in blocks of 16)":
        _shapes(8, (1, 20, 32), (1, 200, 7), (1, 5, 1)),
    "one output column: Eigen's row-major GEMV (8 lanes, an odd last row's 4)":
        _shapes(17, (64, 8, 1), (65, 13, 1), (7, 44, 1), (33, 300, 1), (3, 23, 1)),
    "one output column, transpose_a: Eigen's column-major GEMV":
        _shapes(18, (8, 64, 1), (16, 200, 1), transpose_a=True),
    "one output row, transpose_b: Eigen's row-major GEMV":
        _shapes(19, (1, 40, 30), (1, 9, 11), transpose_b=True),
    "a Dense layer's products in training (batch 64: 10 -> 16 -> 8)":
        _shapes(9, (64, 10, 16), (64, 16, 8), (64, 8, 16)),
    "kernel gradients x^T dy (transpose_a, depth 64 and 128)":
        _shapes(10, (10, 64, 16), (16, 64, 8), (20, 128, 32), transpose_a=True),
    "input gradients dy W^T (transpose_b)":
        _shapes(11, (64, 16, 10), (32, 10, 32), transpose_b=True),
    "both transposed":
        _shapes(12, (9, 14, 13), transpose_a=True, transpose_b=True),
    "batched products that contract (3 x 40 x 30 x 20; batch 1)":
        _shapes(13, (40, 30, 20, (3,)), (9, 7, 5, (1,))),
    "a batch of products times one matrix (broadcast)": DATA.format(seed=14) + """
a, _ = pair(32, 24, 1, (4,))
_, b = pair(1, 24, 40)
out = [bits(tf.matmul(tf.constant(a), tf.constant(b)))]
""",
    "double rounding: float64 sums halfway between two float32 values": DATA.format(
        seed=15) + """
one = np.float32(1 + 2.0 ** -23)
a = np.full((12, 3), one, np.float32)
b = np.ones((3, 32), np.float32)
b[1:] = np.float32(2.0 ** -24 * (1 - 2.0 ** -23))
out = [bits(tf.matmul(tf.constant(a), tf.constant(b))),
       bits(tf.matmul(tf.constant(a[:9]), tf.constant(b[:, :20]))),
       bits(tf.matmul(tf.constant(a[:, :2]), tf.constant(b[:2])))]
""",
    "a Dense layer's forward and gradients under GradientTape": DATA.format(seed=16) + """
x, w = pair(32, 20, 24)
w1 = tf.Variable(w)
w2 = tf.Variable(rng.randn(24, 10).astype(np.float32))
with tf.GradientTape() as tape:
    h = tf.nn.relu(tf.matmul(tf.constant(x), w1))
    y = tf.matmul(h, w2)
    loss = tf.reduce_sum(y * y)
g1, g2 = tape.gradient(loss, [w1, w2])
out = [bits(h), bits(y), bits(g1), bits(g2)]
""",
}
