"""``tf.nn.embedding_lookup``: the rows of an embedding table for each id.

Glossary:
  params -- the table (a Tensor or a Variable; a list of one); its row i is id i's
            embedding, gathered as ``tf.gather`` does (so its gradient is IndexedSlices).
  ids    -- int ids of any shape (a RaggedTensor too: the rows of its flat values, its
            row partitions kept); the result has shape ``ids.shape + params.shape[1:]``.
  max_norm -- rows whose L2 norm is larger are scaled down to it.

Mirrors tensorflow/python/ops/embedding_ops.py (embedding_lookup_v2) and
ragged/ragged_embedding_ops.py.
"""

from __future__ import annotations

from simdist.framework import op_recording
from simdist.framework.ragged_tensor import RaggedTensor


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


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
