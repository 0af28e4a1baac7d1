"""The sum of several gradients of one tensor, as TF's tape and cross-device ops take it.

Glossary:
  aggregate  -- gradients that are all dense tensors: TF's one ``AddN`` of them, in the
                order given (AddN adds left to right, so the order is in the bits; simdist
                adds them pairwise, which gathered runs and graph plans lower); any
                IndexedSlices among dense ones: the same AddN, each IndexedSlices made dense
                first; all IndexedSlices: one IndexedSlices whose values and indices are
                the concatenation of theirs, in the order given (the dense shape is the
                first one's).
  indices    -- concatenated indices are int64 when the slices mix int32 and int64
                indices (each int32 one cast), else of their one dtype.

Mirrors tensorflow/python/eager/backprop.py (_aggregate_grads) and
tensorflow/python/ops/backprop_util.py (AggregateIndexedSlicesGradients, with
math_ops._as_indexed_slices_list's int64 cast).
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.indexed_slices import IndexedSlices


def aggregate_grads(gradients):
    """The sum of ``gradients`` (Tensors or IndexedSlices, at least one), TF's order kept."""
    from simdist.framework.ops import math_ops

    if len(gradients) == 1:
        return gradients[0]
    if not any(isinstance(g, IndexedSlices) for g in gradients):
        total = gradients[0]   # AddN's left-to-right sum, as AddV2s (the same bits)
        for g in gradients[1:]:
            total = math_ops.add(total, g)
        return total
    return aggregate_indexed_slices_gradients(gradients)


def aggregate_indexed_slices_gradients(grads):
    """``grads`` holding IndexedSlices: dense if any is dense, else concatenated."""
    from simdist.framework.ops import array_ops, math_ops

    grads = [g for g in grads if g is not None]
    if len(grads) == 1:
        return grads[0]
    if not all(isinstance(g, IndexedSlices) for g in grads):
        return math_ops.add_n([g._as_tensor() if isinstance(g, IndexedSlices) else g
                               for g in grads])
    if any(g.indices.dtype == dtypes.int64 for g in grads):
        grads = [g if g.indices.dtype == dtypes.int64 else
                 IndexedSlices(g.values, array_ops.cast(g.indices, dtypes.int64), g.dense_shape)
                 for g in grads]
    return IndexedSlices(array_ops.concat([g.values for g in grads], 0),
                         array_ops.concat([g.indices for g in grads], 0),
                         grads[0].dense_shape)
