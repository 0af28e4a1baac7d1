"""Crossentropy metrics: the running mean of the per-example loss, without loss reduction.

Glossary:
  BinaryCrossentropy            -- of 0/1 labels and probabilities (or logits).
  CategoricalCrossentropy       -- of one-hot labels.
  SparseCategoricalCrossentropy -- of integer labels.

Mirrors keras/src/metrics/probabilistic_metrics.py.
"""

from __future__ import annotations

from simdist.keras import losses
from simdist.keras.metrics.base_metric import MeanMetricWrapper


class BinaryCrossentropy(MeanMetricWrapper):
    """The crossentropy of binary labels and predictions."""

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0):
        super().__init__(losses.binary_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing)


class CategoricalCrossentropy(MeanMetricWrapper):
    """The crossentropy of one-hot labels and predictions."""

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0, axis=-1):
        super().__init__(losses.categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The crossentropy of integer labels and predictions."""

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False,
                 ignore_class=None, axis=-1):
        super().__init__(losses.sparse_categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)
