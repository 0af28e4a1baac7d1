"""TF's float32 Maximum and Minimum on a CPU, as its Eigen computes them, in NumPy.

Glossary:
  PropagateNaN -- TF's functors are ``scalar_max_op<T, T, PropagateNaN>`` (cwise_ops.h):
                 a NaN in either input is the result, as it is (its bits).
  packet tie   -- whole packets of 8 take ``_mm256_max_ps(a, b)`` (``a > b ? a : b``) and
                 ``_mm256_min_ps`` (``a < b ? a : b``): where ``a == b`` (-0 and +0) the
                 second input wins. The last ``size % 8`` values of the output take
                 ``std::max`` / ``std::min``, where the first input wins: max(-0.0, 0.0) is
                 +0 in a packet and -0 in the tail.
  denormals    -- subnormal inputs are signed zeros (TF's kernels run with denormals as
                 zero): max(-3.5, 1e-39) is 0.
NumPy's maximum keeps subnormals and picks another zero. Inputs of one shape: a scalar or
broadcast operand is broadcast first (TF's scalar_left / scalar_right and BCast paths give
the same bits, whole packets and the tail counted in the output; math_ops does so).

Mirrors Eigen/src/Core/functors/BinaryFunctors.h (``scalar_max_op``), GenericPacketMath.h
(``pminmax_impl<PropagateNaN>``) and arch/SSE/PacketMath.h (``pminmax_propagate_nan``) as
TF 2.21 ships them.
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops.eigen_cpu import PACKET, daz


def maximum(a, b):
    """TF's float32 Maximum of two float32 arrays of one shape."""
    return _minmax(a, b, np.greater)


def minimum(a, b):
    """TF's float32 Minimum of two float32 arrays of one shape."""
    return _minmax(a, b, np.less)


def _minmax(a, b, wins):
    a, b = daz(a), daz(b)
    with np.errstate(all="ignore"):
        out = np.where(wins(a, b), a, b)    # the packet rule: b on ties and for b's NaN
        out = np.where(np.isnan(a), a, out)
        tie = (a == b) & (a == 0)
        if tie.any():   # -0 against +0: the tail's std::max / std::min keeps a instead
            flat, size = tie.reshape(-1), tie.size
            flat[:size - size % PACKET] = False
            out = np.where(tie, a, out)
    return out
