"""TF's fused batch normalization kernels on a CPU (FusedBatchNormV3 and its gradient,
FusedBatchNormGradV3), float32 arithmetic in TF's order.

Glossary:
  rest x depth -- the input seen as (rest, depth), the feature axis last (the kernels
                  transpose NCHW / NCDHW input to it first, and the result back).
  training     -- FusedBatchNormV3 normalizes with the batch's statistics: ``mean =
                  sum(x) * (1 / n)``, ``var = sum((x - mean)**2) * (1 / n)`` (Eigen's
                  column order, eigen_cpu.column_sum), ``y = (x - mean) * (rsqrt(var +
                  epsilon) * scale) + offset``; it returns y, mean and var (TF's
                  reserve spaces, which its gradient reads).
  inference    -- the same normalization with the given mean and variance.
  gradient     -- FusedBatchNormGradV3 in training: ``coef0 = rsqrt(var + epsilon)``,
                  ``dscale = sum(dy * ((x - mean) * coef0))``, ``doffset = sum(dy)``,
                  ``dx = (scale * coef0) * ((dy - doffset * (1 / n)) - (x - mean) *
                  ((coef0 * coef0) * (sum(dy * (x - mean)) / n)))``; in inference (the
                  freeze gradient): ``dx = dy * (rsqrt(var + epsilon) * scale)``, ``dscale =
                  sum(dy * (x - mean)) * rsqrt(var + epsilon)``. Its sums are TF's redux
                  functor's (eigen_redux.outer_sum), not the forward's column order.
                  rsqrt is TF's Rsqrt of the (depth,) vector (packets, then the tail).

Mirrors tensorflow/core/kernels/fused_batch_norm_op.cc (FusedBatchNorm<CPUDevice>,
FusedBatchNormGrad<CPUDevice>, FusedBatchNormFreezeGrad<CPUDevice>) and the gradient rule
of tensorflow/python/ops/nn_grad.py (_BaseFusedBatchNormGrad).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import eigen_cpu, eigen_redux, eigen_rsqrt, op_types

_F = np.float32
_TYPES = ("float16", "bfloat16", "float32")


def _channel_axis(data_format, ndim) -> int:
    return 1 if str(data_format).startswith("NC") else ndim - 1


def _rest_by_depth(v, axis):
    """``v`` (a NumPy array) as float32 (rest, depth), the feature axis last."""
    return np.moveaxis(np.asarray(v, _F), axis, -1).reshape(-1, v.shape[axis])


def _back(rows, like, axis):
    """(rest, depth) ``rows`` in the shape and layout of ``like``."""
    moved = np.moveaxis(like, axis, -1).shape
    return np.moveaxis(rows.reshape(moved), -1, axis).astype(like.dtype, copy=False)


def _checked(op_type, x, *params):
    x = A._t(x)
    if x.dtype.name not in _TYPES:
        op_types.refuse_dtype(op_type, x, "half, bfloat16, float")
    return x, [A._t(p) for p in params]


def fused_batch_norm_v3(x, scale, offset, mean=None, variance=None, epsilon=1e-3,
                        data_format="NHWC", is_training=True, name=None):
    """FusedBatchNormV3's ``(y, batch_mean, batch_variance)`` (in inference: ``mean`` and
    ``variance`` as given; in training they may be left out), float32 statistics of
    float16 / bfloat16 ``x``."""
    given = [t for t in (mean, variance) if t is not None]
    x, params = _checked("FusedBatchNormV3", x, scale, offset, *given)
    s, o, m, v = (np.asarray(p._value, _F) for p in params + [params[0]] * (4 - len(params)))
    axis = _channel_axis(data_format, x.ndim)
    rows = _rest_by_depth(x._value, axis)
    eps = _F(epsilon)
    with np.errstate(all="ignore"):
        if is_training and rows.shape[0] == 0:
            m = v = np.full(rows.shape[1], np.nan, _F)   # TF's SetNanFunctor
        elif is_training:
            inv = _F(1) / _F(rows.shape[0])
            m = eigen_cpu.column_sum(rows) * inv
            centered = rows - m
            v = eigen_cpu.column_sum(centered * centered) * inv
        factor = eigen_rsqrt.rsqrt(v + eps) * s
        y = (rows - m) * factor + o
    attrs = {"epsilon": float(eps), "data_format": data_format, "is_training": is_training}
    return execute.execute_multi("FusedBatchNormV3", [x] + params,
                                 (_back(y, x._value, axis), m, v), attrs=attrs)


def fused_batch_norm_grad_v3(y_backprop, x, scale, mean, variance, epsilon=1e-3,
                             data_format="NHWC", is_training=True, name=None):
    """FusedBatchNormGradV3's ``(x_backprop, scale_backprop, offset_backprop)``: ``mean``
    and ``variance`` are the batch's (training) or the population's (inference)."""
    x, (dy, scale, mean, variance) = _checked("FusedBatchNormGradV3", x, y_backprop, scale,
                                              mean, variance)
    axis = _channel_axis(data_format, x.ndim)
    rows, d = _rest_by_depth(x._value, axis), _rest_by_depth(dy._value, axis)
    s, m, v = (np.asarray(p._value, _F) for p in (scale, mean, variance))
    with np.errstate(all="ignore"):
        coef0 = eigen_rsqrt.rsqrt(v + _F(epsilon))
        centered = rows - m
        offset_grad = eigen_redux.outer_sum(d)
        if is_training:
            scale_grad = eigen_redux.outer_sum(d * (centered * coef0))
            n = _F(rows.shape[0])
            centered_mean = eigen_redux.outer_sum(d * centered) / n
            dy_centered = d - offset_grad * (_F(1) / n)
            dx = (s * coef0) * (dy_centered - centered * ((coef0 * coef0) * centered_mean))
        else:
            scale_grad = eigen_redux.outer_sum(d * centered) * coef0
            dx = d * (coef0 * s)
    attrs = {"epsilon": float(epsilon), "data_format": data_format,
             "is_training": is_training}
    return execute.execute_multi("FusedBatchNormGradV3", [dy, x, scale, mean, variance],
                                 (_back(dx, dy._value, axis), scale_grad, offset_grad),
                                 attrs=attrs)


@execute.RegisterGradient("FusedBatchNormV3")
def _fused_batch_norm_grad(op, dy, *unused):
    # TF's rule: the batch statistics the forward returned in training, the population's
    # (its inputs) in inference; mean and variance get no gradient
    x, scale = op.inputs[0], op.inputs[1]
    training = op.attrs["is_training"]
    mean, variance = op.outputs[1:] if training else op.inputs[3:]
    dx, dscale, doffset = fused_batch_norm_grad_v3(
        dy, x, scale, mean, variance, op.attrs["epsilon"], op.attrs["data_format"],
        training)
    return (dx, dscale, doffset) + (None,) * (len(op.inputs) - 3)


# The ops, recorded as graph nodes while a tf.function traces (op_recording), as TF's
# FusedBatchNormV3 / FusedBatchNormGradV3.
fused_batch_norm_v3 = op_recording.recorded(fused_batch_norm_v3, name="FusedBatchNormV3")
fused_batch_norm_grad_v3 = op_recording.recorded(fused_batch_norm_grad_v3,
                                                 name="FusedBatchNormGradV3")
