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

# --- Keras: initializers (stateless ops keyed by [seed, 0]) and Dropout (stateful ops) ----
INITIALIZERS = ("GlorotUniform", "GlorotNormal", "HeNormal", "HeUniform", "LecunNormal",
                "LecunUniform", "RandomNormal", "RandomUniform", "TruncatedNormal")
for _name in INITIALIZERS:
    CASES[f"keras_{_name}_seeded"] = (
        f"init = tf.keras.initializers.{_name}(seed=17)\n"
        "out = [init(shape) for shape in ([3, 4], [64, 10], [3, 3, 2, 8], [7])]\n"
        f"out.append(tf.keras.initializers.{_name}(seed=18)([5, 5], dtype=tf.float64))")
# Orthogonal's QR is TF's float32 Eigen loops (eigen_householder_qr) where its smaller
# dimension is under 48: these shapes; tf.linalg.qr itself on draws, thin, full, batched.
CASES["keras_Orthogonal_seeded"] = (
    "init = tf.keras.initializers.Orthogonal(seed=17)\n"
    "out = [init(s) for s in ([3, 4], [64, 10], [10, 64], [3, 3, 2, 8], [47, 47], [130, 9])]\n"
    "out.append(tf.keras.initializers.Orthogonal(gain=2.5, seed=18)([20, 12]))")
CASES["keras_set_random_seed_recurrent"] = (
    "tf.keras.utils.set_random_seed(3)\n"
    "model = tf.keras.Sequential([tf.keras.layers.LSTM(16, return_sequences=True),\n"
    "                             tf.keras.layers.GRU(8, return_sequences=True),\n"
    "                             tf.keras.layers.SimpleRNN(5)])\n"
    "model.build((None, 3, 4))\n"
    "out = list(model.weights)")
CASES["linalg_qr_float32"] = (
    "a = tf.random.stateless_normal([2, 40, 10], [1, 2])\n"
    "b = tf.random.stateless_normal([9, 9], [3, 4])\n"
    "c = tf.random.stateless_normal([130, 3], [5, 6])\n"
    "out = [*tf.linalg.qr(a), *tf.linalg.qr(a, full_matrices=True), *tf.linalg.qr(b),\n"
    "       *tf.linalg.qr(c), *tf.linalg.qr(c[:, :1], full_matrices=True)]")
CASES.update({
    "keras_variance_scaling": "out = [tf.keras.initializers.VarianceScaling(\n"
                              "    2.0, mode, dist, seed=5)([6, 4]) for mode in\n"
                              "    ('fan_in', 'fan_out', 'fan_avg') for dist in\n"
                              "    ('truncated_normal', 'untruncated_normal', 'uniform')]",
    "keras_set_random_seed_model": "tf.keras.utils.set_random_seed(42)\n"
                                   "model = tf.keras.Sequential([\n"
                                   "    tf.keras.layers.Dense(16, activation='relu'),\n"
                                   "    tf.keras.layers.Dense(8, kernel_initializer='he_normal',"
                                   "\n        bias_initializer='random_normal'),\n"
                                   "    tf.keras.layers.Dense(1)])\n"
                                   "model.build((None, 5))\n"
                                   "out = list(model.weights)",
    "keras_set_random_seed_twice": "tf.keras.utils.set_random_seed(7)\n"
                                   "a = tf.keras.layers.Dense(3)\n"
                                   "a.build((None, 4))\n"
                                   "tf.keras.utils.set_random_seed(7)\n"
                                   "b = tf.keras.layers.Dense(3)\n"
                                   "b.build((None, 4))\n"
                                   "out = [a.kernel, b.kernel, tf.random.uniform([2])]",
    "keras_dropout_eager_unseeded": "tf.random.set_seed(5)\n"
                                    "layer = tf.keras.layers.Dropout(0.4)\n"
                                    "x = tf.ones([4, 6])\n"
                                    "out = [layer(x, training=True) for _ in range(3)]\n"
                                    "out.append(layer(x, training=False))",
    "keras_dropout_eager_seeded": "tf.random.set_seed(5)\n"
                                  "layer = tf.keras.layers.Dropout(0.3, seed=9)\n"
                                  "x = tf.ones([3, 5])\n"
                                  "out = [layer(x, training=True) for _ in range(3)]\n"
                                  "out.append(tf.nn.dropout(x, 0.5, seed=9))",
    "keras_dropout_noise_shape": "tf.random.set_seed(2)\n"
                                 "layer = tf.keras.layers.Dropout(0.5, noise_shape=[None, 1])\n"
                                 "out = [layer(tf.ones([4, 3]), training=True)]",
})

# --- seeded fits: Dropout in Keras's train_function (seeds fixed when traced, kernels that
# keep moving across steps; a last smaller batch retraces). Compared to float32 round-off,
# since the arithmetic (not the random numbers) may round differently from TF's kernels.
_FIT_MODEL = ("model = tf.keras.Sequential([\n"
              "    tf.keras.layers.Dense(16, activation='relu', input_shape=(5,)),\n"
              "    tf.keras.layers.Dropout(0.5{seed}),\n"
              "    tf.keras.layers.Dense(1)])\n"
              "model.compile(tf.keras.optimizers.SGD(0.05), 'mse')\n"
              "x = (np.arange({n} * 5, dtype='float32').reshape({n}, 5) % 7) / 7\n"
              "y = x.sum(axis=1, keepdims=True) - 1\n"
              "h = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)\n"
              "out = [tf.constant(h.history['loss'])] + list(model.weights)\n")
FIT_CASES = {
    "fit_dropout_unseeded": "tf.keras.utils.set_random_seed(3)\n"
                            + _FIT_MODEL.format(seed="", n=32),
    "fit_dropout_seeded_last_batch_smaller": "tf.keras.utils.set_random_seed(4)\n"
                                             + _FIT_MODEL.format(seed=", seed=11", n=36),
    "fit_then_train_on_batch": "tf.keras.utils.set_random_seed(5)\n"
                               + _FIT_MODEL.format(seed="", n=16)
                               + "out.append(tf.constant(model.train_on_batch(x[:8], y[:8])))\n"
                               "out.append(model.layers[1](tf.ones([2, 3]), training=True))",
}

# --- random ops in a tf.function: graph seeds, fixed when traced; a kernel per op ---------
CASES.update({
    "function_unseeded_ops": "tf.random.set_seed(21)\n"
                             "@tf.function\n"
                             "def bar():\n"
                             "    return tf.random.uniform([2]), tf.random.normal([3])\n"
                             "out = [*bar(), *bar(), tf.random.uniform([2])]",
    "function_op_seeds": "tf.random.set_seed(22)\n"
                         "@tf.function\n"
                         "def foo():\n"
                         "    return tf.random.uniform([2], seed=1), "
                         "tf.random.uniform([2], seed=1)\n"
                         "out = [*foo(), *foo(), tf.random.uniform([2], seed=1)]",
    "function_traced_before_set_seed": "tf.random.set_seed(23)\n"
                                       "@tf.function\n"
                                       "def baz(x):\n"
                                       "    return x + tf.random.truncated_normal([4])\n"
                                       "a = baz(tf.constant(1.0))\n"
                                       "tf.random.set_seed(24)\n"
                                       "out = [a, baz(tf.constant(1.0)), "
                                       "baz(tf.constant([1.0, 2.0, 3.0, 4.0]))]",
})

# --- a while loop's body (and a cond's branch) is a graph of its own: op seeds counted
# from 0 there, one kernel per op for every iteration and call (one iteration at a time: TF
# runs independent iterations' ops in parallel, in no fixed order); Keras's
# steps_per_execution loop (a partial last execution included) draws every step's dropout
# from that one kernel
CASES.update({
    "function_while_loop_ops": "tf.random.set_seed(25)\n"
                               "@tf.function\n"
                               "def loop(n):\n"
                               "    first = tf.random.uniform([2])\n"
                               "    def body(i, acc):\n"
                               "        return i + 1, acc.write(i, tf.random.uniform([2]))\n"
                               "    _, acc = tf.while_loop(lambda i, _: i < n, body,\n"
                               "                           (0, tf.TensorArray(tf.float32, n)),\n"
                               "                           parallel_iterations=1)\n"
                               "    return first, acc.stack(), tf.random.normal([2])\n"
                               "out = [*loop(tf.constant(3)), *loop(tf.constant(2))]",
})
CASES["function_cond_branch_ops"] = (
    "tf.random.set_seed(26)\n"
    "@tf.function\n"
    "def f(p):\n"
    "    a = tf.random.uniform([2])\n"
    "    b = tf.cond(p, lambda: tf.random.uniform([2]) + 10.,\n"
    "                lambda: tf.random.normal([2]) - 10.)\n"
    "    return a, b, tf.random.uniform([2])\n"
    "out = [t for p in (True, False, True, False) for t in f(tf.constant(p))]")
FIT_CASES["fit_dropout_steps_per_execution"] = (
    "tf.keras.utils.set_random_seed(9)\n"
    + _FIT_MODEL.format(seed="", n=40).replace("'mse')", "'mse', steps_per_execution=3)"))

# --- under MirroredStrategy on two devices (``DEVICES``: two logical CPUs in TF, two
# simulated GPUs in simdist). Eagerly each replica's device has its own kernels; initial
# values are drawn once and copied to every replica; in fit each replica's Dropout is its
# own op of the step function's graph (op seeds 0 and 1).
STRATEGY_CASES = {
    "mirrored_run_stateful": "s = tf.distribute.MirroredStrategy(DEVICES)\n"
                             "tf.random.set_seed(3)\n"
                             "a = s.run(lambda: tf.random.uniform([2], seed=3))\n"
                             "b = s.run(lambda: tf.random.uniform([2]))\n"
                             "out = [*s.experimental_local_results(a), "
                             "*s.experimental_local_results(b), tf.random.uniform([2], seed=3)]",
    "mirrored_initial_weights": "s = tf.distribute.MirroredStrategy(DEVICES)\n"
                                "tf.keras.utils.set_random_seed(42)\n"
                                "with s.scope():\n"
                                "    model = tf.keras.Sequential([\n"
                                "        tf.keras.layers.Dense(4, input_shape=(3,)),\n"
                                "        tf.keras.layers.Dense("
                                "2, kernel_initializer='he_normal')])\n"
                                "out = [v for w in model.weights "
                                "for v in s.experimental_local_results(w)]",
}
STRATEGY_FIT_CASES = {
    "mirrored_fit_dropout": "s = tf.distribute.MirroredStrategy(DEVICES)\n"
                            "tf.keras.utils.set_random_seed(6)\n"
                            "with s.scope():\n"
                            + "\n".join("    " + line for line in
                                        _FIT_MODEL.format(seed="", n=32).splitlines()[:5])
                            + "\n" + "\n".join(_FIT_MODEL.format(seed="", n=32)
                                               .splitlines()[5:]),
}
FIT_CASES["fit_shuffled"] = ("tf.keras.utils.set_random_seed(8)\n"
                             + _FIT_MODEL.format(seed="", n=36).replace("shuffle=False",
                                                                         "shuffle=True"))

# --- tf.data's shuffle: TF's ring buffer fed by Philox words; each new pass seeded from the
# dataset's seed generator
def _passes(ds, n=2):
    return f"[tf.constant([int(v) for v in {ds}]) for _ in range({n})]"


CASES.update({
    "dataset_shuffle_small_buffer": "tf.random.set_seed(31)\n"
                                    "ds = tf.data.Dataset.range(20).shuffle(5)\n"
                                    "out = " + _passes("ds"),
    "dataset_shuffle_full_buffer": "tf.random.set_seed(32)\n"
                                   "ds = tf.data.Dataset.range(12).shuffle(100, seed=4)\n"
                                   "out = " + _passes("ds"),
    "dataset_shuffle_fixed": "tf.random.set_seed(33)\n"
                             "ds = tf.data.Dataset.range(9).shuffle(\n"
                             "    4, reshuffle_each_iteration=False)\n"
                             "out = " + _passes("ds"),
    "dataset_shuffle_repeat_batch": "tf.random.set_seed(34)\n"
                                    "ds = tf.data.Dataset.range(7).shuffle(7).repeat(2)"
                                    ".batch(3)\n"
                                    "out = [tf.concat(list(ds), 0), tf.random.uniform([2])]",
    "dataset_shuffle_after_random_ops": "tf.random.set_seed(35)\n"
                                        "x = tf.random.normal([6])\n"
                                        "ds = tf.data.Dataset.from_tensor_slices(x)"
                                        ".shuffle(6)\n"
                                        "out = [x, tf.stack(list(ds)), tf.random.normal([2])]",
})
