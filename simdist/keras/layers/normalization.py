"""BatchNormalization and its cross-replica variant SyncBatchNormalization.

Glossary:
  moments          -- batch mean and variance over every axis but the feature axis.
  moving_mean/var  -- running statistics used at inference; sync-on-read MEAN variables, as
                      Keras creates them, updated ``var -= (var - batch) * (1 - momentum)``.
  SyncBatchNorm    -- the mean and variance of the *global* batch: each replica's sum, sum of
                      squares and count are all-reduced (SUM) through the replica context.

Mirrors keras/src/layers/normalization/batch_normalization.py.
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds
from simdist.distribute.reduce_util import ReduceOp
from simdist.framework import dtypes, variables
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import initializers
from simdist.keras.engine.base_layer import Layer, same_shape
from simdist.keras.engine.input_spec import InputSpec


class BatchNormalization(Layer):
    """Normalize with batch statistics in training, moving statistics at inference."""

    _synchronized = False

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 synchronized=False, **kwargs):
        for k in ("beta_regularizer", "gamma_regularizer", "beta_constraint",
                  "gamma_constraint", "fused", "renorm", "virtual_batch_size", "adjustment"):
            kwargs.pop(k, None)
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon = axis, momentum, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self._synchronized = self._synchronized or synchronized

    def build(self, input_shape):
        rank = len(input_shape)
        if not -rank <= self.axis < rank:
            raise ValueError("Invalid value for `axis` argument. Expected 0 <= axis < "
                             f"inputs.rank (with inputs.rank={rank}). Received: "
                             f"axis=({self.axis},)")
        self._axis = self.axis % rank
        dim = input_shape[self._axis]
        param_dtype = dtypes.float32 if self.variable_dtype in ("float16", "bfloat16") \
            else self.variable_dtype
        self.gamma = (self.add_weight("gamma", [dim], param_dtype, self.gamma_initializer)
                      if self.scale else None)
        self.beta = (self.add_weight("beta", [dim], param_dtype, self.beta_initializer)
                     if self.center else None)
        on_read = dict(synchronization=variables.VariableSynchronization.ON_READ,
                       aggregation=variables.VariableAggregation.MEAN, trainable=False)
        self.moving_mean = self.add_weight("moving_mean", [dim], param_dtype,
                                           self.moving_mean_initializer, **on_read)
        self.moving_variance = self.add_weight("moving_variance", [dim], param_dtype,
                                               self.moving_variance_initializer, **on_read)
        self.input_spec = InputSpec(ndim=rank, axes={self._axis: dim})
        super().build(input_shape)

    def _moments(self, x, axes):
        if not self._synchronized or ds.get_replica_context() is None \
                or ds.get_strategy().num_replicas_in_sync == 1:
            mean = M.reduce_mean(x, axis=axes, keepdims=True)
            var = M.reduce_mean(M.squared_difference(x, A.stop_gradient(mean)), axis=axes,
                                keepdims=True)
            return A.squeeze(mean, axes), A.squeeze(var, axes)
        # Cross-replica statistics: all-reduce local sums, sums of squares and counts.
        ctx = ds.get_replica_context()
        local_sum = M.reduce_sum(x, axis=axes)
        local_sq = M.reduce_sum(M.square(x), axis=axes)
        count = 1
        for a in axes:
            count *= x.shape[a]
        local_count = A.fill([1], A.constant(float(count), dtype=x.dtype))
        g_sum, g_sq, g_count = ctx.all_reduce(ReduceOp.SUM, [local_sum, local_sq, local_count])
        mean = M.divide(g_sum, g_count)
        var = M.subtract(M.divide(g_sq, g_count), M.square(mean))
        return mean, var

    def call(self, inputs, training=None):
        x = inputs
        in_dtype = x.dtype
        if in_dtype == dtypes.float16:
            x = A.cast(x, dtypes.float32)
        axes = [i for i in range(x.ndim) if i != self._axis]
        if not self.trainable:
            training = False  # a frozen BN normalizes with its moving statistics (Keras 2)
        if training:
            mean, var = self._moments(x, axes)
            decay = 1.0 - self.momentum
            for moving, value in ((self.moving_mean, mean), (self.moving_variance, var)):
                delta = M.multiply(M.subtract(moving.read_value(), A.stop_gradient(value)),
                                   A.constant(decay, dtype=value.dtype))
                moving.assign_sub(delta)
        else:
            mean, var = self.moving_mean.read_value(), self.moving_variance.read_value()
        inv = M.rsqrt(M.add(var, A.constant(self.epsilon, dtype=var.dtype)))
        if self.gamma is not None:
            inv = M.multiply(inv, self.gamma)
        offset = M.negative(M.multiply(mean, inv))
        if self.beta is not None:
            offset = M.add(self.beta, offset)
        shape = [1] * x.ndim
        shape[self._axis] = x.shape[self._axis]
        out = M.add(M.multiply(x, A.reshape(inv, shape)), A.reshape(offset, shape))
        return A.cast(out, in_dtype) if out.dtype != in_dtype else out

    compute_output_shape = same_shape


class SyncBatchNormalization(BatchNormalization):
    """BatchNormalization with the statistics of the global batch across replicas."""

    _synchronized = True
