"""float16 and bfloat16 matrix products as TF 2.21's CPU kernel gives them, bit for bit
(recorded by record_tf_half_matmul.py into fixtures/tf_half_matmul.json, replayed by
test_half_matmul_tf_conformance.py): the kernel sums the float32 products over k in order,
then rounds once to float16 or truncates to bfloat16 (simdist/framework/ops/half_matmul.py).
Each case's ``out`` is the result's 16-bit patterns (one ulp apart is 1 apart). In the
inputs the first and the last product of every sum cancel (``a[:, -1] = a[:, 0]``,
``b[-1] = -b[0]``, ``b[0]`` large): what is left carries the float32 rounding of the sums
in between, so the order of the additions decides most elements (another order, e.g. a
BLAS's partial sums, gives other bits). The shapes are a Dense layer's in training with
batch 16: the kernel's gradient ``x^T dy`` (k = 16), the input's gradient ``dy W^T`` and
the forward product (k = 64); batched products (BatchMatMulV2); and widths whose last
columns TF's oneDNN kernel sums in another order (test_half_matmul_tf_conformance.KNOWN).
Snippets as in tests/tf_snippets.py."""

DATA = """
rng = np.random.RandomState({seed})
def pair(m, k, n, dtype=np.float16):
    a = rng.rand(m, k)
    b = rng.randn(k, n) * 2.0 ** rng.randint(-4, 3, size=(k, n))
    b[0] *= 1024
    a[:, -1], b[-1] = a[:, 0], -b[0]
    return a.astype(dtype), b.astype(dtype)
def bits(t):
    return t.numpy().view(np.uint16)
"""

CASES = {
    "float16 kernel gradient x^T dy (k=16)": DATA.format(seed=1) + """
xt, dy = pair(96, 16, 64)
out = [bits(tf.matmul(tf.constant(xt.T), tf.constant(dy), transpose_a=True))]
""",
    "float16 input gradient dy W^T (k=64)": DATA.format(seed=2) + """
dy, wt = pair(16, 64, 48)
out = [bits(tf.matmul(tf.constant(dy), tf.constant(wt.T), transpose_b=True))]
""",
    "float16 hidden layer x W (k=64, 64 columns) and x @ W": DATA.format(seed=8) + """
x, w = pair(16, 64, 64)
x, w = tf.constant(x), tf.constant(w)
out = [bits(tf.matmul(x, w)), bits(x @ w)]
""",
    "float16 x W, 40 columns (k=64)": DATA.format(seed=3) + """
x, w = pair(16, 64, 40)
x, w = tf.constant(x), tf.constant(w)
out = [bits(tf.matmul(x, w)), bits(x @ w)]
""",
    "float16 logits x W (k=64, n=10) and its kernel gradient (k=16)": DATA.format(seed=6) + """
x, w = pair(16, 64, 10)
xt, dy = pair(64, 16, 10)
out = [bits(tf.matmul(tf.constant(x), tf.constant(w))),
       bits(tf.matmul(tf.constant(xt.T), tf.constant(dy), transpose_a=True))]
""",
    "float16 28 and 4 columns (k=32)": DATA.format(seed=7) + """
x, w = pair(12, 32, 28)
x4, w4 = pair(20, 32, 4)
out = [bits(tf.matmul(tf.constant(x), tf.constant(w))),
       bits(tf.matmul(tf.constant(x4), tf.constant(w4)))]
""",
    "float16 batched matmul, 32 columns (k=16)": DATA.format(seed=9) + """
a, b = pair(24, 16, 32)
out = [bits(tf.matmul(tf.constant(a.reshape(3, 8, 16)), tf.constant(b)))]
""",
    "float16 batched matmul, 24 columns (k=16)": DATA.format(seed=4) + """
a, b = pair(24, 16, 24)
out = [bits(tf.matmul(tf.constant(a.reshape(3, 8, 16)), tf.constant(b)))]
""",
    "bfloat16 kernel gradient x^T dy (k=16)": DATA.format(seed=5) + """
xt, dy = pair(64, 16, 32, np.float32)
x = tf.cast(tf.constant(xt.T), tf.bfloat16)
out = [bits(tf.matmul(x, tf.cast(tf.constant(dy), tf.bfloat16), transpose_a=True))]
""",
}
