"""Keras's use of TF's fused batch normalization kernel (FusedBatchNormV3 on a CPU,
simdist/framework/ops/fused_batch_norm_ops.py), and its moving averages as simdist ops.

Glossary:
  rest       -- the values of each feature: the input seen as (rest, depth) with the
                feature axis last (TF transposes NCHW / NCDHW input to it first).
  train      -- the kernel with the batch's statistics: its output, the batch mean and
                the biased variance (their gradient: FusedBatchNormGradV3's formula).
  normalize  -- the kernel in inference, with the moving statistics (its gradient: the
                freeze gradient). A layer without gamma or beta passes ones / zeros, and
                channels-first input takes data_format NCHW / NCDHW, as Keras's call.
  moving     -- training with Keras's fused average update (``f = 1 - momentum``, a float32
                attribute): the kernel returns ``(1 - f) * moving_mean + f * mean`` and
                ``(1 - f) * moving_variance + (f * n / (n - 1)) * var`` (``f`` 1: the
                batch's ``mean`` and ``var * n / (n - 1)``), which Keras assigns (its
                Bessel's correction of them is for its own tests only). Every factor is
                float32 arithmetic, as TF's.

Mirrors tensorflow/core/kernels/fused_batch_norm_op.cc (``FusedBatchNorm<CPUDevice>``) and
tf_keras/src/layers/normalization/batch_normalization.py (``_fused_batch_norm``).
"""

from __future__ import annotations

import math

import numpy as np

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import fused_batch_norm_ops
from simdist.framework.ops import math_ops as M

_F = np.float32


def _rest_size(x, axis):
    """``n``, the values per feature, as a float32 tensor (computed at each execution when
    traced with an unknown dimension)."""
    if None not in tuple(x.shape):
        return A.constant(_F(math.prod(x.shape) // x.shape[axis]))
    return A.cast(M.floordiv(A.size(x), A.shape(x)[axis]), "float32")


def _data_format(x, axis) -> str:
    """TF's data_format of Keras's call: channels first for feature axis 1."""
    return ("NC" if axis == 1 else "N") + "DHW"[5 - x.ndim:] + ("" if axis == 1 else "C")


def _param(v, depth, fill):
    """gamma or beta, or Keras's constant in place of a missing one."""
    return v if v is not None else A.constant(np.full(depth, fill, _F))


def train(x, axis, gamma, beta, epsilon):
    """The kernel in training: its output and the batch mean and biased variance of each
    feature of ``x`` (float32), feature axis ``axis`` (their gradients are
    FusedBatchNormGradV3's)."""
    depth = x.shape[axis]
    return fused_batch_norm_ops.fused_batch_norm_v3(
        x, _param(gamma, depth, 1), _param(beta, depth, 0), epsilon=epsilon,
        data_format=_data_format(x, axis), is_training=True)


def normalize(x, axis, mean, var, gamma, beta, epsilon):
    """The kernel in inference: ``x`` normalized with the given (depth,) statistics."""
    depth = x.shape[axis]
    return fused_batch_norm_ops.fused_batch_norm_v3(
        x, _param(gamma, depth, 1), _param(beta, depth, 0), mean, var, epsilon=epsilon,
        data_format=_data_format(x, axis), is_training=False)[0]


def moved(x, axis, moving_mean, moving_variance, mean, var, momentum):
    """The new moving mean and variance the kernel returns (see the glossary)."""
    n = _rest_size(x, axis)
    adjust = M.divide(n, M.maximum(M.subtract(n, A.constant(_F(1))), A.constant(_F(1))))
    f = _F(1.0 - momentum)
    if f == 1:
        return mean, M.multiply(var, adjust)
    kept, f = A.constant(_F(1) - f), A.constant(f)
    return (M.add(M.multiply(kept, moving_mean), M.multiply(f, mean)),
            M.add(M.multiply(kept, moving_variance), M.multiply(M.multiply(f, adjust), var)))
