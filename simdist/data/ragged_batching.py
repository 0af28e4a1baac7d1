"""``Dataset.ragged_batch``: consecutive elements of any shapes as the rows of RaggedTensors.

Glossary:
  RaggedBatchDataset -- ``batch_size`` consecutive elements per batch; each component of
                        rank >= 1 becomes a RaggedTensor of one row per element (its first
                        dimension ragged), a scalar component a dense vector; the last
                        batch is partial unless ``drop_remainder`` (a BatchDataset's
                        chunks, combined as rows instead of stacked).

Mirrors tensorflow/python/data/ops/ragged_batch_op.py (and
tensorflow/python/data/experimental/ops/batching.py's dense_to_ragged_batch).
"""

from __future__ import annotations

from simdist.data import composite_rows, structure
from simdist.data.batching import BatchDataset


class RaggedBatchDataset(BatchDataset):
    """Consecutive elements as the rows of RaggedTensors (see the module glossary)."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        super().__init__(input_dataset, batch_size, drop_remainder)
        static = self._batch_size if self._drop else None
        self._element_spec = structure.map_leaves(
            lambda s: composite_rows.ragged_batch_spec(s, static), input_dataset.element_spec)

    def _values(self):
        for chunk in self._chunks():
            flats = [structure.flatten(e) for e in chunk]
            yield structure.pack(chunk[0], [composite_rows.ragged_batch_leaf(list(leaves))
                                            for leaves in zip(*flats)])
