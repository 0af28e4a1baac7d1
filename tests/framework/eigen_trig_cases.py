"""float32 tf.sin and tf.cos as TF 2.21's CPU kernels give them, bit for bit (recorded by
record_tf_eigen_math.py into fixtures/tf_eigen_trig.json; replayed by
test_eigen_math_tf_conformance.py; simdist/framework/ops/eigen_trig.py): Eigen's
psincos_float in whole packets (its 2**23 rounding trick and four-part pi/2 below 25966 /
18838, Payne-Hanek's reduction above), glibc's sinf / cosf in the tail, the specials of
eigen_log1p_cases (a NaN's sign flips with its payload in cos's packets), and a traced
function. Results as in eigen_exp_cases."""

from eigen_log1p_cases import SPECIALS

CASES = {
    "sin and cos of 2003 values up to float32's largest": SPECIALS.format(seed=51) + """
x = np.concatenate([rng.uniform(-10, 10, 700), rng.uniform(-3e4, 3e4, 500),
                    10.0 ** rng.uniform(-38, 38.5, 500) * rng.choice([-1, 1], 500),
                    np.arange(-150, 151) * np.pi / 4, [18837.9, 18838.0, 25965.9, 25966.0]])
x = tf.constant(x.astype(np.float32))
out = [bits(tf.sin(x)), bits(tf.cos(x)), bits(tf.math.sin(x[:13])), bits(tf.math.cos(x[:5]))]
""",
    "sin and cos of the specials, traced": SPECIALS.format(seed=52) + """
f = tf.function(lambda v: (tf.sin(v), tf.cos(v)))
out = [each(tf.sin), each(tf.cos), [bits(t) for t in f(tf.constant(special))]]
""",
}
