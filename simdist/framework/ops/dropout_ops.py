"""``tf.nn.dropout``: zero each value with probability ``rate``, scale the kept ones.

Glossary:
  keep mask   -- ``uniform(noise_shape, seed=seed) >= rate``: a stateful ``RandomUniform``
                 draw in x's dtype (so its numbers follow the op seed rules of tf.random).
  scale       -- kept values are ``x * (1 / (1 - rate))`` for a Python rate (the factor is
                 rounded to x's dtype first), ``x / (1 - rate)`` for a tensor rate.
  noise_shape -- the shape of the mask, broadcast over x; None entries take x's size.
  rate 0      -- returns x, but still takes an op seed (TF's dummy_rng_step), so the ops
                 after it see the same seeds as with a nonzero rate.

Mirrors _dropout and dropout_v2 in tensorflow/python/ops/nn_ops.py.
"""

from __future__ import annotations

import numbers

from simdist.framework import op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import random_ops as R
from simdist.framework.tensor import Tensor


def _noise_shape(x, noise_shape) -> list:
    if noise_shape is None:
        return list(x.shape)
    shape = [int(s) if s is not None else None for s in A._ints(noise_shape)] \
        if isinstance(noise_shape, Tensor) else list(noise_shape)
    return [x.shape[i] if s is None else int(s) for i, s in enumerate(shape)]


def dropout(x, rate, noise_shape=None, seed=None, name=None) -> Tensor:
    """``x`` with values zeroed with probability ``rate`` and the rest scaled by
    ``1 / (1 - rate)`` (``tf.nn.dropout``).

    Raises:
      ValueError: a Python ``rate`` outside [0, 1), a non-scalar rate, or a non-float x.
    """
    is_number = isinstance(rate, numbers.Real) and not isinstance(rate, bool)
    if is_number and not 0 <= rate < 1:
        raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    x = A._t(x)
    if not x.dtype.is_floating:
        raise ValueError("`x.dtype` must be a floating point tensor as `x` will be "
                         f"scaled. Received: x_dtype={x.dtype}")
    if is_number and rate == 0:
        R.get_seed(seed)
        return x
    return _dropout_impl(x, rate, is_number, noise_shape, seed)


def _dropout_impl(x, rate, is_number, noise_shape, seed) -> Tensor:
    if is_number:
        threshold = A.constant(rate, dtype=x.dtype)
        scaled = M.multiply(x, A.constant(1 / (1 - rate), dtype=x.dtype))
    elif isinstance(rate, Tensor) or hasattr(rate, "_as_tensor"):
        threshold = A._t(rate)
        if threshold.ndim != 0:
            raise ValueError(f"Shape {threshold.shape} must have rank 0")
        if threshold.dtype != x.dtype:
            threshold = A.cast(threshold, x.dtype)
        scaled = M.divide(x, M.subtract(A.constant(1, dtype=x.dtype), threshold))
    else:
        raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
    noise = R.uniform(_noise_shape(x, noise_shape), dtype=x.dtype, seed=seed)
    keep = M.greater_equal(noise, threshold)
    return A.where(keep, scaled, A.zeros_like(scaled))


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
