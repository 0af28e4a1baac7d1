"""float32 tf.reduce_sum, tf.reduce_mean and tf.cumsum as TF 2.21's CPU kernels give them,
bit for bit (recorded by record_tf_eigen_math.py into fixtures/tf_eigen_sum.json; replayed
by test_eigen_math_tf_conformance.py): sums over the last dimensions and whole tensors of
2 to 8192 values (Eigen's packet order, where NumPy's pairwise sum differs in about one
case in three), means (that sum over the count), cumulative sums (in sequence), sums and
means over the leading dimensions (Eigen's column order: four accumulators by row mod 4
for the columns in whole packets of 8 from 16 rows on), and a long row, which simdist sums
in NumPy's order (compared to rounding only: TF's order there is a tree). Bits as in
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
}
CASES = SUM_CASES
