"""float32 tf.reduce_sum, tf.reduce_mean and tf.cumsum as TF 2.21's CPU kernels give them,
bit for bit (recorded by record_tf_eigen_math.py into fixtures/tf_eigen_sum.json; replayed
by test_eigen_math_tf_conformance.py): sums over the last dimensions and whole tensors of
2 to 8192 values (Eigen's packet order, where NumPy's pairwise sum differs in about one
case in three), means (that sum over the count), cumulative sums (in sequence), sums and
means over the leading dimensions (Eigen's column order: four accumulators by row mod 4
for the columns in whole packets of 8 from 16 rows on), and a long row, which simdist sums
in NumPy's order (compared to rounding only: TF's order there is a tree); sums, means and
maxima over middle and mixed axes (TF's ReductionHelper runs of reduced and kept
dimensions: Eigen's preserving reducer, its generic loop, or a transpose); BiasAddGrad's
sums (TF's redux functor: rows in one or two blocks, runs per channel). Bits as in
eigen_exp_cases."""

from eigen_exp_cases import DATA

SUM_CASES = {
    "sum of rows of 3 to 3000 values": DATA.format(seed=11) + """
out = [bits(tf.reduce_sum(tf.constant((rng.rand(4, n) * 10).astype(np.float32)), axis=-1))
       for n in (3, 8, 31, 32, 33, 100, 1000, 3000)]
""",
    "sum and mean of whole tensors": DATA.format(seed=12) + """
xs = [(rng.rand(*s) * 100 - 50).astype(np.float32) for s in ((64,), (64, 10), (20, 30),
                                                           (7, 3, 50), (8192,))]
out = [[bits(tf.reduce_sum(x)), bits(tf.reduce_mean(x))] for x in xs]
""",
    "sum and mean over trailing axes, keepdims": DATA.format(seed=13) + """
x = tf.constant(rng.randn(5, 6, 70).astype(np.float32))
out = [bits(tf.reduce_sum(x, axis=[1, 2])), bits(tf.reduce_mean(x, axis=-1, keepdims=True)),
       bits(tf.reduce_mean(x, axis=[-2, -1]))]
""",
    "cumsum in sequence": DATA.format(seed=14) + """
x = tf.constant((rng.rand(3, 500) * 10).astype(np.float32))
out = [bits(tf.cumsum(x, axis=1)), bits(tf.cumsum(x, axis=1, reverse=True, exclusive=True)),
       bits(tf.cumsum(x, axis=0))]
""",
    "sum of 10000 values (rounding only)": DATA.format(seed=15) + """
out = tf.reduce_sum(tf.constant(rng.rand(10000).astype(np.float32)))
""",
    "sum and mean over leading axes": DATA.format(seed=16) + """
out = []
for n, d in ((3, 20), (15, 9), (16, 8), (17, 13), (300, 40), (1003, 3), (64, 1)):
    x = tf.constant((rng.randn(n, d) * 10).astype(np.float32))
    out.append([bits(tf.reduce_sum(x, axis=0)), bits(tf.reduce_mean(x, axis=0))])
x = tf.constant(rng.randn(6, 5, 4, 11).astype(np.float32))
out += [bits(tf.reduce_sum(x, axis=[0, 1, 2])), bits(tf.reduce_mean(x, axis=[0, 1])),
        bits(tf.reduce_mean(x, axis=[0, 1, 2], keepdims=True)),
        bits(tf.reduce_sum(tf.constant(np.array([[-0.0], [-0.0]], np.float32)), axis=0))]
""",
    "sum, mean and max over middle and mixed axes": DATA.format(seed=17) + """
out = []
for shape, axes in (((4, 20, 11), 1), ((3, 16, 8), 1), ((2, 5, 19), [1]), ((6, 40, 13), 1),
                    ((5, 17, 3), 0), ((3, 6, 4, 10), [1, 2]), ((5, 7, 9), [0, 2]),
                    ((4, 30, 5, 2), [0, 2]), ((3, 4, 5, 6), [1, 3]), ((2, 1, 30, 1, 9), [1, 2]),
                    ((7, 64, 24), 1), ((1, 1, 40, 3), [0, 2])):
    x = tf.constant((rng.randn(*shape) * 10).astype(np.float32))
    out.append([bits(tf.reduce_sum(x, axis=axes)), bits(tf.reduce_mean(x, axis=axes)),
                bits(tf.reduce_max(x, axis=axes))])
z = tf.constant(np.array([[[-0.0, 0.0], [-0.0, -0.0]]] * 2, np.float32))
out.append([bits(tf.reduce_sum(z, axis=1)), bits(tf.reduce_max(z, axis=1)),
            bits(tf.reduce_min(z, axis=[0, 2]))])
""",
    "BiasAddGrad: channels last and first, small and split between two threads":
        DATA.format(seed=18) + """
def bias_grad(shape, data_format=None, dtype=np.float32):
    x = tf.constant(np.zeros(shape, dtype))
    w = tf.constant((rng.randn(*shape) * 4).astype(dtype))
    b = tf.constant(np.zeros(shape[1] if data_format == "NCHW" else shape[-1], dtype))
    with tf.GradientTape() as tape:
        tape.watch(b)
        loss = tf.reduce_sum(tf.nn.bias_add(x, b, data_format=data_format) * w)
    return bits(tf.cast(tape.gradient(loss, b), tf.float32))
out = [bias_grad(s) for s in ((5, 7), (64, 16), (2, 3, 4, 9), (4000, 40), (3000, 70),
                              (32, 32, 32, 16), (16, 100, 24), (257, 1), (64, 1))]
out += [bias_grad(s, "NCHW") for s in ((4, 3, 5, 5), (8, 16, 32, 32), (5, 12, 50, 61),
                                      (3, 7, 3, 3))]
out += [bias_grad((6000, 32), dtype=np.float16), bias_grad((100, 24), dtype=np.float16)]
""",
}
CASES = SUM_CASES
