"""Core layers: Dense, Activation, Flatten, Dropout, InputLayer.

Glossary:
  Dense    -- ``activation(inputs @ kernel + bias)``; kernel ``glorot_uniform`` and bias
              ``zeros`` by default, as Keras.
  Dropout  -- in training, zero each unit with probability ``rate`` and scale the rest by
              ``1 / (1 - rate)``; identity at inference. Seeded masks are reproducible.
  Flatten  -- keep the batch dimension, flatten the rest.

Mirrors keras/src/layers/core/dense.py, activation.py, reshaping/flatten.py,
regularization/dropout.py.
"""

from __future__ import annotations

import math

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import random_ops as R
from simdist.keras import activations, initializers, regularizers
from simdist.keras.engine.base_layer import Layer, same_shape
from simdist.keras.engine.input_spec import InputSpec


class Dense(Layer):
    """A densely-connected layer (``tf.keras.layers.Dense``)."""

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if kernel_constraint is not None or bias_constraint is not None:
            raise NotImplementedError(
                "Weight constraints are not simulated by simdist; apply them yourself after "
                "each step (w.assign(constraint(w))) or leave them out.")
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.units = int(units) if not isinstance(units, int) else units
        if self.units < 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.input_spec = InputSpec(min_ndim=2)

    def build(self, input_shape):
        last = input_shape[-1] if input_shape else None
        if last is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        self.kernel = self.add_weight("kernel", shape=[last, self.units],
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, trainable=True)
        self.bias = (self.add_weight("bias", shape=[self.units],
                                     initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer, trainable=True)
                     if self.use_bias else None)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        super().build(input_shape)

    def _weight(self, w):
        t = A._t(w)
        cd = dtypes.as_dtype(self.compute_dtype)
        return A.cast(t, cd) if t.dtype != cd else t

    def call(self, inputs):
        x = inputs
        if x.dtype != dtypes.as_dtype(self.compute_dtype):  # integer inputs too, as Keras
            x = A.cast(x, self.compute_dtype)
        if x.ndim > 2:
            # Keras uses tensordot over the last axis for rank > 2 inputs.
            shape = list(x.shape)
            x2 = A.reshape(x, [-1, shape[-1]])
            out = A.reshape(M.matmul(x2, self._weight(self.kernel)), shape[:-1] + [self.units])
        else:
            out = M.matmul(x, self._weight(self.kernel))
        if self.use_bias:
            out = M.add(out, self._weight(self.bias))
        return self.activation(out)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(units=self.units, activation=activations.serialize(self.activation),
                   use_bias=self.use_bias)
        return cfg


class Activation(Layer):
    """Applies an activation function (``tf.keras.layers.Activation``)."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    compute_output_shape = same_shape


class Flatten(Layer):
    """Flattens every dimension but the batch one."""

    def call(self, inputs):
        n = inputs.shape[0]
        return A.reshape(inputs, [n, -1] if inputs.ndim > 1 else [n, 1])

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        return (input_shape[0], math.prod(rest) if all(r is not None for r in rest) else None)


class Dropout(Layer):
    """Randomly zeroes inputs with probability ``rate`` during training."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value "
                             "between 0 and 1.")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return A.identity(inputs)
        if self.rate >= 1:
            raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                             f"Received: rate={self.rate}")
        shape = list(self.noise_shape) if self.noise_shape is not None else list(inputs.shape)
        shape = [inputs.shape[i] if s is None else s for i, s in enumerate(shape)]
        keep = R.uniform(shape, dtype=inputs.dtype, seed=self.seed)
        mask = A.cast(M.greater_equal(keep, A.constant(self.rate, dtype=inputs.dtype)),
                      inputs.dtype)
        scale = A.constant(1.0 / (1.0 - self.rate), dtype=inputs.dtype)
        return M.multiply(M.multiply(inputs, scale), mask)

    compute_output_shape = same_shape


class InputLayer(Layer):
    """The layer a Keras ``Input`` stands for: it only records the input shape."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, name=None, **kwargs):
        shape = kwargs.pop("shape", input_shape)
        super().__init__(name=name, dtype=dtype)
        self._batch_input_shape = (batch_size,) + tuple(shape or ())
