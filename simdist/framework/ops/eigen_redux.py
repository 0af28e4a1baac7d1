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
  threads     -- INTRA_OP_THREADS is the intra-op thread pool of the host the fixtures were
                 recorded on (2 CPUs): a host with more threads cuts big tensors into more
                 blocks, so those sums' last bits are the recording host's.

Mirrors tensorflow/core/kernels/redux_functor.h and Eigen's parallelFor cost model
(unsupported/Eigen/CXX11/src/Tensor/TensorCostModel.h, TensorDeviceThreadPool.h).
"""

from __future__ import annotations

import numpy as np

_F = np.float32
INTRA_OP_THREADS = 2
_MIN_BLOCK_WORKLOAD = 2000
# TensorCostModel: cycles per value (4 bytes loaded at 11/64 cycle each, one add), and the
# startup / per-thread cycles that decide whether a second thread is used
_CYCLES_PER_VALUE = 4 * 11 / 64 + 1
_STARTUP_CYCLES = _PER_THREAD_CYCLES = 100000


def _divup(a, b):
    return -(-a // b)


def _threads_used(blocks, block_values):
    """Eigen's CostModel::numThreads for ``blocks`` tasks of ``block_values`` adds each."""
    cost = blocks * block_values * _CYCLES_PER_VALUE
    threads = int((cost - _STARTUP_CYCLES) / _PER_THREAD_CYCLES + 0.9)
    return min(INTRA_OP_THREADS, max(1, threads))


def _rows_in_order(x):
    """Each column of ``x`` summed row after row from +0."""
    if x.shape[0] == 0:
        return np.zeros(x.shape[1:], _F)
    # NumPy's accumulate adds row after row; + 0 as the +0 start would make an all -0 sum
    return np.cumsum(x, axis=0, dtype=_F)[-1] + _F(0)


def outer_sum(x):
    """ReduceOuterDimensions' float32 sum of each column of ``x`` (rows, depth)."""
    x = np.asarray(x, _F)
    rows, depth = x.shape
    if rows == 1:
        return x[0].copy()
    if depth > INTRA_OP_THREADS * 32 or rows == 0:
        return _rows_in_order(x)
    total = rows * depth
    min_block_rows = _divup(_MIN_BLOCK_WORKLOAD, depth)
    blocks = min(rows, _divup(total, min_block_rows), INTRA_OP_THREADS)
    block_rows = _divup(rows, blocks)
    if blocks == 1 or _threads_used(blocks, block_rows * depth) == 1:
        return _rows_in_order(x)   # one call runs every block into the first buffer
    out = _rows_in_order(x[:block_rows])
    for start in range(block_rows, blocks * block_rows, block_rows):
        out = out + _rows_in_order(x[start:start + block_rows])
    return out
