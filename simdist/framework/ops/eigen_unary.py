"""TF's float32 Tanh, Sigmoid and Log on a CPU, as its Eigen computes them, in NumPy.

Glossary:
  tanh     -- Eigen's ``ptanh_float`` for every element (TF builds with EIGEN_FAST_MATH, so
              its scalar tail takes it too): ``x`` clamped to +-7.90738964 (the smallest
              argument where the approximation is exactly 1 without FMA), then the rational
              ``(x^3 p(x^2) + x) / q(x^2)`` with p of degree 3 and q of degree 4 (Horner,
              each multiply-add rounded twice). NumPy's tanh differs in 7 values in 10.
  sigmoid  -- Eigen's ``scalar_logistic_op<float>``: whole packets of 8 compute
              ``e = exp(x / 2)**2`` (Cephes' range reduction ``x/2 = m ln2 + r``, a degree-5
              polynomial, scaled by ``2**m``) for ``x`` up to 16.6355324, and ``e / (1 + e)``;
              0 below -104. The last ``size % 8`` elements take ``std::exp`` of ``min(x,
              16.6355324)`` and the same quotient. NumPy's formula differs in 45 in 100.
  log      -- Eigen's ``plog_float`` for whole packets of 8: ``x = m * 2**e`` (frexp; ``m``
              doubled below sqrt(1/2)), ``log(1 + (m - 1))`` as the rational
              ``(m - 1) p(m - 1) / q(m - 1)`` (degrees 2 and 3), plus ``e * ln 2``; 0 gives
              -inf, negatives and NaN the all-ones NaN (0xFFFFFFFF). The last ``size % 8``
              elements take ``logf`` (x86's default NaN 0xFFC00000 for negatives). NumPy's
              log differs in 4.5 values in 100.
  denormals -- TF runs its kernels with denormals read as zero and flushed to zero: a
              subnormal input is a signed zero, a subnormal result 0.
Bit-equal to TF 2.21's tf.tanh and tf.sigmoid on float32 (tests/framework/
eigen_activation_cases.py).

Mirrors Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h (``ptanh_float``,
``plog_impl_float``) and
Eigen/src/Core/functors/UnaryFunctors.h (``scalar_logistic_op<float>``) as
tensorflow/include/Eigen ships them, and tensorflow/core/kernels/cwise_ops.h (tanh, sigmoid,
log).
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops.eigen_cpu import (
    _C_HALF,
    _C_ONE,
    by_packets,
    cephes_exp,
    constant,
    daz,
    exp_tail,
    ftz,
    horner,
    ordinary,
    positive_normal,
    whole_packets,
)

_F = np.float32
_TANH_CLAMP = _F(7.90738964080810547)
_ALPHA = tuple(_F(c) for c in (1.394553628e-8, 2.102733560e-5, 3.520756727e-3, 1.340216100e-1))
_BETA = tuple(_F(c) for c in (8.015776984e-7, 3.326951409e-4, 2.597254514e-2, 4.673548340e-1,
                               1.0))
_EXP_HI, _EXP_LO = _F(16.6355324), _F(-104.0)
_LOG_P = tuple(_F(c) for c in (0.18256296349849254, 1.0000000190281063, 1.0000000190281136))
_LOG_Q = tuple(_F(c) for c in (0.049616247954120038, 0.59923249590823520, 1.4999999999999927,
                                1.0))


def tanh(a):
    """TF's float32 tanh of a float32 array (or NumPy float32 scalar)."""
    x = np.clip(daz(a), -_TANH_CLAMP, _TANH_CLAMP)
    x2 = x * x
    p, q = horner(_ALPHA, x2), horner(_BETA, x2)
    return ftz((x2 * x) * p + x) / q


def sigmoid(a):
    """TF's float32 sigmoid of a float32 array: whole packets, then the scalar tail."""
    return sigmoid_rows(np.reshape(a, (1, -1))).reshape(np.shape(a))


def sigmoid_rows(rows):
    """``sigmoid`` of each row of ``rows`` (n, size) as a tensor of its own (a stacked
    kernel's replicas: each row's last ``size % 8`` values take the scalar formula)."""
    with np.errstate(all="ignore"):
        if ordinary(rows):
            return whole_packets(_ordinary_logistic, _ordinary_logistic_tail, rows)
        return _sigmoid_rows(rows)


def _sigmoid_rows(rows):
    """``sigmoid_rows`` with every special case (any inputs; under errstate)."""
    return by_packets(_logistic_packets, _logistic_tail, daz(rows))


def _ordinary_logistic_tail(x):
    return _logistic_tail(daz(x))


def _logistic_tail(x):
    e = exp_tail(np.minimum(x, _EXP_HI))
    return ftz(e / (_F(1) + e))


def log(a):
    """TF's float32 natural log of a float32 array: whole packets, then ``logf``."""
    return log_rows(np.reshape(a, (1, -1))).reshape(np.shape(a))


def log_rows(rows):
    """``log`` of each row of ``rows`` (n, size) as a tensor of its own."""
    with np.errstate(all="ignore"):
        if positive_normal(rows):
            return whole_packets(ordinary_plog, _log_tail, rows)
        return _log_rows(rows)


def _log_rows(rows):
    """``log_rows`` with every special case (any inputs; under errstate)."""
    return by_packets(plog, _log_tail, daz(rows))


def _log_tail(x):
    return default_nan(np.log(x.astype(np.float64)).astype(_F), x)


_INVALID = np.array(0xFFFFFFFF, np.uint32).view(_F)   # all ones: Eigen's OR with a mask
_DEFAULT_NAN = np.array(0xFFC00000, np.uint32).view(_F)   # x86's NaN of an invalid op


def default_nan(result, *inputs):
    """``result`` with the NaNs that an invalid operation made from non-NaN ``inputs``
    (a C library's ``logf(-1)``, ``powf(-1.5, 0.5)``) as x86 makes them: 0xFFC00000."""
    made = np.isnan(result)
    for given in inputs:
        made &= ~np.isnan(given)
    return np.where(made, _DEFAULT_NAN, result)


def plog(given):
    """Eigen's packet log (``plog_float``) of a float32 array whose subnormals are zeros,
    every element as a packet's."""
    m, e = np.frexp(given)
    m, e = m.astype(_F), e.astype(_F)
    low = m < _F(0.707106781186547524)
    x = (m - _F(1)) + np.where(low, m, _F(0))
    e = e - np.where(low, _F(1), _F(0))
    x = (x * horner(_LOG_P, x)) / horner(_LOG_Q, x)
    x = e * _F(0.693147180559945309) + x
    if given.size and given.min() > 0 and given.max() < _F(np.inf):
        return x   # no infinity, negative, NaN or zero
    x = np.where(given == _F(np.inf), given, x)
    x = np.where((given < 0) | np.isnan(given), _INVALID, x)
    return np.where(given == 0, _F(-np.inf), x)


def ordinary_plog(given):
    """``plog`` of positive normal floats: its selections change nothing there."""
    m, e = np.frexp(given)
    low = (m < _C_SQRT_HALF).astype(_F)   # 1 where low, else 0
    # plog adds m where low, else +0 (m - 1 is never -0: m in [0.5, 1)), and takes 1 from e
    x = (m - _C_ONE) + m * low
    x = (x * horner(_C_LOG_P, x)) / horner(_C_LOG_Q, x)
    return (e.astype(_F) - low) * _C_LN2 + x


_C_SQRT_HALF, _C_LN2 = constant(0.707106781186547524), constant(0.693147180559945309)
_C_LOG_P, _C_LOG_Q = tuple(map(constant, _LOG_P)), tuple(map(constant, _LOG_Q))


def _logistic_packets(x):
    zero = x < _EXP_LO
    e = ftz(_half_exp(x))
    e = ftz(e * e)
    return np.where(zero, _F(0), ftz(e / (_F(1) + e)))


# inputs in eigen_cpu's ordinary [-80, 80]: exp(x / 2), its square and the quotient are
# normal floats (at least exp(-80) ~ 1.8e-35), none is below -104: the packets' flushes and
# zeros change nothing. A subnormal input gives 0.5, as its zero does (r's square is 0, p 1)


def _ordinary_logistic(x):
    """``_logistic_packets(daz(x))`` of values in [-80, 80]."""
    half = np.minimum(x, _C_EXP_HI) * _C_HALF
    e = cephes_exp(half, _half_exp_even, _half_exp_odd)   # m in [-58, 12]
    e = e * e
    return e / (e + _C_ONE)


_C_EXP_HI = constant(_EXP_HI)
_C_HALF_EXP = tuple(constant(c) for c in (4.1898667812347412109375e-2, 0.49999141693115234375,
                                           8.33471305668354034423828125e-3,
                                           0.16666877269744873046875))


def _half_exp_even(r2):
    return r2 * _C_HALF_EXP[0] + _C_HALF_EXP[1]


def _half_exp_odd(r2):
    return r2 * _C_HALF_EXP[2] + _C_HALF_EXP[3]


def _half_exp(x):
    """The packets' ``exp(min(x, 16.6355324) / 2)`` (Cephes' reduction), unflushed."""
    half = np.minimum(x, _EXP_HI) * _F(0.5)
    m = np.floor(half * _F(1.44269504088896341) + _F(0.5))
    r = m * _F(-0.693359375) + half
    r = m * _F(2.12194440e-4) + r
    r2 = r * r
    p_even = r2 * _F(4.1898667812347412109375e-2) + _F(0.49999141693115234375)
    p_odd = r2 * _F(8.33471305668354034423828125e-3) + _F(0.16666877269744873046875)
    p = r2 * (r * p_odd + p_even) + (r + _F(1))
    return np.ldexp(p, m.astype(np.int32)).astype(_F)
