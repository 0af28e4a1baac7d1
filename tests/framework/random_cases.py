"""Programs whose random numbers TF 2.21 recorded (``record_tf_random.py``) and simdist
replays bit for bit (``test_random_streams.py``).

Each case is a program run with ``tf`` bound to TensorFlow or simdist; it leaves the
tensors to compare in ``out`` (a list). Stateful cases start with ``tf.random.set_seed``
(which also restarts TF's kernels), so their order does not matter.
"""

SHAPES = ([], [1], [3], [5], [2, 3], [7, 9], [1000])
FLOATS = ("float32", "float64", "float16", "bfloat16")
SEEDS = ([1, 2], [0, 0], [-1, 5], [123456789, -987654321])

CASES = {}
for _i, _seed in enumerate(SEEDS):
    for _dt in FLOATS:
        for _fn in ("uniform", "normal", "truncated_normal"):
            CASES[f"stateless_{_fn}_{_dt}_{_i}"] = (
                f"out = [tf.random.stateless_{_fn}(shape, {_seed}, dtype=tf.{_dt})"
                f" for shape in {list(SHAPES)}]")
CASES.update({
    "stateless_uniform_range": "out = [tf.random.stateless_uniform([4, 5], [3, 4], "
                               "minval=-2.0, maxval=3.0)]",
    "stateless_normal_mean_std": "out = [tf.random.stateless_normal([9], [3, 4], mean=1.5, "
                                 "stddev=0.3, dtype=tf.float64)]",
    "stateless_truncated_mean_std": "out = [tf.random.stateless_truncated_normal([33], [5, 6],"
                                    " mean=-1.0, stddev=2.0)]",
    "stateless_int32_range": "out = [tf.random.stateless_uniform([17], [7, 8], minval=-5, "
                             "maxval=1000, dtype=tf.int32)]",
    "stateless_int64_range": "out = [tf.random.stateless_uniform([9], [7, 8], minval=-2**40, "
                             "maxval=2**41, dtype=tf.int64)]",
    "stateless_full_int": "out = [tf.random.stateless_uniform([7], [9, 9], minval=None, "
                          "maxval=None, dtype=dt) for dt in (tf.int32, tf.int64)]",
    "stateless_int64_seed": "out = [tf.random.stateless_normal([6], tf.constant([2**40, -3], "
                            "tf.int64))]",
    "stateless_philox_alg": "out = [tf.random.stateless_uniform([6], [1, 2], alg='philox')]",
    # stateful ops: op seeds from random.Random(global seed), kernels that move on
    "stateful_global_seed": "tf.random.set_seed(1234)\n"
                            "out = [tf.random.uniform([3]), tf.random.normal([2, 2]),\n"
                            "       tf.random.truncated_normal([5]), tf.random.uniform([3])]",
    "stateful_op_seed_repeats": "tf.random.set_seed(7)\n"
                                "out = [tf.random.uniform([2], seed=1) for _ in range(3)]\n"
                                "out += [tf.random.normal([2], seed=1), "
                                "tf.random.uniform([5], seed=1)]",
    "stateful_dtypes": "tf.random.set_seed(99)\n"
                       "out = [tf.random.uniform([6], dtype=dt, seed=3) for dt in "
                       "(tf.float32, tf.float64, tf.float16, tf.bfloat16)]\n"
                       "out += [tf.random.normal([5], dtype=tf.float64, seed=3), "
                       "tf.random.truncated_normal([5], dtype=tf.float16, seed=3)]",
    "stateful_ranges": "tf.random.set_seed(5)\n"
                       "out = [tf.random.uniform([4], 0, 10), tf.random.uniform([4], 1, 3),\n"
                       "       tf.random.uniform([4], 0.0, 2.0), tf.random.uniform([4], -1.5, 0.5),"
                       "\n       tf.random.uniform([8], 0, 10, dtype=tf.int32),\n"
                       "       tf.random.uniform([8], -3, 2**40, dtype=tf.int64),\n"
                       "       tf.random.normal([3], 2.0, 0.5), "
                       "tf.random.truncated_normal([3], -1.0, 3.0)]",
    "stateful_seed_zero": "tf.random.set_seed(0)\n"
                          "out = [tf.random.uniform([3], seed=0), tf.random.uniform([3])]",
    "stateful_large_seeds": "tf.random.set_seed(2**40 + 5)\n"
                            "out = [tf.random.uniform([3], seed=2**35 + 1), "
                            "tf.random.uniform([3])]",
    "stateful_op_seed_only": "tf.random.set_seed(None)\n"
                             "out = [tf.random.uniform([3], seed=5), "
                             "tf.random.uniform([3], seed=5)]",
    "shuffle": "tf.random.set_seed(11)\n"
               "out = [tf.random.shuffle(tf.range(10)), tf.random.shuffle(tf.range(10)),\n"
               "       tf.random.shuffle(tf.reshape(tf.range(12), [6, 2]), seed=4),\n"
               "       tf.random.shuffle(tf.range(3), seed=4), tf.random.uniform([2], seed=4)]",
    "set_seed_restarts": "tf.random.set_seed(3)\n"
                         "a = tf.random.uniform([2], seed=1)\n"
                         "tf.random.set_seed(3)\n"
                         "out = [a, tf.random.uniform([2], seed=1), tf.random.uniform([2])]",
})
