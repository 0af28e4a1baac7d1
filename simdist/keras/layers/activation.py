"""Activation layers with their own parameters: ``LeakyReLU``, ``ReLU`` and ``Softmax``.

Glossary:
  alpha / negative_slope -- the slope below the threshold (LeakyReLU's default 0.3, kept
                            as a float32 number as Keras's ``cast_to_floatx``).
  max_value / threshold  -- ReLU's cap and the input below which it gives the slope's line.
  mask (Softmax)         -- 1 keeps a position, 0 drops it: a large negative number (-1e9,
                            float16's min / 2) is added to the dropped logits (or, with
                            ``robust_masking``, put in their place) before the softmax.

Mirrors tf_keras/src/layers/activation/leaky_relu.py, relu.py and softmax.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import activations
from simdist.keras.engine.base_layer import Layer, same_shape


class LeakyReLU(Layer):
    """``x`` for ``x >= 0``, ``alpha * x`` below (``tf.keras.layers.LeakyReLU``)."""

    _SUPPORTS_MASKING = True

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError("The alpha value of a Leaky ReLU layer cannot be None, "
                             f"Expecting a float. Received: {alpha}")
        self.supports_masking = True
        self.alpha = np.float32(alpha)

    def call(self, inputs):
        return activations.relu(inputs, alpha=self.alpha)

    compute_output_shape = same_shape

    def get_config(self):
        return {**super().get_config(), "alpha": float(self.alpha)}


class ReLU(Layer):
    """Rectified linear unit with optional cap, slope and threshold
    (``tf.keras.layers.ReLU``)."""

    _SUPPORTS_MASKING = True

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. "
                             f"Received: {max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: {negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError("threshold of a ReLU layer cannot be a negative value. "
                             f"Received: {threshold}")
        self.supports_masking = True
        self.max_value = None if max_value is None else np.float32(max_value)
        self.negative_slope = np.float32(negative_slope)
        self.threshold = np.float32(threshold)

    def call(self, inputs):
        return activations.relu(inputs, alpha=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    compute_output_shape = same_shape

    def get_config(self):
        # Keras keeps them as float32 numbers (LeakyReLU's alpha as a Python float).
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


def _large_compatible_negative(dtype):
    """A large negative logit that the dtype can hold (float16's min halved, so that sums of
    negative inputs do not overflow)."""
    return dtypes.float16.min / 2.0 if dtype == dtypes.float16 else -1e9


class Softmax(Layer):
    """The softmax of the inputs along ``axis``, masked positions left out
    (``tf.keras.layers.Softmax``)."""

    _SUPPORTS_MASKING = True

    def __init__(self, axis=-1, robust_masking=False, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.robust_masking = robust_masking
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            negative = _large_compatible_negative(inputs.dtype)
            if self.robust_masking:
                # As Keras, by identity: a NumPy bool mask is compared with 0.5 too (TF's
                # TypeError: 0.5 cannot be a bool constant).
                if mask.dtype is not dtypes.bool_:
                    mask = M.greater(mask, A.constant(0.5, dtype=mask.dtype))
                inputs = A.where(mask, inputs, negative)
            else:
                inputs = inputs + (1.0 - A.cast(mask, inputs.dtype)) * negative
        if isinstance(self.axis, (tuple, list)) and len(self.axis) > 1:
            return M.exp(inputs - M.reduce_logsumexp(inputs, axis=self.axis, keepdims=True))
        axis = self.axis[0] if isinstance(self.axis, (tuple, list)) else self.axis
        return activations.softmax(inputs, axis=axis)

    compute_output_shape = same_shape

    def get_config(self):
        config = {"axis": self.axis}
        if self.robust_masking:
            config["robust_masking"] = True
        return {**super().get_config(), **config}
