"""``tf.nn.moments``: the mean and variance of a tensor over axes, made of TF's ops.

Glossary:
  mean      -- ``reduce_mean(x, axes, keepdims=True)`` (TF's ``moments/mean``).
  variance  -- the biased one: ``reduce_mean(squared_difference(x, stop_gradient(mean)))``
               over the same axes (``moments/variance``); two passes, so the bits are those
               of TF's Mean and SquaredDifference kernels.
  keepdims  -- False squeezes the reduced axes away (``moments/Squeeze``).
  float16   -- computed in float32 and cast back, as TF does (its range is too small for
               the sums).
  shift     -- accepted and not used, as in TF.

Mirrors tensorflow/python/ops/nn_impl.py (moments, moments_v2).
"""

from __future__ import annotations

from simdist.framework import dispatch, dtypes
from simdist.framework.name_scope import name_scope
from simdist.framework.ops import array_ops, math_ops


def moments(x, axes, shift=None, keepdims=False, name=None):
    """The mean and (biased) variance of ``x`` over ``axes`` (``tf.nn.moments``)."""
    del shift   # TF's: not used in the current implementation
    # x as given (TF reads its dtype: a list has none, TF's AttributeError), its ops the
    # public ones: a KerasTensor makes each its own op layer, as in TF
    mean_of = dispatch.public(math_ops.reduce_mean, "reduce_mean")
    squeeze = dispatch.public(array_ops.squeeze, "squeeze")
    half = dtypes.as_dtype(x.dtype) == dtypes.float16
    with name_scope(name or "moments"):
        y = _cast(x, dtypes.float32) if half else x
        mean = mean_of(y, axes, keepdims=True, name="mean")
        difference = dispatch.public(math_ops.squared_difference, "math.squared_difference")
        variance = mean_of(difference(y, dispatch.public(array_ops.stop_gradient,
                                                         "stop_gradient")(mean)),
                           axes, keepdims=True, name="variance")
        if not keepdims:
            mean, variance = squeeze(mean, axes), squeeze(variance, axes)
        if half:
            return _cast(mean, dtypes.float16), _cast(variance, dtypes.float16)
        return mean, variance


def _cast(x, dtype):
    return dispatch.public(array_ops.cast, "cast")(x, dtype)
