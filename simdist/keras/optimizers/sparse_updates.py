"""Keras optimizers' sparse updates: what an IndexedSlices gradient (an embedding's, a
gather's) does to a variable and its slots.

Glossary:
  deduplicate -- before the update, a gradient's repeated indices become one row each:
                 ``tf.unique`` of the indices (in order of first appearance) and the rows
                 of each index summed (``unsorted_segment_sum``, in order), as tf-keras's
                 ``Optimizer._deduplicate_sparse_grad`` (and the legacy optimizers'
                 ``_deduplicate_indexed_slices``).
  scatter     -- the slots and the variable take the rows at their indices
                 (``Variable.scatter_add``); the other rows keep their values, but where
                 the optimizer decays a whole slot (``m.assign(m * momentum)``) or updates the
                 whole variable from its slots (Adam), as tf-keras writes each branch.
  slices      -- ``slices(g, values)``: an IndexedSlices of new values at ``g``'s indices.

Mirrors tf_keras/src/optimizers/optimizer.py (_deduplicate_sparse_grad) and the
``isinstance(gradient, tf.IndexedSlices)`` branches of its optimizers' ``update_step``.
"""

from __future__ import annotations

from simdist.framework.indexed_slices import IndexedSlices


def deduplicate_indexed_slices(grad) -> IndexedSlices:
    """``grad`` with each index once, its rows summed."""
    from simdist.framework.ops import array_ops, math_ops, selection_ops

    unique_indices, new_index_positions = selection_ops.unique(grad.indices)
    summed_values = math_ops.unsorted_segment_sum(
        grad.values, new_index_positions, array_ops.shape(unique_indices)[0])
    return IndexedSlices(summed_values, unique_indices, grad.dense_shape)


def slices(grad, values) -> IndexedSlices:
    """``values`` at ``grad``'s indices (tf-keras's ``tf.IndexedSlices(values, indices)``)."""
    return IndexedSlices(values, grad.indices)
