"""The arithmetic of TF's fused batch normalization kernel (FusedBatchNormV3 on a CPU) and of
Keras's use of it, as simdist ops, in TF's order.

Glossary:
  rest       -- the values of each feature: the input seen as (rest, depth) with the
                feature axis last (TF transposes NCHW / NCDHW input to it first).
  statistics -- ``mean = sum(x) * (1 / n)`` and ``var = sum((x - mean)**2) * (1 / n)``
                over the rest (a multiplication by the float32 ``1 / n``, not a division;
                the sums in Eigen's column order, eigen_cpu.column_sum).
  normalize  -- ``(x - mean) * (rsqrt(var + epsilon) * gamma) + beta`` (the scaling factor
                made first, per feature); a layer without gamma or beta passes ones / zeros.
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
from simdist.framework.ops import math_ops as M

_F = np.float32


def _rest_size(x, axis):
    """``n``, the values per feature, as a float32 tensor (computed at each execution when
    traced with an unknown dimension)."""
    if None not in tuple(x.shape):
        return A.constant(_F(math.prod(x.shape) // x.shape[axis]))
    return A.cast(M.floordiv(A.size(x), A.shape(x)[axis]), "float32")


def statistics(x, axis):
    """The batch mean and biased variance of each feature of ``x`` (float32), feature axis
    ``axis``, as the kernel computes them."""
    if axis != x.ndim - 1:   # TF's kernel transposes to channels-last first
        x = A.transpose(x, [i for i in range(x.ndim) if i != axis] + [axis])
    leading = list(range(x.ndim - 1))
    inv = M.divide(A.constant(_F(1)), _rest_size(x, x.ndim - 1))
    mean = M.multiply(M.reduce_sum(x, axis=leading), inv)
    centered = M.subtract(x, mean)
    return mean, M.multiply(M.reduce_sum(M.square(centered), axis=leading), inv)


def normalize(x, axis, mean, var, gamma, beta, epsilon):
    """``(x - mean) * (rsqrt(var + epsilon) * gamma) + beta``, the (depth,) parameters along
    ``axis``."""
    factor = M.rsqrt(M.add(var, A.constant(epsilon, dtype=var.dtype)))
    factor = M.multiply(factor, gamma if gamma is not None else A.ones_like(factor))
    shift = beta if beta is not None else A.zeros_like(factor)
    if axis != x.ndim - 1:
        shape = [1] * x.ndim
        shape[axis] = -1
        mean, factor, shift = (A.reshape(t, shape) for t in (mean, factor, shift))
    return M.add(M.multiply(M.subtract(x, mean), factor), shift)


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
