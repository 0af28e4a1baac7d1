"""TF's float32 Erf and Erfc on a CPU, as its Eigen computes them, in NumPy.

Glossary:
  erf      -- Eigen's ``generic_fast_erf<float>`` for every element (TF builds with
              EIGEN_FAST_MATH, and the scalar ``numext::erf`` of a float calls the same
              template, so the tail takes it too): ``x2 = min(16, x*x)``, the rational
              ``x p(x2) / q(x2)`` with p and q of degree 5 (Horner, each multiply-add
              rounded twice: no FMA), clamped to [-1, 1]. NumPy's float64 erf rounded to
              float32 differs from TF in a quarter of the values.
  erfc     -- Eigen's ``generic_fast_erfc<float>``, also for every element: ``x`` clamped
              to +-11; for ``x*x <= 1`` ``1 + x s(x2)`` (s of degree 5); above, ``exp(-x2)
              (1 - x2_lo) P(1/x2) / (x Q(1/x2))`` (+2 for negative ``x``), where ``x2_lo``
              is the rounding error of ``x*x`` (Dekker's product by Veltkamp splitting, no
              FMA). Whole packets take ``pexp`` and ``preciprocal`` (the CPU's rcpps and a
              Newton step: eigen_rcpps.py, so TF's bits depend on the CPU model there); the
              tail the C library's ``expf`` and a division. Tiny products flush to zero as
              in TF. tf.nn.gelu (approximate=False) is ``0.5 x erfc(-x / sqrt(2))``.
Subnormal inputs are zeros (TF's kernels run with denormals flushed); a NaN comes back as
itself, quieted.

Mirrors unsupported/Eigen/src/SpecialFunctions/SpecialFunctionsImpl.h
(``generic_fast_erf<float>``, ``generic_fast_erfc<float>``) and
Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h (``twoprod_low``) as TF 2.21
ships them; tensorflow/core/kernels/cwise_ops.h (erf, erfc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops.eigen_cpu import (
    by_packets,
    daz,
    exp_tail,
    ftz,
    horner,
    pexp,
    quiet_nans,
)
from simdist.framework.ops.eigen_rcpps import preciprocal

_F = np.float32
_ONE = _F(1)
_ERF_ALPHA = tuple(_F(c) for c in (
    2.123732201653183437883853912353515625e-06, 2.861979592125862836837768554687500000e-04,
    3.658048342913389205932617187500000000e-03, 5.243302136659622192382812500000000000e-02,
    1.874160766601562500000000000000000000e-01, 1.128379106521606445312500000000000000e+00))
_ERF_BETA = tuple(_F(c) for c in (
    3.89185734093189239501953125000e-05, 1.14329601638019084930419921875e-03,
    1.47520881146192550659179687500e-02, 1.12945675849914550781250000000e-01,
    4.99425798654556274414062500000e-01, 1.0))
_ERFC_ALPHA = tuple(_F(c) for c in (
    5.61802298761904239654541015625e-04, -4.91381669417023658752441406250e-03,
    2.67075151205062866210937500000e-02, -1.12800106406211853027343750000e-01,
    3.76122951507568359375000000000e-01, -1.12837910652160644531250000000e+00))
_ERFC_GAMMA = tuple(_F(c) for c in (
    1.0208116471767425537109375e-01, 4.2920666933059692382812500e-01,
    3.2379078865051269531250000e-01, 5.3971976041793823242187500e-02))
_ERFC_DELTA = tuple(_F(c) for c in (
    1.7251677811145782470703125e-02, 3.9137163758277893066406250e-01,
    1.0000000000000000000000000e+00, 6.2173241376876831054687500e-01,
    9.5662862062454223632812500e-02))
_SPLIT = _F(4097)   # Veltkamp's 2**12 + 1 for float32's 24 bits


def erf(a):
    """TF's float32 erf of a float32 array (or NumPy float32 scalar)."""
    with np.errstate(all="ignore"):
        x = daz(a)
        x2 = np.minimum(_F(16), x * x)
        r = (x * horner(_ERF_ALPHA, x2)) / horner(_ERF_BETA, x2)
        return quiet_nans(x, np.clip(r, -_ONE, _ONE))


def _split(x):
    gamma = _SPLIT * x
    hi = (x - gamma) + gamma
    return hi, x - hi


def _erfc_with(exp, reciprocal):
    """``generic_fast_erfc<float>`` with the packet's or the scalar's exp and 1/x."""
    def fn(given):
        x = np.clip(given, _F(-11), _F(11))
        x2 = x * x
        small = x * horner(_ERFC_ALPHA, x2) + _ONE
        hi, lo = _split(x)
        x2_lo = ((hi * hi - x2) + hi * lo) + lo * hi   # twoprod_low(x, x, x2), no FMA
        x2_lo = x2_lo + lo * lo
        e = exp(-x2)
        z = e - ftz(e * x2_lo)   # tiny for |x| near 9: TF flushes it
        q2 = reciprocal(x2)
        r = horner(_ERFC_GAMMA, q2) / (x * horner(_ERFC_DELTA, q2))
        large = ftz(z * r) + np.where(x < 0, _F(2), _F(0))
        return np.where(_ONE < x2, large, small)
    return fn


_ERFC_PACKETS = _erfc_with(pexp, preciprocal)
_ERFC_TAIL = _erfc_with(exp_tail, lambda a: _ONE / a)


def erfc(a):
    """TF's float32 erfc of a float32 array: whole packets, then the scalar tail."""
    return erfc_rows(np.reshape(a, (1, -1))).reshape(np.shape(a))


def erfc_rows(rows):
    """``erfc`` of each row of ``rows`` (n, size) as a tensor of its own."""
    with np.errstate(all="ignore"):
        x = daz(rows)
        return quiet_nans(x, by_packets(_ERFC_PACKETS, _ERFC_TAIL, x))
