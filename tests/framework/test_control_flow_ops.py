"""Properties of tf.cond, tf.while_loop, tf.case and tf.switch_case (eager): they agree with
the Python they stand for (TF's own results are replayed in test_control_flow_tf_conformance)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import simdist as tf


@given(st.integers(-20, 20), st.integers(1, 6), st.booleans())
def test_switch_case_is_indexing_with_tfs_out_of_range_rule(index, n, with_default):
    fns = [lambda k=k: tf.constant(k) for k in range(n)]
    default = (lambda: tf.constant(-1)) if with_default else None
    got = int(tf.switch_case(tf.constant(index), fns, default=default))
    if 0 <= index < n:
        assert got == index
    else:  # TF: default, else the branch with the largest key
        assert got == (-1 if with_default else n - 1)


@given(st.lists(st.booleans(), min_size=1, max_size=5), st.booleans())
def test_case_runs_the_first_true_predicate_only(preds, with_default):
    ran = []
    pairs = [(tf.constant(p), lambda k=k: ran.append(k) or tf.constant(k))
             for k, p in enumerate(preds)]
    default = (lambda: ran.append("default") or tf.constant(-1)) if with_default else None
    if not any(preds) and not with_default:
        try:
            tf.case(pairs)
        except tf.errors.InvalidArgumentError as e:
            assert "None of conditions evaluated as True" in str(e)
        else:
            raise AssertionError("tf.case without default and no true predicate must raise")
        return
    got = int(tf.case(pairs, default=default))
    first = preds.index(True) if any(preds) else -1
    assert got == first and ran == [first if first >= 0 else "default"]


@given(st.integers(0, 30), st.integers(1, 5), st.one_of(st.none(), st.integers(0, 40)))
def test_while_loop_is_the_python_loop(limit, step, maximum_iterations):
    i, total, n = 0, 0, 0
    while i < limit and (maximum_iterations is None or n < maximum_iterations):
        i, total, n = i + step, total + i, n + 1
    got = tf.while_loop(lambda i, t: i < limit, lambda i, t: (i + step, t + i),
                        (tf.constant(0), tf.constant(0)), maximum_iterations=maximum_iterations)
    assert isinstance(got, tuple) and [int(v) for v in got] == [i, total]


def test_while_loop_gradient_is_the_unrolled_products():
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        _, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, y * x), (0, x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 5 * 1.5 ** 4, rtol=1e-6)


def test_compat_v1_cond_unpacks_and_while_loop_unpacks_a_single_variable():
    v1 = tf.compat.v1
    assert int(v1.cond(tf.constant(True), lambda: [tf.constant(3)], lambda: [tf.constant(4)])) == 3
    assert isinstance(tf.cond(tf.constant(True), lambda: [1], lambda: [2]), list)
    assert int(v1.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])) == 3
    assert int(v1.cond(False, fn1=lambda: 1, fn2=lambda: 2)) == 2
