"""``Normalization``: features shifted and scaled to mean 0 and variance 1.

Glossary:
  axis          -- the axes that keep their own mean and variance (-1: one per feature;
                   None: one for everything); the others are reduced over.
  adapt         -- learns ``mean`` / ``variance`` (non-trainable weights 'mean',
                   'variance', 'count') batch by batch, combining batches by their counts
                   as Keras does (Chan's parallel update, so the float rounding is Keras's).
  mean / variance -- given directly instead (constants, not weights), or the adapted
                   weights reshaped to broadcast against the input (made by
                   ``finalize_state``: after adapt, and after load_model restored them).
  call          -- ``(x - mean) / max(sqrt(variance), epsilon)``; ``invert=True`` undoes it.
                   On a symbolic input its unknown dimensions take the mean's (broadcast).

Mirrors tf_keras/src/layers/preprocessing/normalization.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute
from simdist.framework import variables as variables_lib
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import backend
from simdist.keras.engine.base_preprocessing_layer import PreprocessingLayer


class Normalization(PreprocessingLayer):
    """Normalizes features (``tf.keras.layers.Normalization``)."""

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        for name, value in (("mean", mean), ("variance", variance)):
            if isinstance(value, variables_lib.Variable):
                raise ValueError(f"Normalization does not support passing a Variable for the "
                                 f"`{name}` init arg.")
        if (mean is not None) != (variance is not None):
            raise ValueError("When setting values directly, both `mean` and `variance` must be "
                             f"set. Got mean: {mean} and variance: {variance}")
        self.input_mean, self.input_variance, self.invert = mean, variance, invert

    def build(self, input_shape):
        super().build(input_shape)
        shape = [None if d is None else int(d) for d in input_shape]
        ndim = len(shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError("All `axis` values must be in the range [-ndim, ndim). Found "
                             f"ndim: `{ndim}`, axis: {self.axis}")
        self._keep_axis = sorted(d if d >= 0 else d + ndim for d in self.axis)
        for d in self._keep_axis:
            if shape[d] is None:
                raise ValueError(f"All `axis` values to be kept must have known shape. Got "
                                 f"axis: {self.axis}, input shape: {shape}, with unknown axis "
                                 f"at index: {d}")
        self._reduce_axis = [d for d in range(ndim) if d not in self._keep_axis]
        self._broadcast_shape = [shape[d] if d in self._keep_axis else 1 for d in range(ndim)]
        kept = tuple(shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=kept, dtype=self.compute_dtype,
                                              initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=kept,
                                                  dtype=self.compute_dtype,
                                                  initializer="ones", trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype=dtypes.int64,
                                         initializer="zeros", trainable=False)
            self.finalize_state()
        else:
            self.mean = self._constant(self.input_mean, kept)
            self.variance = self._constant(self.input_variance, kept)

    def _constant(self, value, kept):
        value = np.asarray(getattr(value, "numpy", lambda: value)()) * np.ones(kept)
        return A.cast(A.reshape(A.constant(value), self._broadcast_shape), self.compute_dtype)

    def update_state(self, data):
        if self.input_mean is not None:
            raise ValueError("Cannot `adapt` a Normalization layer that is initialized with "
                             f"static `mean` and `variance`, you passed mean "
                             f"{self.input_mean} and variance {self.input_variance}.")
        if not self.built:
            raise RuntimeError("`build` must be called before `update_state`.")
        data = self._standardize_inputs(data)
        axes = self._reduce_axis
        batch_mean = M.reduce_mean(data, axis=axes)
        batch_variance = M.reduce_mean(M.squared_difference(
            data, M.reduce_mean(data, axis=axes, keepdims=True)), axis=axes)
        batch_count = int(np.prod([data.shape[d] for d in axes])) if axes else 1
        total_count = batch_count + int(self.count.numpy())
        real = dtypes.as_dtype(self.compute_dtype).as_numpy_dtype  # Keras divides in it
        batch_weight = A.constant(real(batch_count) / real(total_count))
        existing_weight = 1.0 - batch_weight
        old_mean, old_variance = A._t(self.adapt_mean), A._t(self.adapt_variance)
        total_mean = old_mean * existing_weight + batch_mean * batch_weight
        total_variance = ((old_variance + (old_mean - total_mean) ** 2) * existing_weight
                          + (batch_variance + (batch_mean - total_mean) ** 2) * batch_weight)
        self.adapt_mean.assign(total_mean)
        self.adapt_variance.assign(total_variance)
        self.count.assign(total_count)

    def reset_state(self):
        if self.input_mean is not None or not self.built:
            return
        self.adapt_mean.assign(A.zeros_like(self.adapt_mean))
        self.adapt_variance.assign(A.ones_like(self.adapt_variance))
        self.count.assign(0)

    def finalize_state(self):
        if self.input_mean is not None or not self.built:
            return
        self.mean = A.cast(A.reshape(self.adapt_mean, self._broadcast_shape), self.compute_dtype)
        self.variance = A.cast(A.reshape(self.adapt_variance, self._broadcast_shape),
                               self.compute_dtype)

    def _variables_restored(self):
        self.finalize_state()   # tf-keras's load_own_variables: mean / variance anew

    def call(self, inputs):
        x = self._standardize_inputs(inputs)
        scale = M.maximum(M.sqrt(self.variance), backend.epsilon())
        return self.mean + x * scale if self.invert else (x - self.mean) / scale

    def _maybe_cast(self, x):
        return x  # _standardize_inputs casts, integers included

    def _standardize_inputs(self, inputs):
        t = execute.convert_to_tensor(inputs)
        return t if t.dtype == self.compute_dtype else A.cast(t, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return input_shape

    def _symbolic_output_shape(self, input_shape):
        """The shape of its call on a symbolic input (a Sequential's graph): the input's
        broadcast against the mean's, so an adapted mean of shape (1, 9) gives (None, None)
        inputs a known last dimension, as Keras's call on a KerasTensor does."""
        if getattr(self, "mean", None) is None or input_shape is None:
            return input_shape
        dims, mean_dims = list(input_shape), list(self.mean.shape)
        if len(mean_dims) > len(dims):
            return input_shape
        for i in range(1, len(mean_dims) + 1):
            if dims[-i] is None and mean_dims[-i] not in (None, 1):
                dims[-i] = mean_dims[-i]
        return tuple(dims)

    def get_config(self):
        config = super().get_config()
        config.update(axis=self.axis, invert=self.invert, mean=_listify(self.input_mean),
                      variance=_listify(self.input_variance))
        return config


def _listify(value):
    if hasattr(value, "numpy"):
        value = value.numpy()
    return value.tolist() if isinstance(value, np.ndarray) else value
