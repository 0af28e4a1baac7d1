"""TF's float32 Pow on a CPU, as Eigen's ``generic_pow`` computes it (TF 2.21's Eigen), in NumPy.

Glossary:
  double word -- a value carried as an unevaluated sum ``hi + lo`` of two float32s:
                 ``twoprod`` (Dekker's exact product, by Veltkamp's splitting: TF's x86
                 build has no FMA), ``fast_twosum`` (Knuth's exact sum when ``|x| >= |y|``).
  log2        -- ``x = m * 2**e`` with ``m`` in ``[1/sqrt(2), sqrt(2))`` (frexp, then one
                 doubling); ``log2(m)`` as a double word: a degree-8 polynomial in ``m - 1``
                 in float32 (Horner, each multiply-add rounded twice), its last two Horner
                 steps and the final product by ``m - 1`` in double words.
  exp2        -- ``f = y * log2(x) = n + r`` (``n`` an integer: round half away from zero,
                 as AVX's ``pround``; ``r`` in [-0.5, 0.5]); ``2**r = exp(hi) * (1 + lo)``
                 with ``ln2 * r = hi + lo`` and Eigen's float32 ``pexp`` (eigen_cpu), then
                 scaled by ``2**n`` (exact unless it leaves the normal range, where TF's
                 flush-to-zero gives 0).
  specials    -- zeros, infinities, NaNs, negative bases, ``y == 1``, ``|y|`` huge: the
                 order of Eigen's selections (cppreference's pow), subnormal inputs read as
                 0 (TF's denormals-are-zero), except ``pow(x, 1)``, which returns ``x``.
  packets     -- only whole packets of 8 (of the broadcast output, in order) take this path;
                 the last ``size % 8`` values take the C library's ``powf`` (NumPy's; an
                 invalid one's NaN is x86's 0xFFC00000).
Bit-equal to TF's tf.pow on float32 (tests/framework/eigen_pow_cases.py), where NumPy's
correctly rounded powf differs in about one value in four.

Mirrors Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h (``generic_pow``,
``generic_pow_impl``, ``accurate_log2<float>``, ``generic_exp2``, ``twoprod``,
``fast_twosum``) as tensorflow/include/Eigen ships it.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import eigen_cpu, eigen_unary

_F = np.float32
_ONE, _ZERO, _INF, _NAN = _F(1), _F(0), _F(np.inf), _F(np.nan)
_LN2 = _F(0.693147180559945309417232121458)
_HUGE = _F((128 * _LN2) / np.finfo(_F).eps)   # |y| from which (1 + eps)**y overflows
_PREV_HALF = _F(0.49999997)                    # pround's 0x3EFFFFFF
_K0, _K1 = 1.442695041742110273474963832995854318141937255859375, \
    -7.2134751588268664068692714863573201000690460205078125e-01
_C0 = (_F(_K0), _F(_K0 - float(_F(_K0))))
_C1 = (_F(_K1), _F(_K1 - float(_F(_K1))))
_POLY = tuple(_F(c) for c in (
    9.7010828554630279541015625e-02, -1.6896486282348632812500000e-01,
    1.7200836539268493652343750e-01, -1.7892272770404815673828125e-01,
    2.0505344867706298828125000e-01, -2.4046677350997924804687500e-01,
    2.8857553005218505859375000e-01, -3.6067414283752441406250000e-01,
    4.8089790344238281250000000e-01))


def pow(x, y):  # noqa: A001 - TF's name
    """TF's float32 ``x ** y`` of two float32 arrays (broadcast): whole packets by
    ``generic_pow``, the tail by ``powf``."""
    x, y = np.broadcast_arrays(np.asarray(x, _F), np.asarray(y, _F))
    with np.errstate(all="ignore"):
        out = eigen_cpu.by_packets(generic_pow, _powf, x.reshape(1, -1), y.reshape(1, -1))
    return out.reshape(x.shape)


def _powf(x, y):
    return eigen_unary.default_nan(np.power(x, y), x, y)


def generic_pow(x, y):
    """Eigen's generic_pow of float32 arrays of one shape (see ``specials``)."""
    given = x
    x, y = eigen_cpu.daz(x), eigen_cpu.daz(y)
    x_abs = np.abs(x)
    out = _pow_abs(x_abs, y)
    x_negative, x_zero = x < _ZERO, x == _ZERO
    y_inf, y_negative = np.abs(y) == _INF, y < _ZERO
    y_int = (np.floor(y) == y) & ~y_inf
    half = y * _F(0.5)
    y_odd_int = y_int & ~(_round(half) == half)
    out = np.where(x_negative & ~y_int, _NAN, out)
    out = np.where(x_zero, np.where(y_negative, _INF, _ZERO), out)
    out = np.where(np.signbit(x) & y_odd_int, -out, out)
    huge = np.where((y_negative & x_zero) | (y_negative ^ (_ONE < x_abs)), _INF, _ZERO)
    huge = np.where(x == _F(-1), _ONE, huge)
    out = np.where(_HUGE <= np.abs(y), huge, out)
    x_pos_inf = np.where(y_negative, _ZERO, _INF)
    x_neg_inf = np.where(y_odd_int, -x_pos_inf, x_pos_inf)
    out = np.where(x_abs == _INF, np.where(x_negative, x_neg_inf, x_pos_inf), out)
    out = np.where(np.isnan(x) | np.isnan(y), _NAN, out)
    return np.where(y == _ONE, given, np.where((x == _ONE) | (y == _ZERO), _ONE, out))


def _pow_abs(x, y):
    """``x ** y`` for ``x >= 0`` (generic_pow_impl; see ``log2`` and ``exp2``)."""
    m, e = np.frexp(x)
    m, e = m.astype(_F), e.astype(_F)
    low = m < _F(0.70710678118654752440)
    m, e = np.where(low, _F(2) * m, m), np.where(low, e - _ONE, e)
    log_hi, log_lo = _log2(m)
    f_hi, f_lo = _twosum_fast2(*_twoprod(e, y), *_twoprod21(log_hi, log_lo, y))
    n = _round(f_hi)
    r = (f_hi - n) + f_lo
    n_r = _round(r)
    r, n = r - n_r, n + n_r
    r = np.clip(r, _F(-151), _F(129))
    p_hi, p_lo = _twoprod(np.full_like(r, _LN2), r)
    scaled = eigen_cpu.pexp(p_hi) * (_ONE + p_lo)
    out = np.ldexp(scaled, np.clip(n, -300, 300).astype(np.int32)).astype(_F)
    return eigen_cpu.ftz(out)


def _log2(z):
    """``log2(z)`` for z in [1/sqrt(2), sqrt(2)) as a double word (accurate_log2<float>)."""
    x = z - _ONE
    p = eigen_cpu.horner(_POLY, x)
    p_hi, p_lo = _twosum_fast2(*_C1, *_twoprod(x, p))
    p_hi, p_lo = _twosum_fast2(*_C0, *_twoprod21(p_hi, p_lo, x))
    return _twoprod21(p_hi, p_lo, x)


def _round(a):
    """AVX's pround: ``a + copysign(0.49999997, a)`` truncated."""
    return np.trunc(a + np.copysign(_PREV_HALF, a)).astype(_F)


def _split(x):
    gamma = _F(4097) * x   # Veltkamp: 2**12 + 1
    hi = (x - gamma) + gamma
    return hi, x - hi


def _twoprod(x, y):
    """Dekker's ``x * y = hi + lo``, every multiply-add rounded twice (no FMA)."""
    x_hi, x_lo = _split(x)
    y_hi, y_lo = _split(y)
    p = x * y
    lo = x_hi * y_hi + -p
    lo = x_hi * y_lo + lo
    lo = x_lo * y_hi + lo
    return p, x_lo * y_lo + lo


def _twosum_fast(x, y):
    s = x + y
    return s, y - (s - x)


def _twosum_fast2(x_hi, x_lo, y_hi, y_lo):
    """Two double words' sum, ``|x_hi| >= |y_hi|``."""
    r_hi, r_lo = _twosum_fast(x_hi, y_hi)
    return _twosum_fast(r_hi, (y_lo + r_lo) + x_lo)


def _twoprod21(x_hi, x_lo, y):
    """A double word times a float32."""
    c_hi, c_lo1 = _twoprod(x_hi, y)
    t_hi, t_lo1 = _twosum_fast(c_hi, x_lo * y)
    return _twosum_fast(t_hi, t_lo1 + c_lo1)
