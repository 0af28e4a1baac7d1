"""A dataset iterator in a checkpoint: ``tf.train.Checkpoint(iterator=it)``.

Glossary:
  ITERATOR_STATE -- the attribute a checkpoint saves the iterator as
                    ('iterator/.ATTRIBUTES/ITERATOR_STATE', TF's key); simdist's value is the
                    number of elements the iterator has given (int64 [1]).
  restore        -- the iterator starts its dataset's pass afresh and skips that many
                     elements, so ``next`` gives the element after the last one given before
                     the save. TF saves the pipeline's own state (shuffle buffers, random
                     states); the replay gives the same elements for a deterministic pipeline
                     or a shuffle with fixed seeds.

Mirrors tensorflow/python/data/ops/iterator_ops.py (``_serialize_to_tensors`` /
``_restore_from_tensors`` of OwnedIterator).
"""

from __future__ import annotations

import numpy as np

from simdist.data.iterator_pass import iterator_pass
from simdist.framework import dtypes


class CheckpointableIterator:
    """What a checkpoint reads and writes of an iterator (see the module glossary)."""

    _saved_as_one_variable = True          # one value in a checkpoint (trackable.is_leaf)
    _checkpoint_attribute = "ITERATOR_STATE"
    _consumed = 0

    @property
    def name(self) -> str:
        return "Iterator"

    @property
    def dtype(self):
        return dtypes.int64

    @property
    def shape(self) -> tuple:
        return (1,)

    def numpy(self) -> np.ndarray:
        return np.array([self._consumed], dtype=np.int64)

    def assign(self, value) -> None:
        """Restore the position ``value`` (elements given) by replaying the pass."""
        n = int(np.asarray(value).reshape(-1)[0])
        self._gen = iterator_pass(self._dataset)
        for _ in range(n):
            next(self._gen)
        self._consumed = n
