"""TF's own float32 CPU sums over a tensor's outer dimensions (FusedBatchNormGrad's and
BiasAddGrad's), in their order, in NumPy.

Glossary:
  outer sum   -- ReduceOuterDimensions: the sum of each column of a (rows, depth) array.
                 With at most 32 columns per thread, the rows are cut into up to
                 ``INTRA_OP_THREADS`` blocks (of at least 2000 values); each block adds its
                 rows one after another into a buffer that starts at +0, and the buffers
                 are added in block order. Eigen's cost model runs all the blocks in one
                 call (so one buffer, row after row) unless the work is worth a second
                 thread: about 125,000 values. More columns: each column row after row.
  middle sum  -- ReduceMiddleDimensions: (outer, middle, inner) summed to (middle,): each
                 run of ``inner`` values by Eigen's full reduction (eigen_cpu.inner_sum),
                 added into its middle index's buffer in order; on two threads the flat
                 values are cut into two halves (a run cut in two is two partial runs),
                 each with its own buffer (BiasAddGrad with NCHW).
  threads     -- INTRA_OP_THREADS is the intra-op thread pool of the host the fixtures were
                 recorded on (2 CPUs): a host with more threads cuts big tensors into more
                 blocks, so those sums' last bits are the recording host's.

Mirrors tensorflow/core/kernels/redux_functor.h and Eigen's parallelFor cost model
(unsupported/Eigen/CXX11/src/Tensor/TensorCostModel.h, TensorDeviceThreadPool.h).
"""

from __future__ import annotations

import numpy as np

from simdist.framework.ops import eigen_cpu

_F = np.float32
INTRA_OP_THREADS = 2
_MIN_BLOCK_WORKLOAD = 2000
# TensorCostModel: cycles per value (its bytes loaded at 11/64 cycle each, one add), and the
# startup / per-thread cycles that decide whether a second thread is used
_CYCLES_PER_BYTE = 11 / 64
_STARTUP_CYCLES = _PER_THREAD_CYCLES = 100000


def _divup(a, b):
    return -(-a // b)


def _threads_used(blocks, block_values, itemsize):
    """Eigen's CostModel::numThreads for ``blocks`` tasks of ``block_values`` adds each of
    values of ``itemsize`` bytes."""
    cost = blocks * block_values * (itemsize * _CYCLES_PER_BYTE + 1)
    threads = int((cost - _STARTUP_CYCLES) / _PER_THREAD_CYCLES + 0.9)
    return min(INTRA_OP_THREADS, max(1, threads))


def _rows_in_order(x):
    """Each column of ``x`` summed row after row from +0."""
    if x.shape[0] == 0:
        return np.zeros(x.shape[1:], _F)
    # NumPy's accumulate adds row after row; + 0 as the +0 start would make an all -0 sum
    return np.cumsum(x, axis=0, dtype=_F)[-1] + _F(0)


def outer_sum(x, itemsize=4):
    """ReduceOuterDimensions' float32 sum of each column of ``x`` (rows, depth), whose
    input values had ``itemsize`` bytes (2: float16 summed in float32)."""
    x = np.asarray(x, _F)
    rows, depth = x.shape
    if rows == 1:
        return x[0].copy()
    blocks = _outer_blocks(rows, depth, itemsize)
    if blocks is None:
        return _rows_in_order(x)
    blocks, block_rows = blocks
    out = _rows_in_order(x[:block_rows])
    for start in range(block_rows, blocks * block_rows, block_rows):
        out = out + _rows_in_order(x[start:start + block_rows])
    return out


def _outer_blocks(rows, depth, itemsize):
    """outer_sum's blocks and the rows of each (rows > 1), or None where one buffer adds
    every row in order (one block, one thread, or too many columns)."""
    if depth > INTRA_OP_THREADS * 32 or rows == 0:
        return None
    total = rows * depth
    min_block_rows = _divup(_MIN_BLOCK_WORKLOAD, depth)
    blocks = min(rows, _divup(total, min_block_rows), INTRA_OP_THREADS)
    block_rows = _divup(rows, blocks)
    if blocks == 1 or _threads_used(blocks, block_rows * depth, itemsize) == 1:
        return None   # one call runs every block into the first buffer
    return blocks, block_rows


def outer_sum_stacked(rows, depth, itemsize=4):
    """``outer_sum`` of each of several float32 arrays (rows, depth) stacked on a new
    leading axis, as a function of the stacked array: one accumulation for all of them
    where each adds its rows in order; else None."""
    if rows < 2 or _outer_blocks(rows, depth, itemsize) is not None:
        return None
    return _stacked_rows_in_order


def _stacked_rows_in_order(x):
    """``_rows_in_order`` of each of the arrays stacked in ``x`` (count, rows, depth). Without
    NaN, on the rows moved first (a copy): a NumPy reduction over them adds whole rows of
    the others' values one after another (an outer axis; the + 0 makes a sum of -0s +0,
    as a +0 start does), unless a single value is left to add (then the reduction's
    inner loop, pairwise). With a NaN, accumulated as they are (the NaN operand whose bits
    an add keeps: eigen_cpu._transposed_sum)."""
    top = x.max()
    if x.shape[0] * x.shape[2] < 2 or top != top:
        return np.cumsum(x, axis=1, dtype=_F)[:, -1] + _F(0)
    return np.add.reduce(x.transpose(1, 0, 2).copy(), axis=0, dtype=_F) + _ZERO


_ZERO = np.array(0, _F)   # a 0-d array: NumPy adds it faster than a NumPy scalar


def _run_sum(flat, start, stop):
    """Eigen's full reduction of ``flat[start:stop]`` (a partial or whole run)."""
    if stop <= start:
        return _F(0)
    return eigen_cpu.inner_sum(flat[None, start:stop])[0]


def middle_sum(x, itemsize=4):
    """ReduceMiddleDimensions' float32 sum of ``x`` (outer, middle, inner) to (middle,)
    (``itemsize`` as outer_sum's); None for runs past eigen_cpu.LEAF (Eigen's tree) or a
    block inside one run."""
    x = np.asarray(x, _F)
    outer, middle, inner = x.shape
    if inner > eigen_cpu.LEAF:
        return None
    total = x.size
    blocks = min(outer * middle, _divup(total, _divup(_MIN_BLOCK_WORKLOAD, inner)),
                 INTRA_OP_THREADS)
    if blocks <= 1 or _threads_used(blocks, _divup(total, blocks) * inner, itemsize) == 1:
        runs = eigen_cpu.inner_sum(x.reshape(-1, inner)).reshape(outer, middle)
        return _rows_in_order(runs)   # one call: every run into the first buffer
    flat, size = x.reshape(-1), _divup(total, blocks)
    out = None
    for first in range(0, total, size):
        last = min(total, first + size)
        aligned, end = _divup(first, inner) * inner, last // inner * inner
        if aligned > end:
            return None
        buf = np.zeros(middle, _F)
        where = first // inner % middle   # a partial run first, then whole runs
        buf[where] += _run_sum(flat, first, aligned)
        where = aligned // inner % middle
        if end > aligned:
            runs = eigen_cpu.inner_sum(flat[aligned:end].reshape(-1, inner))
            for value in runs:   # whole runs, then the last partial one
                buf[where] += value
                where = (where + 1) % middle
        buf[where] += _run_sum(flat, end, last)
        out = buf if out is None else out + buf
    return out
