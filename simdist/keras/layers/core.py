"""Core layers: Dense, Activation, Flatten, Dropout.

Glossary:
  Dense       -- ``activation(inputs @ kernel + bias)``; kernel ``glorot_uniform`` and bias
                 ``zeros`` by default, as Keras. A 2-D SparseTensor input is multiplied
                 by tf-keras's embedding lookup (_sparse_matmul).
  Dropout     -- in training, zero each unit with probability ``rate`` and scale the rest by
                 ``1 / (1 - rate)``; identity at inference. Seeded masks are reproducible.
                 As Keras, only a number is range-checked when the layer is made; a scalar
                 tensor is a valid rate, anything else (a string) fails when it is used.
  Flatten     -- keep the batch dimension, flatten the rest; ``channels_first`` input has
                 its channels moved last first, so both formats flatten in the same order.
  get_config  -- every constructor argument, initializers and regularizers as Keras's
                 config dicts (``initializers.serialize``), so ``from_config`` rebuilds it.

Mirrors keras/src/layers/core/dense.py, activation.py, reshaping/flatten.py,
regularization/dropout.py.
"""

from __future__ import annotations

import math
import numbers

from simdist.framework import dtypes, func_graph
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import (
    dropout_ops,
    embedding_ops,
    random_ops,
    sparse_ops,
    tensordot_ops,
)
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops as N
from simdist.framework.sparse_tensor import SparseTensor
from simdist.keras import activations, initializers, regularizers
from simdist.keras.engine.base_layer import Layer, refuse_constraints, same_shape
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.utils import control_flow_util, conv_utils


class Dense(Layer):
    """A densely-connected layer (``tf.keras.layers.Dense``)."""

    _SUPPORTS_MASKING = True

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        refuse_constraints(kernel_constraint, bias_constraint)
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

    def call(self, inputs):
        x = inputs
        if x.dtype != dtypes.as_dtype(self.compute_dtype):  # integer inputs too, as Keras
            x = A.cast(x, self.compute_dtype)
        rank = x.shape.rank
        if isinstance(x, SparseTensor) and rank in (2, None):
            out = _sparse_matmul(x, self._weight(self.kernel))
        elif rank is not None and rank > 2:   # tf-keras: tensordot over the last axis
            kernel = self.kernel if self.kernel.dtype == x.dtype else self._weight(self.kernel)
            out = tensordot_ops.tensordot(x, kernel, [[rank - 1], [0]])   # (read in its scope)
            if func_graph.current() is not None:   # its static shape, as tf-keras sets it
                out.set_shape(x.shape.as_list()[:-1] + [self.units])
        else:
            out = M.matmul(x, self._weight(self.kernel))
        if self.use_bias:
            out = N.bias_add(out, self._weight(self.bias))  # TF's Dense: tf.nn.bias_add
        return self.activation(out)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(units=self.units, activation=activations.serialize(self.activation),
                   use_bias=self.use_bias, **kernel_bias_config(self))
        return cfg


def _sparse_matmul(x, kernel):
    """``x @ kernel`` for a 2-D SparseTensor ``x`` as tf-keras's Dense makes it: empty rows
    filled with a 0 at column 0, then embedding_lookup_sparse of the column ids weighted by
    the values, summed per row (a sparse gradient for the kernel)."""
    x, _ = sparse_ops.fill_empty_rows(x, 0)
    ids = SparseTensor(x.indices, x.indices[:, 1], x.dense_shape)
    return embedding_ops.embedding_lookup_sparse(kernel, ids, x, combiner="sum")


def kernel_bias_config(layer) -> dict:
    """The config entries of a layer's kernel and bias (Dense, Conv2D)."""
    return dict(kernel_initializer=initializers.serialize(layer.kernel_initializer),
                bias_initializer=initializers.serialize(layer.bias_initializer),
                kernel_regularizer=regularizers.serialize(layer.kernel_regularizer),
                bias_regularizer=regularizers.serialize(layer.bias_regularizer),
                activity_regularizer=regularizers.serialize(layer.activity_regularizer),
                kernel_constraint=None, bias_constraint=None)  # constraints are refused


class Activation(Layer):
    """Applies an activation function (``tf.keras.layers.Activation``)."""

    _SUPPORTS_MASKING = True

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    compute_output_shape = same_shape

    def get_config(self):
        cfg = super().get_config()
        cfg.update(activation=activations.serialize(self.activation))
        return cfg


class Flatten(Layer):
    """Flattens every dimension but the batch one."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        x = inputs
        if self.data_format == "channels_first" and x.ndim > 1:
            x = A.transpose(x, [0] + list(range(2, x.ndim)) + [1])  # channels last
        n = x.shape[0]
        if n is not None and func_graph.current() is None:   # eagerly
            return A.reshape(x, [n, -1] if x.ndim > 1 else [n, 1])
        # traced: tf-keras's graph branch, its shape a Const ('flatten/Const') made first
        rest = x.shape.as_list()[1:]
        if x.ndim == 1:
            return A.expand_dims(x, 1)
        if all(d is not None for d in rest):
            return A.reshape(x, A.constant([-1, math.prod(rest)]))
        if n is not None:
            return A.reshape(x, A.constant([n, -1]))
        return A.reshape(x, A.concat([A.shape(x)[:1], A.constant([-1])], 0))

    def compute_output_shape(self, input_shape):
        if not input_shape:
            return (1,)
        rest = input_shape[1:]
        # As Keras's np.all: an unknown or a zero dimension leaves the size unknown.
        size = math.prod(rest) if all(rest) else None
        return (input_shape[0], size)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(data_format=self.data_format)
        return cfg


class Dropout(Layer):
    """Randomly zeroes inputs with probability ``rate`` during training."""

    _SUPPORTS_MASKING = True

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value "
                             "between 0 and 1.")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs, training=None):
        if isinstance(self.rate, numbers.Real) and self.rate == 0:
            return A.identity(inputs)
        # (Keras's smart_cond: a boolean tensor being traced builds both branches)
        return control_flow_util.smart_cond(training, lambda: self._dropout_impl(inputs),
                                            lambda: A.identity(inputs))

    def _legacy_seed(self):
        """seed, seed + 1, ... per trace (RandomGenerator.make_legacy_seed); None unseeded.
        A replayed step function keeps the seed it was traced with. Building a graph network
        takes none (TF 2.21: a Sequential's fit traces its train_function twice, with op
        seeds seed and seed + 1)."""
        if self.seed is None:
            return None
        seed = getattr(self, "_next_seed", self.seed)
        if random_ops.is_tracing():
            self._next_seed = seed + 1
        return seed

    def _dropout_impl(self, x):
        """tf.nn.dropout with Keras's legacy seeds: a seeded layer's calls (traces, in a
        step function) use seed, seed + 1, ... (RandomGenerator.make_legacy_seed); an
        unseeded one passes None."""
        return dropout_ops.dropout(x, self.rate, noise_shape=self.noise_shape,
                                   seed=self._legacy_seed())

    compute_output_shape = same_shape

    def get_config(self):
        cfg = super().get_config()
        cfg.update(rate=self.rate, noise_shape=self.noise_shape, seed=self.seed)
        return cfg
