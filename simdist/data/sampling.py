"""``Dataset.sample_from_datasets``: elements drawn at random from several datasets.

Glossary:
  selector    -- TF's own pipeline, simulated as one node: ``Dataset.random(seed).batch(2)``
                 gives each draw a two-word seed, and ``stateless_multinomial(log(weights),
                 1, seed)`` picks the dataset (simdist.framework.ops.random_categorical);
                 so a seed gives TF's order. Its choices feed ``choose_from_datasets``'s
                 node (simdist.data.directed_interleave).
  weights     -- None (uniform), a list / array (datasets of weight 0 are dropped first;
                 one left is returned as it is), a float tensor of shape [len(datasets)],
                 or a dataset of such vectors (one per draw: the result ends with it).
  stop_on_empty_dataset -- False (the default here): an ended dataset's draws are skipped.
  rerandomize_each_iteration -- the random source's (simdist.data.random_dataset).

Mirrors tensorflow/python/data/ops/sample_from_datasets_op.py.
"""

from __future__ import annotations

import itertools

import numpy as np

from simdist.data.dataset_ops import DatasetV2
from simdist.data.directed_interleave import DirectedInterleaveDataset
from simdist.data.random_dataset import RandomDataset
from simdist.framework import dtypes, execute
from simdist.framework.ops import math_ops
from simdist.framework.ops.random_categorical import one_sample_each
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec
from simdist.hardware import backend


class _SelectorDataset(DatasetV2):
    """The index of the dataset each draw picks: one multinomial sample per seed pair of a
    random source, from fixed logits or from the logits of each weights element."""

    def __init__(self, source, logits=None, weights=None):
        self._logits = logits
        super().__init__((source,) if weights is None else (source, weights),
                         TensorSpec([], dtypes.int64))

    def _values(self):
        words = self._inputs[0]._values()
        xp = backend.xp
        if len(self._inputs) == 1:   # fixed logits: the draws of many seeds at once
            while True:
                seeds = [int(w) for w in itertools.islice(words, 2 * _CHUNK)]
                for choice in one_sample_each(self._logits[0], np.reshape(seeds, (-1, 2))):
                    yield xp.asarray(choice, dtype="int64")
        for weights in self._inputs[1]._values():
            seed = [[int(next(words)), int(next(words))]]
            yield xp.asarray(one_sample_each(_log(weights)[0], seed)[0], dtype="int64")


_CHUNK = 64   # draws computed together (the random source is endless)


def _log(weights) -> np.ndarray:
    """TF's ``math_ops.log(weights)`` as a [1, n] matrix (its float32 / float64 bits)."""
    return np.asarray(math_ops.log(execute.convert_to_tensor(weights)).numpy()).reshape(1, -1)


def _without_zero_weights(datasets, weights):
    kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
    return tuple(zip(*kept)) if kept else ((datasets[0].take(0),), (1.0,))


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """``Dataset.sample_from_datasets`` (TF's checks, then TF's selector)."""
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if isinstance(weights, DatasetV2):
        selector = _SelectorDataset(RandomDataset(seed, rerandomize_each_iteration),
                                    weights=weights)
        return DirectedInterleaveDataset(selector, list(datasets), stop_on_empty_dataset)
    if weights is None:
        logits = np.zeros((1, len(datasets)), dtype=np.float32)
    else:
        if isinstance(weights, Tensor):
            if not weights.shape.is_compatible_with([len(datasets)]):
                raise ValueError("Invalid `weights`. The shape of `weights` should be "
                                 f"compatible with `[len(datasets)]` but is {weights.shape}.")
        else:
            if len(datasets) != len(weights):
                raise ValueError(
                    "Invalid `weights`. `weights` should have the same length as `datasets` "
                    f"but got `len(weights)={len(weights)}` vs. "
                    f"`len(datasets)={len(datasets)}`.")
            datasets, weights = _without_zero_weights(datasets, weights)
        weights = execute.convert_to_tensor(weights)
        if weights.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError("Invalid `weights`. `weights` type must be either `tf.float32` or "
                            f"`tf.float64` but is {weights.dtype}.")
        logits = _log(weights)
    if len(datasets) == 1:
        return datasets[0]
    selector = _SelectorDataset(RandomDataset(seed, rerandomize_each_iteration), logits=logits)
    return DirectedInterleaveDataset(selector, list(datasets), stop_on_empty_dataset)
