"""Activation layers with their own parameters: ``LeakyReLU`` and ``ReLU``.

Glossary:
  alpha / negative_slope -- the slope below the threshold (LeakyReLU's default 0.3, kept
                            as a float32 number as Keras's ``cast_to_floatx``).
  max_value / threshold  -- ReLU's cap and the input below which it gives the slope's line.

Mirrors tf_keras/src/layers/activation/leaky_relu.py and relu.py.
"""

from __future__ import annotations

import numpy as np

from simdist.keras import activations
from simdist.keras.engine.base_layer import Layer, same_shape


class LeakyReLU(Layer):
    """``x`` for ``x >= 0``, ``alpha * x`` below (``tf.keras.layers.LeakyReLU``)."""

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
