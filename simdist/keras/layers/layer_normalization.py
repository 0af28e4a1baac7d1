"""``LayerNormalization``: normalize each example over its feature axes.

Glossary:
  axis     -- the axes normalized over (the last by default); gamma and beta have their
              sizes.
  moments  -- the mean and biased variance over ``axis`` of each example (``tf.nn.moments``).
  fused    -- Keras's choice of kernel: for trailing contiguous axes, float32 and
              ``epsilon >= 1.001e-5`` it runs FusedBatchNormV3 (training, NCHW) on the
              input reshaped to ``(1, rows, values, 1)`` -- each example a feature -- then
              scales and shifts (``normalized * gamma + beta``), and its gradient is
              FusedBatchNormGradV3's; otherwise it folds gamma in first, as
              tf.nn.batch_normalization (``x * inv + (beta - mean * inv)``). Both are the
              same function; their roundings differ.
  16-bit   -- float16 inputs of a float32 layer are normalized in float32 and cast back
              (the fused kernel's statistics are float32; its output is the input's dtype).

Mirrors tf_keras/src/layers/normalization/layer_normalization.py (its fused path:
tensorflow/core/kernels/fused_batch_norm_op.cc, simdist's fused_batch_norm_ops.py).
"""

from __future__ import annotations

import math

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import fused_batch_norm_ops
from simdist.framework.ops import math_ops as M
from simdist.keras import initializers, regularizers
from simdist.keras.engine.base_layer import Layer, refuse_constraints, same_shape
from simdist.keras.utils import tf_utils


class LayerNormalization(Layer):
    """Layer normalization (``tf.keras.layers.LayerNormalization``)."""

    _SUPPORTS_MASKING = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', "
                            f"but received: {axis!r}")
        refuse_constraints(beta_constraint, gamma_constraint)
        self.epsilon, self.center, self.scale = epsilon, center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self._fused = None

    def _fused_can_be_used(self, ndims) -> bool:
        axis = sorted(self.axis)
        contiguous = axis[-1] == ndims - 1 and axis[-1] - axis[0] == len(axis) - 1
        return contiguous and self.epsilon >= 1.001e-5 and self.dtype == "float32"

    def build(self, input_shape):
        self.axis = tf_utils.validate_axis(self.axis, input_shape)
        param_shape = [input_shape[d] for d in self.axis]
        self.gamma = (self.add_weight("gamma", shape=param_shape,
                                      initializer=self.gamma_initializer,
                                      regularizer=self.gamma_regularizer, trainable=True)
                      if self.scale else None)
        self.beta = (self.add_weight("beta", shape=param_shape,
                                     initializer=self.beta_initializer,
                                     regularizer=self.beta_regularizer, trainable=True)
                     if self.center else None)
        self._fused = self._fused_can_be_used(len(input_shape))
        super().build(input_shape)

    def _broadcast(self, v, ndims, shape):
        if v is None or len(v.shape) == ndims or self.axis == [ndims - 1]:
            return v
        target = [1] * ndims
        for d in self.axis:
            target[d] = shape[d]
        return A.reshape(v, target)

    def call(self, inputs):
        x = inputs
        if x.dtype != dtypes.as_dtype(self.compute_dtype):
            x = A.cast(x, self.compute_dtype)
        ndims, shape = x.ndim, list(x.shape)
        gamma = self._broadcast(self.gamma, ndims, shape)
        beta = self._broadcast(self.beta, ndims, shape)
        if self._fused:
            out = self._fused_normalized(x)
            if gamma is not None:
                out = M.multiply(out, A.cast(gamma, out.dtype))
            if beta is not None:
                out = M.add(out, A.cast(beta, out.dtype))
            return out
        input_dtype = x.dtype
        if input_dtype.name in ("float16", "bfloat16") and self.dtype == "float32":
            x = A.cast(x, dtypes.float32)
        mean = M.reduce_mean(x, axis=self.axis, keepdims=True)
        var = M.reduce_mean(M.squared_difference(x, A.stop_gradient(mean)), axis=self.axis,
                            keepdims=True)
        inv = M.rsqrt(M.add(var, A.constant(self.epsilon, dtype=var.dtype)))
        if gamma is not None:
            inv = M.multiply(inv, gamma)
        offset = M.negative(M.multiply(mean, inv))
        if beta is not None:
            offset = M.add(beta, offset)
        out = M.add(M.multiply(x, inv), offset)
        return A.cast(out, input_dtype) if out.dtype != input_dtype else out

    def _fused_normalized(self, x):
        """Keras's fused path before gamma and beta: FusedBatchNormV3 in training on ``x``
        reshaped to NCHW ``(1, rows, values, 1)`` (each example's values a feature's
        batch), scale ones and offset zeros, reshaped back."""
        first = self.axis[0]
        if None in tuple(x.shape):   # traced with unknown dimensions: at each execution
            shape = A.shape(x)
            pre, inner = M.reduce_prod(shape[:first]), M.reduce_prod(shape[first:])
            squeezed, ones = A.stack([1, pre, inner, 1]), A.ones(A.stack([pre]))
        else:
            shape = x.shape
            pre = math.prod(shape[:first])
            squeezed, ones = [1, pre, math.prod(shape[first:]), 1], A.ones([pre])
        out = fused_batch_norm_ops.fused_batch_norm_v3(
            A.reshape(x, squeezed), ones, A.zeros_like(ones), epsilon=self.epsilon,
            data_format="NCHW")[0]
        return A.reshape(out, shape)

    compute_output_shape = same_shape

    def get_config(self):
        cfg = super().get_config()
        cfg.update(axis=self.axis, epsilon=self.epsilon, center=self.center, scale=self.scale,
                   beta_initializer=initializers.serialize(self.beta_initializer),
                   gamma_initializer=initializers.serialize(self.gamma_initializer),
                   beta_regularizer=regularizers.serialize(self.beta_regularizer),
                   gamma_regularizer=regularizers.serialize(self.gamma_regularizer),
                   beta_constraint=None, gamma_constraint=None)
        return cfg
