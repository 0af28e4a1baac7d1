"""Regression metrics: the running mean of a per-example error.

Glossary:
  MeanSquaredError  -- mean of ``mean(square(y_pred - y_true), axis=-1)`` over all examples.
  MeanAbsoluteError -- mean of ``mean(abs(y_pred - y_true), axis=-1)`` over all examples.

Mirrors keras/src/metrics/regression_metrics.py.
"""

from __future__ import annotations

from simdist.keras import losses
from simdist.keras.metrics.base_metric import MeanMetricWrapper


class MeanSquaredError(MeanMetricWrapper):
    """The mean squared error between labels and predictions."""

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(losses.mean_squared_error, name, dtype=dtype)


class MeanAbsoluteError(MeanMetricWrapper):
    """The mean absolute error between labels and predictions."""

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(losses.mean_absolute_error, name, dtype=dtype)
