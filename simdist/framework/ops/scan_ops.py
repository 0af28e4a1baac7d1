"""Cumulative sums, products and log-sum-exps along one axis (``tf.math.cumsum`` ...).

Glossary:
  scan       -- the running reduction along ``axis``: element i combines elements 0..i in
                order (TF's Eigen scan: one accumulator per line, added in sequence, so
                float32 sums are NumPy's ``cumsum``: the same sequence of roundings).
  exclusive  -- element i combines elements 0..i-1 only (the first is the identity: 0, 1,
                -inf).
  reverse    -- the scan runs from the end: TF reverses, scans and reverses back.
  axis       -- a Python int or a scalar int32/int64 tensor; TF's kernel checks it
                ("ScanOp: Expected scan axis in the range [-r, r), but got a").
Their gradient rules are in ``math_grad`` (TF's _CumsumGrad, _CumprodGrad,
_CumulativeLogsumexpGrad).

Mirrors tensorflow/python/ops/math_ops.py (cumsum, cumprod, cumulative_logsumexp) and
tensorflow/core/kernels/scan_ops.{h,cc}.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import errors, execute, op_recording
from simdist.framework.ops import op_types
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend

_FLOATS = "bfloat16, half, float, double"


def _axis(x: Tensor, axis, op_type: str) -> int:
    """``axis`` as an index into ``x``'s dimensions, checked as TF's ScanOp checks it.

    Raises:
      InvalidArgumentError: a non-scalar axis, or one out of range (TF's texts).
      TypeError: a float axis (TF cannot make it an int32 tensor).
    """
    if isinstance(axis, Tensor):
        value = backend.to_host(axis._value)
        if not axis.dtype.is_integer:
            raise TypeError(f"Value passed to parameter 'axis' has DataType {axis.dtype.name} "
                            "not in list of allowed values: int32, int64")
    elif isinstance(axis, (bool, float)) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
    else:
        value = np.asarray(axis)
    if np.ndim(value) != 0:
        raise errors.InvalidArgumentError(
            None, None, f"ScanOp: axis must be a scalar, not {list(np.shape(value))} "
                        f"[Op:{op_type}]")
    a, rank = int(value), x.ndim
    if not -rank <= a < rank:
        raise errors.InvalidArgumentError(
            None, None, f"ScanOp: Expected scan axis in the range [{-rank}, {rank}), but got "
                        f"{a} [Op:{op_type}]")
    return a % rank


def _scan(op_type, x, axis, exclusive, reverse, step, identity, allowed):
    """The scan ``step`` (a NumPy accumulate along an axis) of ``x``, TF's op ``op_type``."""
    xt = execute.convert_to_tensor(x)
    if not (xt.dtype.is_floating or xt.dtype.is_integer or xt.dtype.is_complex) or (
            allowed is _FLOATS and not xt.dtype.is_floating):
        op_types.refuse_dtype(op_type, xt, allowed)
    a = _axis(xt, axis, op_type)
    v = backend.to_host(xt._value)
    if reverse:
        v = np.flip(v, a)
    with np.errstate(all="ignore"):
        out = step(v, a)
    if exclusive:
        head = np.full_like(np.take(out, [0], axis=a), identity)
        out = np.concatenate([head, np.take(out, np.arange(v.shape[a] - 1), axis=a)], axis=a)
    if reverse:
        out = np.flip(out, a)
    return execute.execute(op_type, [xt], array_api.from_host(np.ascontiguousarray(out)),
                           attrs={"axis": a, "exclusive": bool(exclusive),
                                  "reverse": bool(reverse)})


def _sum_step(v, a):
    return np.cumsum(v, axis=a, dtype=v.dtype)


def _prod_step(v, a):
    return np.cumprod(v, axis=a, dtype=v.dtype)


def _logsumexp_step(v, a):
    """TF's LogSumExp reducer in sequence: ``log1p(exp(min - max)) + max`` (the max alone
    while it is -inf), each operation rounded to the element type."""
    dt = v.dtype
    lines = np.moveaxis(v, a, 0)
    out = np.empty_like(lines)
    if lines.shape[0]:
        acc = lines[0].copy()
        out[0] = acc
        for i in range(1, lines.shape[0]):
            lo, hi = np.minimum(acc, lines[i]), np.maximum(acc, lines[i])
            # exp and log1p in float64, rounded once: a correctly rounded float32 result
            e = np.exp((lo - hi).astype(np.float64)).astype(dt)
            acc = np.where(hi < np.finfo(dt).min, hi,
                           (np.log1p(e.astype(np.float64)).astype(dt) + hi).astype(dt))
            out[i] = acc
    return np.moveaxis(out, 0, a)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None) -> Tensor:
    """The cumulative sum of ``x`` along ``axis`` (``tf.math.cumsum``).

    Raises:
      InvalidArgumentError: a bool or string ``x``; a bad ``axis`` (TF's texts).
    """
    return _scan("Cumsum", x, axis, exclusive, reverse, _sum_step, 0, op_types._REDUCE)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None) -> Tensor:
    """The cumulative product of ``x`` along ``axis`` (``tf.math.cumprod``).

    Raises:
      InvalidArgumentError: a bool or string ``x``; a bad ``axis`` (TF's texts).
    """
    return _scan("Cumprod", x, axis, exclusive, reverse, _prod_step, 1, op_types._REDUCE)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None) -> Tensor:
    """``log(cumsum(exp(x)))`` along ``axis``, computed stably
    (``tf.math.cumulative_logsumexp``).

    Raises:
      InvalidArgumentError: a non-float ``x``; a bad ``axis`` (TF's texts).
    """
    return _scan("CumulativeLogsumexp", x, axis, exclusive, reverse, _logsumexp_step,
                 -np.inf, _FLOATS)


__all__ = ["cumsum", "cumprod", "cumulative_logsumexp"]


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
