"""Properties of tf.debugging's assertions (simdist/framework/ops/assert_ops.py): whatever
the inputs, an element-wise assert raises InvalidArgumentError exactly when NumPy's
comparison fails somewhere, eagerly and at a tf.function's execution, and returns None
otherwise; the static ones (rank, type, scalar) raise exactly on a wrong static shape or dtype."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf

PAIRS = st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-3, 3), min_size=n, max_size=n),
    st.lists(st.integers(-3, 3), min_size=n, max_size=n)))

BINARY = [(tf.debugging.assert_equal, np.equal), (tf.debugging.assert_none_equal, np.not_equal),
          (tf.debugging.assert_less, np.less), (tf.debugging.assert_less_equal, np.less_equal),
          (tf.debugging.assert_greater, np.greater),
          (tf.debugging.assert_greater_equal, np.greater_equal)]
UNARY = [(tf.debugging.assert_positive, lambda v: v > 0),
         (tf.debugging.assert_negative, lambda v: v < 0),
         (tf.debugging.assert_non_negative, lambda v: v >= 0),
         (tf.debugging.assert_non_positive, lambda v: v <= 0)]


def _raises(fn, *args) -> bool:
    try:
        assert fn(*args) is None
    except tf.errors.InvalidArgumentError:
        return True
    return False


@settings(max_examples=20, deadline=None)
@given(PAIRS)
def test_a_binary_assert_raises_exactly_when_numpy_says_it_fails(pair):
    x, y = (np.array(v, np.int32) for v in pair)
    for check, holds in BINARY:
        assert _raises(check, tf.constant(x), tf.constant(y)) == (
            not holds(x, y).all()), check.__name__


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=4))
def test_a_unary_assert_raises_exactly_when_numpy_says_it_fails(values):
    x = np.array(values, np.float32)
    for check, holds in UNARY:
        assert _raises(check, tf.constant(x)) == (not holds(x).all()), check.__name__


@settings(max_examples=10, deadline=None)
@given(PAIRS)
def test_a_traced_assert_checks_at_every_execution(pair):
    x, y = (np.array(v, np.int32) for v in pair)

    @tf.function
    def step(a, b):
        tf.debugging.assert_less_equal(a, b)
        return a - b

    def ran(a, b):   # the step's result, or the error it raised
        try:
            return step(tf.constant(a), tf.constant(b)).numpy().tolist()
        except tf.errors.InvalidArgumentError:
            return "raised"

    assert ran(x, y) == ("raised" if not (x <= y).all() else (x - y).tolist())
    assert ran(y, x) == ("raised" if not (y <= x).all() else (y - x).tolist())
    assert step.experimental_get_tracing_count() == 1


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-2, 2, width=32), min_size=1, max_size=4), st.floats(0, 0.5))
def test_assert_near_raises_exactly_outside_the_tolerance(values, shift):
    x = np.array(values, np.float32)
    y = (x + np.float32(shift)).astype(np.float32)
    tol = np.float32(0.1) + np.float32(0.1) * np.abs(y)
    near = (np.abs(x - y) < tol).all()
    assert _raises(lambda: tf.debugging.assert_near(tf.constant(x), tf.constant(y), rtol=0.1,
                                                    atol=0.1)) == (not near)


def test_static_asserts_read_the_static_shape_and_dtype():
    x = tf.constant([1, 2])
    assert tf.debugging.assert_rank(x, 1) is None
    assert tf.debugging.assert_type(x, tf.int32) is None
    assert tf.debugging.assert_scalar(tf.constant(1.0)) is None
    with pytest.raises(ValueError, match="must have rank 2"):
        tf.debugging.assert_rank(x, 2)
    with pytest.raises(TypeError, match="must be of type tf.float32"):
        tf.debugging.assert_type(x, tf.float32)
    with pytest.raises(ValueError, match="Expected scalar shape"):
        tf.debugging.assert_scalar(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor had NaN values"):
        tf.debugging.assert_all_finite(tf.constant([np.nan]), "m")
    assert tf.assert_equal(tf.constant([1, 2]), [1, 2]) is None   # the same check at top level
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        tf.assert_equal(tf.constant([1, 2]), [1, 3])
