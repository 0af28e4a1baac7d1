"""Python scalars converted once and kept (execute.constant_value's cache) give the
tensors a fresh conversion gives: the same dtype and bits (the sign of a zero too), and
the same errors and warnings every time."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework import execute

DTYPES = [None, "float32", "float64", "float16", "int32", "int64", "bool"]


def _fresh(value, dtype):
    """The conversion without the cache."""
    saved = dict(execute._scalars)
    execute._scalars.clear()
    try:
        limit, execute._SCALARS_KEPT = execute._SCALARS_KEPT, 0
        try:
            return tf.constant(value, dtype=dtype)
        finally:
            execute._SCALARS_KEPT = limit
    finally:
        execute._scalars.update(saved)


@settings(max_examples=60, deadline=None)
@given(value=st.one_of(st.integers(-2**31, 2**31 - 1), st.floats(allow_nan=True, width=32),
                       st.booleans()),
       dtype=st.sampled_from(DTYPES))
def test_a_kept_scalar_converts_as_a_fresh_one(value, dtype):
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            expected = _fresh(value, dtype)
        warned = [type(w.message) for w in seen]   # an overflow warns every time
    except (TypeError, ValueError) as e:
        for _ in range(2):   # kept or not, the same refusal each time
            with pytest.raises(type(e)):
                tf.constant(value, dtype=dtype)
        return
    for _ in range(2):   # the first call may keep it, the second reads it back
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = tf.constant(value, dtype=dtype)
        assert [type(w.message) for w in seen] == warned
        assert got.dtype == expected.dtype
        assert np.asarray(got.numpy()).tobytes() == np.asarray(expected.numpy()).tobytes()


def test_signed_zeros_and_nan_are_not_kept():
    assert np.signbit(tf.constant(-0.0).numpy()) and not np.signbit(tf.constant(0.0).numpy())
    assert np.signbit(tf.constant(-0.0).numpy())
    assert execute._scalar_key(0.0, None, True) is None
    assert execute._scalar_key(float("nan"), None, True) is None
    assert execute._scalar_key(1.5, "float32", True) is not None
