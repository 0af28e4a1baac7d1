"""TF's float32 Sum over any axes on a CPU, in its order, in NumPy.

Glossary:
  runs        -- TF's ReductionHelper::Simplify: leading dimensions of size 1 are dropped,
                 a size-1 dimension joins the run before it, and the rest is cut into
                 alternating runs of reduced and kept dimensions, each one dimension: a
                 (2, 1, 3, 1, 5) tensor summed over axes 1 and 4 is a (6, 5) one summed
                 over axis 1.
  row sums    -- runs (kept, reduced): each row by Eigen's inner reducer
                 (eigen_cpu.inner_sum); also a whole-tensor sum (one reduced run).
  column sums -- runs (reduced, kept): eigen_cpu.column_sum.
  preserver   -- runs (kept, reduced, kept) = (A, B, C) -> (A, C): the output's whole
                 packets of 8 that lie in one row of C add the B values in packets
                 (four accumulators by index mod 4 from 16 on, as column_sum), the
                 other outputs one value after another (Eigen's InnerMostDimPreserver and
                 its scalar GenericDimReducer).
  generic     -- runs (reduced, kept, reduced) = (A, B, C) -> (B,): each output adds its
                 values one by one, the last reduced dimension outermost (for c: for a).
  transposed  -- more runs: TF transposes the kept runs first and the reduced ones last,
                 then takes row sums.
Rows of more than eigen_cpu.LEAF values (Eigen's tree) are not modelled: None.

Mirrors tensorflow/core/kernels/reduction_ops_common.h (ReductionHelper, ReductionOp) and
Eigen's TensorReduction.h (InnerMostDimReducer, InnerMostDimPreserver, GenericDimReducer).
"""

from __future__ import annotations

import functools

import numpy as np

from simdist.framework.ops import eigen_cpu

_F = np.float32


def runs(shape, axes):
    """TF's simplified shape: ``(sizes, first_reduced)``, the runs' sizes and whether the
    first run is reduced (``((), True)`` when every dimension is 1)."""
    reduced = [i in axes for i in range(len(shape))]
    start = 0
    while start < len(shape) and shape[start] == 1:
        start += 1
    if start == len(shape):
        return (), True
    sizes = [shape[start]]
    for i in range(start + 1, len(shape)):
        if shape[i] == 1:
            reduced[i] = reduced[i - 1]
        if reduced[i] != reduced[i - 1]:
            sizes.append(shape[i])
        else:
            sizes[-1] *= shape[i]
    return tuple(sizes), reduced[start]


def _in_order(x, axis):
    """``x`` summed along ``axis`` one value after another from +0."""
    if x.shape[axis] == 0:
        return np.zeros(np.delete(x.shape, axis), _F)
    return np.take(np.cumsum(x, axis=axis, dtype=_F), -1, axis=axis) + _F(0)


COPY = "copy"


def row_sums(sizes, first_reduced):
    """How TF sums runs ``sizes`` (``runs``) when it takes no reduction or row sums:
    ``COPY`` where nothing is reduced (TF copies the input), the rows' length where one
    run is reduced or a kept run then a reduced one, else None."""
    if len(sizes) == 0 or len(sizes) == 1 and not first_reduced:
        return COPY
    if len(sizes) == 1 or len(sizes) == 2 and not first_reduced:
        return sizes[-1]
    return None


def sum_rows(x):
    """Row sums of a 2-D array, or None past Eigen's leaf size."""
    n = x.shape[1]
    if n > eigen_cpu.LEAF:
        return None
    return eigen_cpu.inner_sum(x) if n else np.zeros(x.shape[0], _F)


def _preserved(x):
    """(A, B, C) summed over B as InnerMostDimPreserver / GenericDimReducer do."""
    a, b, c = x.shape
    scalar = _in_order(x, 1)
    if b < 16 or c < eigen_cpu.PACKET:
        return scalar
    whole = b - b % 4
    accs = np.cumsum(x[:, :whole].reshape(a, whole // 4, 4, c), axis=1, dtype=_F)[:, -1]
    packed = ((accs[:, 0] + accs[:, 1]) + accs[:, 2]) + accs[:, 3]
    for j in range(whole, b):
        packed = packed + x[:, j]
    k = np.arange(a * c)
    start = k - k % eigen_cpu.PACKET
    in_packet = (start % c + eigen_cpu.PACKET <= c) & (k < a * c - a * c % eigen_cpu.PACKET)
    return np.where(in_packet.reshape(a, c), packed + _F(0), scalar)


def reduce_sum(v, axes):
    """TF's float32 Sum of the NumPy array ``v`` over ``axes`` (sorted, non-negative), in
    the output's shape without kept dimensions; None where TF's order is not modelled
    (not float32, rows longer than eigen_cpu.LEAF)."""
    if type(v) is not np.ndarray or v.dtype != _F:
        return None
    return _planned(v.shape, tuple(axes))(v)


@functools.lru_cache(maxsize=1024)
def _planned(shape, axes):
    """reduce_sum of a float32 array of ``shape`` over ``axes`` as a function of the array:
    the runs and the order they take are the shape's (made once per shape)."""
    out_shape = tuple(d for i, d in enumerate(shape) if i not in axes)
    sizes, first_reduced = runs(shape, axes)
    row = row_sums(sizes, first_reduced)
    if row == COPY:
        body = lambda x: x.copy()  # noqa: E731 - nothing reduced (TF copies the input)
    elif row is not None:
        rows = int(np.prod(sizes[:-1]))
        body = lambda x: sum_rows(x.reshape(rows, row))  # noqa: E731
    elif len(sizes) == 2:
        body = eigen_cpu.column_sum
    elif len(sizes) == 3 and first_reduced:
        body = lambda x: _in_order(np.moveaxis(x, 2, 0).reshape(-1, sizes[1]), 0)  # noqa: E731
    elif len(sizes) == 3:
        body = _preserved
    else:
        kept = list(range(1 if first_reduced else 0, len(sizes), 2))
        cut = [i for i in range(len(sizes)) if i not in kept]
        count = int(np.prod([sizes[i] for i in kept]))
        body = lambda x: sum_rows(np.transpose(x, kept + cut).reshape(count, -1))  # noqa: E731

    def planned(v):
        out = body(v.reshape(sizes))
        return None if out is None else out.reshape(out_shape)   # an array: each body's
    return planned
