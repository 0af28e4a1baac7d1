"""``Dataset.random``: an endless stream of TF's pseudorandom int64 values.

Glossary:
  element     -- one 32-bit Philox word (SingleSampleAdapter order) as a scalar int64, so
                 every value lies in [0, 2**32).
  seed        -- the op seed, with the global seed as TF's ``get_seed``; no seed at all:
                 fresh entropy per dataset.
  rerandomize_each_iteration -- True: each pass (``iter``, an epoch of ``repeat``) seeds
                 its generator with the next two words of the dataset's seed generator;
                 None / False: every pass repeats the first stream (TF's RandomDataset).

Mirrors tensorflow/python/data/ops/random_op.py (kernel:
core/kernels/data/experimental/random_dataset_op.cc).
"""

from __future__ import annotations

from simdist.data.dataset_ops import INFINITE_CARDINALITY, DatasetV2
from simdist.data.shuffling import PassSeeds
from simdist.framework import dtypes
from simdist.framework.tensor_spec import TensorSpec
from simdist.hardware import backend


class RandomDataset(DatasetV2):
    """Pseudorandom int64 scalars, one Philox word each, without end."""

    def __init__(self, seed=None, rerandomize_each_iteration=None):
        self._pass_seeds = PassSeeds(seed, rerandomize_each_iteration)
        super().__init__((), TensorSpec([], dtypes.int64))

    def _cardinality(self) -> int:
        return INFINITE_CARDINALITY

    def _values(self):
        words = self._pass_seeds.words()
        xp = backend.xp
        while True:
            for w in words.take(64):
                yield xp.asarray(w, dtype="int64")
