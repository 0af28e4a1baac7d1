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

from simdist.framework import dtypes
from simdist.framework.name_scope import name_scope
from simdist.framework.ops import array_ops, math_ops


def moments(x, axes, shift=None, keepdims=False, name=None):
    """The mean and (biased) variance of ``x`` over ``axes`` (``tf.nn.moments``)."""
    del shift   # TF's: not used in the current implementation
    x = array_ops.convert_to_tensor(x)
    with name_scope(name or "moments"):
        y = array_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = math_ops.reduce_mean(
            math_ops.squared_difference(y, array_ops.stop_gradient(mean)), axes,
            keepdims=True, name="variance")
        if not keepdims:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return (array_ops.cast(mean, dtypes.float16),
                    array_ops.cast(variance, dtypes.float16))
        return mean, variance
