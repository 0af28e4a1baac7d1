"""Accuracy metrics and their per-example functions.

Glossary:
  binary_accuracy            -- ``y_pred > threshold`` (0.5) equals ``y_true``; mean over
                                the last axis.
  categorical_accuracy       -- argmax of ``y_pred`` equals argmax of one-hot ``y_true``.
  sparse_categorical_accuracy-- argmax of ``y_pred`` equals the integer label.

Mirrors keras/src/metrics/accuracy_metrics.py and utils/metrics_utils.py.
"""

from __future__ import annotations

from simdist.framework import dtypes, execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import backend
from simdist.keras.metrics.base_metric import MeanMetricWrapper


def _floatx():
    return dtypes.as_dtype(backend.floatx())


def accuracy(y_true, y_pred):
    y_true = execute.convert_to_tensor(y_true)
    y_pred = A.cast(execute.convert_to_tensor(y_pred), y_true.dtype)
    return A.cast(M.equal(y_true, y_pred), _floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = execute.convert_to_tensor(y_pred)
    y_true = A.cast(execute.convert_to_tensor(y_true), y_pred.dtype)
    t = A.cast(A.constant(threshold), y_pred.dtype)
    y_pred = A.cast(M.greater(y_pred, t), y_pred.dtype)
    return M.reduce_mean(A.cast(M.equal(y_true, y_pred), _floatx()), axis=-1)


def categorical_accuracy(y_true, y_pred):
    y_true = execute.convert_to_tensor(y_true)
    y_pred = execute.convert_to_tensor(y_pred)
    return A.cast(M.equal(M.argmax(y_true, axis=-1), M.argmax(y_pred, axis=-1)), _floatx())


def sparse_categorical_accuracy(y_true, y_pred):
    y_true = execute.convert_to_tensor(y_true)
    y_pred = execute.convert_to_tensor(y_pred)
    shape = list(y_true.shape)
    reshape = False
    if y_true.ndim == y_pred.ndim:
        y_true = A.squeeze(y_true, [-1])
        reshape = True
    pred = M.argmax(y_pred, axis=-1)
    if pred.dtype != y_true.dtype:
        pred = A.cast(pred, y_true.dtype)
    matches = A.cast(M.equal(y_true, pred), _floatx())
    return A.reshape(matches, shape) if reshape else matches


class Accuracy(MeanMetricWrapper):
    """How often predictions equal labels."""

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    """How often ``y_pred > threshold`` matches binary labels."""

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of predictions matches one-hot labels."""

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    """How often the argmax of predictions matches integer labels."""

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name, dtype=dtype)
