"""The rows a legacy optimizer's sparse kernel updates, as TF's CPU kernels evaluate them.

Glossary:
  chip      -- ResourceSparseApply* kernels (training_ops.cc) update a variable row by row:
               each row of the gradient's indices is an Eigen expression of its own, so
               its whole packets of 8 take Eigen's packet ops and its last ``width % 8``
               values the scalar ones.
  row rsqrt -- ``rsqrt()`` of such rows: the packets by the CPU's rsqrtps and a Newton step
               (eigen_rsqrt.py, as math_ops.rsqrt of a tensor whose packets are the rows'),
               the tail by ``1 / sqrt``.
  rows      -- ``gather`` of a slot's rows, and their ``scatter_update`` back.

Mirrors the SparseApplyRMSProp, SparseApplyCenteredRMSProp and SparseApplyAdadelta kernels
of tensorflow/core/kernels/training_ops.cc.
"""

from __future__ import annotations

import math

from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M

PACKET = 8   # float32 values in an AVX packet


def rows_of(variable, indices):
    """The rows of ``variable`` at ``indices``."""
    return A.gather(variable, indices)


def put_rows(variable, rows, indices):
    """Write ``rows`` into ``variable`` at ``indices`` (ResourceScatterUpdate)."""
    return variable.scatter_update(IndexedSlices(rows, indices))


def row_rsqrt(x):
    """``rsqrt`` of each row of ``x`` (one gradient row each) as a kernel's chip takes it."""
    shape = x.shape.as_list()
    width = math.prod(shape[1:])
    flat = A.reshape(x, [-1, width])
    whole = width - width % PACKET
    parts = []
    if whole:   # packets: a tensor of whole rows of packets has them where the rows do
        parts.append(M.rsqrt(flat[:, :whole]))
    if width % PACKET:   # Eigen's scalar rsqrt: 1 / std::sqrt
        parts.append(M.divide(A.constant(1.0, dtype=x.dtype), M.sqrt(flat[:, whole:])))
    out = parts[0] if len(parts) == 1 else A.concat(parts, axis=1)
    return A.reshape(out, A.shape(x))
