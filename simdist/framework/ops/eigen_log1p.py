"""TF's float32 Log1p, Expm1 and Softplus on a CPU, as its Eigen computes them, in NumPy.

Glossary:
  log1p    -- Eigen's ``generic_log1p`` for whole packets of 8: ``u = x + 1``, then ``x``
              where ``u == 1`` or where ``log(u) == u`` (``u`` infinite), else ``x *
              (plog(u) / (u - 1))``. The last ``size % 8`` elements take ``log1pf``.
  expm1    -- Eigen's ``generic_expm1`` (Kahan's formula) for whole packets: ``u =
              pexp(x)``; ``x`` where ``u == 1``, -1 where ``u - 1 == -1``, ``u`` where
              ``log(u) == u`` (overflow), else ``(u - 1) * (x / plog(u))``. The tail takes
              ``expm1f``.
  softplus -- TF's Softplus functor (softplus_op.h): ``x`` above ``-t``, ``exp(x)`` below
              ``t``, else ``log1p(exp(x))``, with ``t = logf(2**-23) + 2`` (-13.942385);
              one Eigen expression, so whole packets take ``pexp`` and the packet log1p
              above, the tail the C library's ``expf`` and ``log1pf``.
  tail     -- the C library's float32 functions, as TF's scalar path calls them: NumPy's
              float32 log1p and expm1 are glibc's log1pf / expm1f (not correctly rounded:
              float64's rounded differ in 5 values in 100), expf is called through ctypes
              (NumPy's own SIMD exp is another).
  denormals -- subnormal inputs are zeros in the arithmetic (TF's kernels run with
              denormals flushed), but a value selected as it was keeps its bits: a packet's
              expm1 of a subnormal is that subnormal, the tail's log1pf returns it too,
              while the packet log1p and the tail's expm1f give a signed zero. A NaN comes
              back as itself, quieted.
Bit-equal to TF 2.21 on 80,000 values each and on the recorded specials
(tests/framework/eigen_log1p_cases.py).

Mirrors Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h (``generic_log1p``,
``generic_expm1``) and tensorflow/core/kernels/softplus_op.h as TF 2.21 ships them.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops.eigen_cpu import (
    _C_ONE,
    daz,
    elementwise,
    exp_tail,
    pexp,
    positive_normal,
    quiet_nans,
    whole_packets,
)
from simdist.framework.ops.eigen_unary import ordinary_plog, plog

_F = np.float32
_ONE = _F(1)
# softplus_op.h's threshold: numext::log(epsilon) + 2 in float32
_SOFTPLUS_T = _F(np.log(np.float64(np.finfo(_F).eps)).astype(_F) + _F(2))


def _rows(packets, tail):
    """``elementwise`` of ``packets`` (a NaN coming back as itself) and ``tail``."""
    return elementwise(lambda r: quiet_nans(r, packets(r)), tail)


def plog1p(given):
    """Eigen's packet log1p of a float32 array, every element as a packet's."""
    x = daz(given)
    u = x + _ONE
    log_u = plog(u)
    keep = (u == _ONE) | (u == log_u)
    return np.where(keep, x, x * (log_u / (u - _ONE)))


def pexpm1(given):
    """Eigen's packet expm1 of a float32 array, every element as a packet's."""
    x = daz(given)
    u = pexp(x)
    u_minus_one = u - _ONE
    log_u = plog(u)
    out = np.where(log_u == u, u, u_minus_one * (x / log_u))
    out = np.where(u_minus_one == -_ONE, -_ONE, out)
    return np.where(u == _ONE, given, out)


def _softplus_with(exp, log1p):
    def fn(given):
        x = daz(given)
        e = exp(x)
        small = np.where(x < _SOFTPLUS_T, e, log1p(e))
        return np.where(x > -_SOFTPLUS_T, given, small)
    return fn


_log1p_rows = _rows(plog1p, np.log1p)[1]
expm1 = _rows(pexpm1, lambda t: np.expm1(daz(t)))[0]
softplus, softplus_rows = _rows(_softplus_with(pexp, plog1p),
                                _softplus_with(exp_tail, np.log1p))


def log1p(a):
    """TF's float32 log1p of a float32 array: ``log1p_rows`` of it as one row."""
    return log1p_rows(np.reshape(np.asarray(a, _F), (1, -1))).reshape(np.shape(a))


def log1p_rows(rows):
    """``log1p`` of each row of ``rows`` (n, size) as a tensor of its own."""
    if positive_normal(rows):
        with np.errstate(all="ignore"):
            return whole_packets(_ordinary_log1p, np.log1p, rows)
    return _log1p_rows(rows)


def _ordinary_log1p(x):
    """``plog1p`` of positive normal floats below 2**100 (no NaN to quiet): none is read as
    zero, ``u`` is finite, at least 1 (``log(u) < u``), 1 only where ``x`` is kept."""
    u = x + _C_ONE
    out = x * (ordinary_plog(u) / (u - _C_ONE))
    np.copyto(out, x, where=u == _C_ONE)
    return out
