"""Properties of tf.sort, tf.argsort and tf.math.top_k (simdist/framework/ops/sort_ops.py):
whatever the values, sort is NumPy's sort, argsort a permutation that orders them with
equal values in index order (both directions), top_k the k largest with the lower index
first among equals, and sort's gradient routes each output's gradient to its source."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf

ROWS = st.integers(1, 3).flatmap(lambda r: st.integers(1, 5).flatmap(
    lambda c: st.lists(st.lists(st.integers(-3, 3), min_size=c, max_size=c),
                       min_size=r, max_size=r)))


@settings(max_examples=25, deadline=None)
@given(ROWS, st.sampled_from(["ASCENDING", "DESCENDING"]), st.sampled_from([0, -1]))
def test_sort_and_argsort_order_stably(rows, direction, axis):
    x = np.array(rows, np.int32)
    order = tf.argsort(x, axis=axis, direction=direction).numpy()
    key = -x if direction == "DESCENDING" else x
    assert np.array_equal(order, np.argsort(key, axis=axis, kind="stable"))
    want = np.sort(x, axis=axis)
    if direction == "DESCENDING":
        want = np.flip(want, axis=axis)
    assert np.array_equal(tf.sort(x, axis=axis, direction=direction).numpy(), want)


@settings(max_examples=25, deadline=None)
@given(ROWS, st.integers(0, 5))
def test_top_k_is_the_k_largest_lower_index_first(rows, k):
    x = np.array(rows, np.float32)
    k = min(k, x.shape[-1])
    values, indices = tf.math.top_k(x, k)
    want = np.argsort(-x, axis=-1, kind="stable")[:, :k]
    assert np.array_equal(indices.numpy(), want)
    assert np.array_equal(values.numpy(), np.take_along_axis(x, want, axis=-1))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-5, 5, width=32), min_size=1, max_size=6, unique=True))
def test_sorts_gradient_goes_back_to_each_value(values):
    v = tf.Variable(np.array(values, np.float32))
    weights = np.arange(1, len(values) + 1, dtype=np.float32)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.sort(v) * weights)
    grad = tape.gradient(y, v).numpy()
    order = np.argsort(np.array(values, np.float32), kind="stable")
    want = np.zeros(len(values), np.float32)
    want[order] = weights
    assert np.array_equal(grad, want)
