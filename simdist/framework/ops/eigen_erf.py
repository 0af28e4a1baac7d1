"""TF's float32 Erf on a CPU, as its Eigen computes it, in NumPy.

Glossary:
  erf      -- Eigen's ``generic_fast_erf<float>`` for every element (TF builds with
              EIGEN_FAST_MATH, and the scalar ``numext::erf`` of a float calls the same
              template, so the tail takes it too): ``x2 = min(16, x*x)``, the rational
              ``x p(x2) / q(x2)`` with p and q of degree 5 (Horner, each multiply-add
              rounded twice: no FMA), clamped to [-1, 1]. NumPy's float64 erf rounded to
              float32 differs from TF in a quarter of the values.
Subnormal inputs are zeros (TF's kernels run with denormals flushed); a NaN comes back as
itself, quieted.

Mirrors unsupported/Eigen/src/SpecialFunctions/SpecialFunctionsImpl.h
(``generic_fast_erf<float>``) as TF 2.21 ships it; tensorflow/core/kernels/cwise_ops.h
(erf).
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops.eigen_cpu import daz, horner, quiet_nans

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


def erf(a):
    """TF's float32 erf of a float32 array (or NumPy float32 scalar)."""
    with np.errstate(all="ignore"):
        x = daz(a)
        x2 = np.minimum(_F(16), x * x)
        r = (x * horner(_ERF_ALPHA, x2)) / horner(_ERF_BETA, x2)
        return quiet_nans(x, np.clip(r, -_ONE, _ONE))
