"""``tf.random.Generator`` programs whose numbers and states TF 2.21 recorded
(``record_tf_random.py``) and simdist replays bit for bit (``test_generator.py``).

Each program leaves the tensors to compare in ``out``; a generator's state is read with
``read_value()`` so the states after each draw are compared too. ``ERROR_CASES`` raise: the
exception's type and message are recorded. (An unknown algorithm number, ``alg=7``, is
left out: TF 2.21 raises an AttributeError from its own error path there, a TF bug; simdist
gives the ValueError TF means.)
"""

_STATE = "g.state.read_value()"

CASES = {
    "generator_from_seed": "g = tf.random.Generator.from_seed(1234)\n"
                           f"out = [{_STATE}, g.normal([2, 3]), {_STATE}, g.normal([5]), "
                           f"{_STATE}, g.normal([]), g.normal([0]), {_STATE}]",
    "generator_dtypes": "g = tf.random.Generator.from_seed(7)\n"
                        "out = [g.uniform([6], dtype=dt) for dt in\n"
                        "       (tf.float32, tf.float64, tf.float16, tf.bfloat16)]\n"
                        "out += [g.normal([5], dtype=tf.float64), g.normal([3], "
                        "dtype=tf.float16),\n"
                        "        g.truncated_normal([9], dtype=tf.float16), "
                        f"g.truncated_normal([33]), {_STATE}]",
    "generator_ranges": "g = tf.random.Generator.from_seed(5)\n"
                        "out = [g.uniform([4], 0, 10), g.uniform([4], -1.5, 3.0),\n"
                        "       g.uniform([7], minval=-5, maxval=100, dtype=tf.int32),\n"
                        "       g.uniform([3], minval=-2**40, maxval=2**41, dtype=tf.int64),\n"
                        "       g.uniform([5], minval=None, maxval=None, dtype=tf.int64),\n"
                        "       g.uniform_full_int([4]), g.uniform_full_int([4], "
                        "dtype=tf.int32),\n"
                        "       g.uniform_full_int([2], dtype=tf.uint32),\n"
                        "       g.normal([3], mean=2.0, stddev=0.5),\n"
                        "       g.truncated_normal([3], mean=-1.0, stddev=3.0), "
                        f"g.normal(tf.constant([2])), {_STATE}]",
    "generator_seeds_to_states": "out = [tf.random.create_rng_state(s, 'philox') for s in\n"
                                 "       (0, 1234, -1, 2**64 - 1, 2**70 + 3, 2**130 + 2**64 + 7,"
                                 "\n        [12, 34], [1, 2, 3, 4, 5], [5], [2**63, -3])]\n"
                                 "out += [tf.random.Generator.from_seed(s).normal([2]) for s in"
                                 "\n        (2**70 + 3, [1, 2, 3, 4], [-7])]",
    "generator_state_key_counter": "g = tf.random.Generator.from_state([1, 2, 3], 'philox')\n"
                                   f"out = [g.normal([3]), {_STATE}, g.key]\n"
                                   "h = tf.random.Generator.from_key_counter(5, [6, 7], "
                                   "'philox')\n"
                                   f"out += [h.uniform([2]), h.state.read_value()]\n"
                                   "h.reset_from_seed(9)\n"
                                   "out += [h.state.read_value(), h.normal([2])]\n"
                                   "h.reset([4, 5, 6])\n"
                                   "out += [h.normal([2])]\n"
                                   "h.reset_from_key_counter(8, [0, 1])\n"
                                   "out += [h.state.read_value(), h.skip(10), "
                                   "h.state.read_value(), h.normal([1])]",
    "generator_counter_carry": "g = tf.random.Generator.from_state([-1, 0, 9], 'philox')\n"
                               f"out = [g.normal([3]), {_STATE}]\n"
                               "g.reset([-2, -1, 4])\n"
                               f"out += [g.uniform([2]), {_STATE}]",
    "generator_split_make_seeds": "g = tf.random.Generator.from_seed(4)\n"
                                  "out = [g.make_seeds(3), g.make_seeds()]\n"
                                  "gens = g.split(2)\n"
                                  "out += [gens[0].state.read_value(), "
                                  "gens[1].state.read_value(),\n"
                                  f"        {_STATE}, gens[0].normal([2]), gens[1].normal([2])]\n"
                                  "c = tf.random.Generator(copy_from=g)\n"
                                  f"out += [c.normal([2]), g.normal([2]), {_STATE}]",
    "generator_variable_state": "v = tf.Variable([1, 2, 3], dtype=tf.int64)\n"
                                "g = tf.random.Generator(state=v, alg='philox')\n"
                                "out = [g.normal([1]), v.read_value()]",
    "generator_algorithms": "out = [tf.random.Generator.from_seed(1, alg=a).normal([2]) for a in"
                            "\n       ('philox', 'auto_select', tf.random.Algorithm.PHILOX, 1, 3)]"
                            "\nout.append(tf.random.Generator.from_seed(1, 'threefry')"
                            ".state.read_value())",
    "generator_global": "tf.random.get_global_generator().reset_from_seed(30)\n"
                        "out = [tf.random.get_global_generator().normal([2])]\n"
                        "tf.random.set_global_generator(tf.random.Generator.from_seed(4))\n"
                        "out += [tf.random.get_global_generator().uniform([3])]",
    "generator_in_function": "g = tf.random.Generator.from_seed(11)\n"
                             "@tf.function\n"
                             "def f(n):\n"
                             "    return g.normal([2]) + n, g.uniform([3], maxval=n)\n"
                             "out = [*f(1.0), *f(2.0), g.state.read_value(), *f(3.0),\n"
                             "       tf.constant(f.experimental_get_tracing_count())]",
    "generator_stateless_split_fold_in": "out = [tf.random.split([1, 2]), "
                                         "tf.random.split([1, 2], 3),\n"
                                         "       tf.random.split(tf.constant([3, 4], "
                                         "tf.int64), 2),\n"
                                         "       tf.random.fold_in([1, 2], 7), "
                                         "tf.random.fold_in([5, 6], tf.constant(2**40)),\n"
                                         "       tf.random.experimental.stateless_split("
                                         "[9, 9]),\n"
                                         "       tf.random.experimental.stateless_fold_in("
                                         "[9, 9], 1)]",
    # binomial: TF's StatefulRandomBinomial kernel (inversion below a mean of 10, BTRS above)
    "generator_binomial_inversion": (
        'g = tf.random.Generator.from_seed(234)\n'
        'out = [g.binomial([5], counts=10., probs=0.3), g.state.read_value()]'),
    "generator_binomial_doc_example": (
        'g = tf.random.Generator.from_seed(234)\n'
        'out = [g.binomial(shape=[2], counts=[10., 20.], probs=[0.8]), g.state.read_value()]'),
    "generator_binomial_btrs": (
        'g = tf.random.Generator.from_seed(7)\n'
        'out = [g.binomial([6, 3], counts=[100., 1000., 50.], probs=[0.3, 0.5, 0.9]),\n'
        '       g.state.read_value()]'),
    "generator_binomial_broadcast_batches": (
        'g = tf.random.Generator.from_seed(1717)\n'
        'c = np.arange(1, 7, dtype=np.float32).reshape(3, 1, 2) * 7\n'
        'p = np.linspace(0.05, 0.95, 8).astype(np.float32).reshape(1, 4, 2)\n'
        'out = [g.binomial([3, 3, 4, 2], counts=c, probs=p), g.state.read_value()]'),
    "generator_binomial_edges": (
        'g = tf.random.Generator.from_seed(3)\n'
        'out = [g.binomial([2, 6], counts=[0., 5., 5., 5., -1., 5.],\n'
        '                  probs=[0.5, 0., 1., 1.5, 0.5, -0.2]), g.state.read_value()]'),
    "generator_binomial_nan_prob": (
        'g = tf.random.Generator.from_seed(3)\n'
        "out = [g.binomial([3], counts=5., probs=float('nan'), dtype=tf.float32),\n"
        "       g.state.read_value()]"),
    "generator_binomial_output_dtypes": (
        'g = tf.random.Generator.from_seed(11)\n'
        'out = [g.binomial([4], counts=30., probs=0.4, dtype=d)\n'
        '       for d in (tf.int32, tf.int64, tf.float16, tf.float32, tf.float64)]\n'
        'out += [g.state.read_value()]'),
    "generator_binomial_float64_half_params": (
        'g = tf.random.Generator.from_seed(12)\n'
        'out = [g.binomial([4, 2], counts=tf.constant([3., 300.], tf.float64),\n'
        '                  probs=tf.constant([0.25, 0.01], tf.float64)),\n'
        '       g.binomial([4, 1], counts=tf.constant([40.], tf.float16),\n'
        '                  probs=tf.constant([0.7], tf.float16)), g.state.read_value()]'),
    "generator_binomial_many_samples": (
        'g = tf.random.Generator.from_seed(99)\n'
        'out = [g.binomial([500], counts=25., probs=0.37),\n'
        '       g.binomial([300, 2], counts=[4., 1e6], probs=[0.999, 0.0001]),\n'
        '       g.state.read_value()]'),
    "generator_binomial_in_function": (
        'g = tf.random.Generator.from_seed(5)\n'
        'f = tf.function(lambda: g.binomial([3], counts=8., probs=0.6))\n'
        'out = [f(), f(), g.state.read_value()]'),
}

# Under MirroredStrategy on two devices: a generator made in the scope has a mirrored state
# and a replica-hashed key; one made outside is shared by the replicas in turn.
STRATEGY_CASES = {
    "generator_mirrored": "s = tf.distribute.MirroredStrategy(DEVICES)\n"
                          "with s.scope():\n"
                          "    g = tf.random.Generator.from_seed(1)\n"
                          "r = s.run(lambda: g.normal([3]))\n"
                          "out = [*s.experimental_local_results(r),\n"
                          "       *(v.read_value() for v in "
                          "s.experimental_local_results(g.state))]\n"
                          "out += [g.normal([2]), g.skip(2),\n"
                          "        *(v.read_value() for v in "
                          "s.experimental_local_results(g.state))]",
    "generator_outside_strategy": "s = tf.distribute.MirroredStrategy(DEVICES)\n"
                                  "g = tf.random.Generator.from_seed(1)\n"
                                  "r = s.run(lambda: g.normal([3]))\n"
                                  "out = [*s.experimental_local_results(r), "
                                  "g.state.read_value()]",
    "generator_mirrored_in_function": "s = tf.distribute.MirroredStrategy(DEVICES)\n"
                                      "with s.scope():\n"
                                      "    g = tf.random.Generator.from_seed(3)\n"
                                      "@tf.function\n"
                                      "def step():\n"
                                      "    return s.run(lambda: g.uniform([2]))\n"
                                      "out = [*s.experimental_local_results(step()),\n"
                                      "       *s.experimental_local_results(step()),\n"
                                      "       *(v.read_value() for v in "
                                      "s.experimental_local_results(g.state))]",
}

ERROR_CASES = {
    "generator_int_needs_both_bounds": "tf.random.Generator.from_seed(3).uniform([3], "
                                       "dtype=tf.int32)",
    "generator_int_one_bound": "tf.random.Generator.from_seed(3).uniform([3], minval=1, "
                               "dtype=tf.int64)",
    "generator_normal_of_ints": "tf.random.Generator.from_seed(3).normal([3], dtype=tf.int32)",
    "generator_state_wrong_size": "tf.random.Generator.from_state([1, 2], 'philox')",
    "generator_unknown_alg": "tf.random.Generator.from_seed(1, alg='foo')",
    "generator_threefry_draw": "tf.random.Generator.from_seed(1, alg='threefry').normal([2])",
    "generator_created_each_call": "@tf.function\n"
                                   "def h():\n"
                                   "    return tf.random.Generator.from_seed(5).normal([2])\n"
                                   "h()\n"
                                   "h()",
    "generator_binomial_shape_must_end_with_batch": (
        'tf.random.Generator.from_seed(1).binomial([3, 2], counts=[1., 2., 3.], probs=0.5)'),
    "generator_binomial_mixed_param_dtypes": (
        'tf.random.Generator.from_seed(1).binomial([3], counts=tf.constant(5., tf.float64),\n'
        '                                          probs=0.5)'),
    "generator_binomial_incompatible_batch": (
        'tf.random.Generator.from_seed(1).binomial([2, 3], counts=[1., 2., 3.], probs=[0.5, 0.2])'),
    "generator_binomial_threefry": (
        "tf.random.Generator.from_seed(1, alg='threefry').binomial([3], counts=5., probs=0.5)"),
}
