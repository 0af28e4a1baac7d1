"""Reductions of ``tf.IndexedSlices`` (sparse gradients) between devices, as TF does them.

Glossary:
  sparse value     -- a per-replica value whose components are IndexedSlices (an
                      Embedding's gradient): reducing it never densifies it.
  aggregate        -- the sum of IndexedSlices is their concatenation (values and indices,
                      in replica order), on the device that reduces; with a dense one among
                      them, the sum is dense (TF's AggregateIndexedSlicesGradients).
  divide by n      -- MEAN divides the values only (indices and dense_shape stay).
  copy to device   -- each of values, indices and dense_shape is copied (an identity on the
                      destination device): that is a broadcast's traffic.
  split / stitch   -- a batch of values is split into dense and sparse ones, each kind
                      reduced its own way, and the results put back in the batch's order.

Mirrors tensorflow/python/distribute/cross_device_utils.py (aggregate_tensors_or_indexed_
slices, divide_by_n_tensors_or_indexed_slices, copy_tensor_or_indexed_slices_to_device,
split_by_sparsity, stitch_values) and backprop_util.AggregateIndexedSlicesGradients.
"""

from __future__ import annotations

from simdist.framework import context
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.tensor import copy_to


def is_sparse(value) -> bool:
    """Whether ``value`` (a per-replica value or one component) holds IndexedSlices."""
    parts = getattr(value, "values", None)
    if isinstance(value, IndexedSlices):
        return True
    return isinstance(parts, (list, tuple)) and any(isinstance(p, IndexedSlices)
                                                    for p in parts)


def copy_to_device(value, device):
    """``value`` (a Tensor or IndexedSlices) on ``device``."""
    if not isinstance(value, IndexedSlices):
        return copy_to(value, device)
    shape = value.dense_shape
    return IndexedSlices(copy_to(value.values, device), copy_to(value.indices, device),
                         None if shape is None else copy_to(shape, device))


def aggregate(values, device):
    """The sum of one value's replicas on ``device``: IndexedSlices concatenated there (a
    dense one among them makes it a dense sum, as TF's add_n of the mixed list)."""
    from simdist.framework.ops import array_ops, math_ops

    parts = [copy_to_device(v, device) for v in values]
    with context.device(device.name):
        if not all(isinstance(p, IndexedSlices) for p in parts):
            return math_ops.add_n([array_ops._t(p) if isinstance(p, IndexedSlices) else p
                                   for p in parts])
        return IndexedSlices(array_ops.concat([p.values for p in parts], 0),
                             array_ops.concat([p.indices for p in parts], 0),
                             parts[0].dense_shape)


def divide_by_n(value, n: int):
    """MEAN's division: of the values of IndexedSlices, of the tensor otherwise."""
    from simdist.framework.ops import math_ops

    if isinstance(value, IndexedSlices):
        return IndexedSlices(math_ops.divide(value.values, n), value.indices,
                             value.dense_shape)
    return math_ops.divide(value, n)


def split_by_sparsity(values):
    """([dense values], their positions, [sparse values], their positions)."""
    dense, dense_at, sparse, sparse_at = [], [], [], []
    for i, v in enumerate(values):
        if is_sparse(v):
            sparse.append(v)
            sparse_at.append(i)
        else:
            dense.append(v)
            dense_at.append(i)
    return dense, dense_at, sparse, sparse_at


def stitch_values(pairs):
    """Results put back in the batch's order: ``pairs`` = ((results, positions), ...)."""
    out = [None] * sum(len(at) for _, at in pairs)
    for results, at in pairs:
        for r, i in zip(results, at):
            out[i] = r
    return out
