"""NumPy helpers of Keras's utils.

Glossary:
  to_categorical -- class indices to one-hot rows (a trailing axis of 1 is replaced).
  normalize      -- an array divided by its ``order``-norm along ``axis`` (zero norms as 1).

Mirrors tf_keras/src/utils/np_utils.py.
"""

from __future__ import annotations

import numpy as np


def _indices(y):
    """The labels as a flat int array, their shape without a trailing axis of 1."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    return y.reshape(-1), input_shape


def to_categorical(y, num_classes=None, dtype="float32"):
    """A class vector (integers 0 to ``num_classes - 1``) as a binary class matrix."""
    y, input_shape = _indices(y)
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """A copy of ``x`` divided by its ``order``-norm along ``axis``."""
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
