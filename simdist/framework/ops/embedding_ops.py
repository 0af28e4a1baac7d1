"""``tf.nn.embedding_lookup``: the rows of an embedding table for each id.

Glossary:
  params -- the table (a Tensor or a Variable; a list of one); its row i is id i's
            embedding, gathered as ``tf.gather`` does (so its gradient is IndexedSlices).
  ids    -- int ids of any shape (a RaggedTensor too: the rows of its flat values, its
            row partitions kept); the result has shape ``ids.shape + params.shape[1:]``.
  max_norm -- rows whose L2 norm is larger are scaled down to it.
  embedding_lookup_sparse -- per row of a SparseTensor of ids (and one of weights), the
            weighted sum of its ids' rows: tf.unique of the ids, their rows gathered,
            gathered again per entry, times the weights, segment-summed by row (entries in
            order; rows up to the last one with an id).

Mirrors tensorflow/python/ops/embedding_ops.py (embedding_lookup_v2) and
ragged/ragged_embedding_ops.py (embedding_lookup_sparse_impl).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import op_recording
from simdist.framework.ragged_tensor import RaggedTensor, host


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of ``params`` at ``ids`` (see the module glossary).

    Raises:
      ValueError: an empty list of params.
      NotImplementedError: a table split over several tensors.
    """
    from simdist.framework.ops import array_ops, clip_ops

    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("Need at least one param")
        if len(params) > 1:
            raise NotImplementedError("simdist's embedding_lookup takes one table, not a "
                                      "table split over several tensors.")
        params = params[0]
    if isinstance(ids, RaggedTensor):
        return ids.with_flat_values(embedding_lookup(params, ids.flat_values, max_norm))
    out = array_ops.gather(params, ids)
    if max_norm is not None:
        out = clip_ops.clip_by_norm(out, max_norm, axes=[out.ndim - 1])
    return out


def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None,
                            name=None, allow_fast_lookup=False):
    """The weighted sum of the rows of ``params`` for each row of ``sp_ids`` (see the
    module glossary).

    Raises:
      NotImplementedError: a combiner other than "sum", no weights.
    """
    from simdist.framework.ops import array_ops, math_ops, selection_ops

    del allow_fast_lookup   # TF's fast path gathers the same rows (no tf.unique first)
    if (combiner or "mean") != "sum" or sp_weights is None:
        raise NotImplementedError("simdist's embedding_lookup_sparse takes weights and "
                                  "combiner='sum' only (what Keras's Dense does with a "
                                  "SparseTensor).")
    segment_ids = array_ops.cast(sp_ids.indices[:, 0], "int32")
    ids, idx = selection_ops.unique(sp_ids.values)
    embeddings = array_ops.gather(embedding_lookup(params, ids, max_norm), idx)
    weights = sp_weights.values
    if weights.dtype != embeddings.dtype:
        weights = array_ops.cast(weights, embeddings.dtype)
    weights = array_ops.reshape(weights, [-1] + [1] * (embeddings.shape.rank - 1))
    rows = int(np.max(host(segment_ids))) + 1 if segment_ids.shape[0] else 0
    return math_ops.unsorted_segment_sum(math_ops.multiply(embeddings, weights),
                                         segment_ids, rows)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
