"""Properties of the selection and padding ops (simdist/framework/ops/selection_ops.py,
pad_ops.py), eagerly and traced: ``boolean_mask`` keeps exactly the selected rows, in order;
``unique``'s ``y`` holds each value once, in order of first appearance, and ``y[idx]`` is the
input; ``slice`` of a ``pad`` at the paddings gives the input back."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import simdist as tf

ROWS = st.integers(0, 6)


@settings(max_examples=25, deadline=None)
@given(st.data(), ROWS, st.integers(1, 3))
def test_boolean_mask_keeps_exactly_the_selected_rows_in_order(data, n, width):
    x = data.draw(hnp.arrays(np.int32, (n, width), elements=st.integers(-9, 9)))
    mask = data.draw(hnp.arrays(np.bool_, (n,)))
    want = [row.tolist() for row, keep in zip(x, mask) if keep]
    assert tf.boolean_mask(x, mask).numpy().tolist() == (want or [])
    traced = tf.function(lambda a, m: tf.boolean_mask(a, m))
    assert traced(tf.constant(x), tf.constant(mask)).numpy().reshape(-1, width).tolist() == want


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.int64, st.integers(0, 12), elements=st.integers(-3, 3)))
def test_unique_holds_each_value_once_and_idx_rebuilds_the_input(x):
    for y, idx in (tf.unique(x, out_idx=tf.int64),
                   tf.function(lambda a: tf.unique(a))(tf.constant(x))):
        y, idx = y.numpy(), idx.numpy()
        assert y.tolist() == list(dict.fromkeys(x.tolist()))   # first appearances, in order
        assert y[idx].tolist() == x.tolist()


@settings(max_examples=25, deadline=None)
@given(st.data(), st.lists(st.integers(1, 4), min_size=1, max_size=3),
       st.sampled_from(["CONSTANT", "REFLECT", "SYMMETRIC"]))
def test_slice_of_a_pad_gives_the_input_back(data, dims, mode):
    x = data.draw(hnp.arrays(np.float32, tuple(dims), elements=st.floats(-5, 5, width=32)))
    most = {"CONSTANT": 3, "REFLECT": None, "SYMMETRIC": None}[mode]
    paddings = [[data.draw(st.integers(0, most if most is not None else
                                       d - 1 if mode == "REFLECT" else d)) for _ in range(2)]
                for d in dims]
    padded = tf.pad(x, paddings, mode)
    assert list(padded.shape) == [d + a + b for d, (a, b) in zip(dims, paddings)]
    back = tf.slice(padded, [a for a, _ in paddings], dims)
    np.testing.assert_array_equal(back.numpy(), x)
