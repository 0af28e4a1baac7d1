"""BatchNormalization and its cross-replica variant SyncBatchNormalization.

Glossary:
  axis             -- the feature axis (or axes) kept; the statistics reduce every other
                      axis. One axis gives weights of shape ``(dim,)``; several give the
                      input's rank with 1 on the reduced axes (``axis=[1, 2]`` on
                      ``(n, 3, 4)`` -> ``(1, 3, 4)``), as Keras's ``param_shape``.
  moments          -- batch mean and (biased) variance over the reduced axes.
  moving_mean/var  -- running statistics used at inference; sync-on-read MEAN variables, as
                      Keras creates them, updated ``var -= (var - batch) * (1 - momentum)``.
  fused            -- the fused kernel Keras picks by default for 4-D/5-D input with the
                      feature axis first or last after the batch (axis 1 or 3 of 4-D, 1 or
                      4 of 5-D), not synchronized, computing in float16/bfloat16/float32.
                      Its own arithmetic (fused_batch_norm.py): the statistics as sums
                      times ``1 / n``, ``(x - mean) * (rsqrt(var + eps) * gamma) + beta``,
                      and the moving variance moved toward the *unbiased* batch variance
                      (``n / (n - 1)`` times the biased one); its gradient is TF's
                      FusedBatchNormGradV3 (training) or freeze gradient (inference).
  empty batch      -- a replica handed no rows (MirroredStrategy splits a short last batch
                      2, 2, 2, 0). Under a strategy that does this
                      (``extended.experimental_enable_get_next_as_optional``) that replica's
                      statistics are zeros and its copy of the moving statistics is left as
                      it was; elsewhere the mean of nothing is NaN, as in TF.
  SyncBatchNorm    -- the mean and variance of the *global* batch: each replica's sum, sum of
                      squares and count are all-reduced (SUM, three collectives, as Keras)
                      through the replica context.

Mirrors keras/src/layers/normalization/batch_normalization.py.
"""

from __future__ import annotations

import math

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.reduce_util import ReduceOp
from simdist.framework import dtypes, variables
from simdist.framework.name_scope import name_scope, op_scope
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import control_flow_util, nn_impl
from simdist.framework.ops import math_ops as M
from simdist.keras import initializers, regularizers
from simdist.keras.engine.base_layer import Layer, same_shape
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.layers import fused_batch_norm
from simdist.keras.utils import tf_utils
from simdist.keras.utils.control_flow_util import smart_cond

# Feature axes the fused kernel takes, before the rank is known (Keras's list), and the
# (axis, rank) pairs it accepts once it is (NCHW, NCDHW, NHWC, NDHWC).
_FUSED_AXES = (-4, -3, -1, 1, 3, 4)
_FUSED_LAYOUTS = ((1, 4), (1, 5), (3, 4), (4, 5))


class BatchNormalization(Layer):
    """Normalize with batch statistics in training, moving statistics at inference."""

    _SUPPORTS_MASKING = True

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
                 adjustment=None, name=None, synchronized=False, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        _refuse_unsimulated(beta_constraint=beta_constraint, gamma_constraint=gamma_constraint,
                            renorm=renorm or None, virtual_batch_size=virtual_batch_size,
                            adjustment=adjustment)
        if isinstance(axis, (list, tuple)):
            self.axis = axis[:]
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', "
                            f"but received: {axis!r}")
        if synchronized and fused:
            raise ValueError("`fused=True` is not supported when `synchronized=True`.")
        self.synchronized = bool(synchronized)
        self.momentum, self.epsilon = momentum, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        if self.synchronized:
            fused = False
        elif fused:
            self._raise_if_fused_cannot_be_used()
        elif fused is None and not self._fused_can_be_used():
            fused = False
        # None until build: fused then if the input is 4-D or 5-D.
        self.fused = fused

    def _raise_if_fused_cannot_be_used(self):
        """Keras's conditions for the fused kernel that do not need the input's rank."""
        axis = [self.axis] if isinstance(self.axis, int) else self.axis
        if len(axis) > 1 or axis[0] not in _FUSED_AXES:
            raise ValueError("Passing `fused=True` is only supported when axis is 1 or 3 for "
                             "input rank = 4 or 1 or 4 for input rank = 5. Got axis "
                             f"{list(axis)}")
        if self.compute_dtype not in ("float16", "bfloat16", "float32"):
            raise ValueError("Passing `fused=True` is only supported when the compute dtype "
                             f"is float16, bfloat16, or float32. Got dtype: {self.compute_dtype}")

    def _fused_can_be_used(self) -> bool:
        try:
            self._raise_if_fused_cannot_be_used()
        except ValueError:
            return False
        return True

    @property
    def _param_dtype(self):
        # 16-bit layers keep float32 parameters and statistics, as Keras does.
        dtype = self.variable_dtype
        return dtypes.float32 if dtype in ("float16", "bfloat16") else dtypes.as_dtype(dtype)

    def build(self, input_shape):
        self.axis = tf_utils.validate_axis(self.axis, input_shape)
        rank = len(input_shape)
        self._decide_fused(rank, input_shape)
        axis_to_dim = {a: input_shape[a] for a in self.axis}
        if any(d is None for d in axis_to_dim.values()):
            raise ValueError(f"Input has undefined `axis` dimension. Received input with shape "
                             f"{tuple(input_shape)} and axis={tuple(self.axis)}")
        self.input_spec = InputSpec(ndim=rank, axes=axis_to_dim)
        if len(self.axis) == 1:
            param_shape = [axis_to_dim[self.axis[0]]]
        else:
            param_shape = [axis_to_dim.get(i, 1) for i in range(rank)]

        def weight(name, initializer, regularizer=None, **kw):
            return self.add_weight(name, param_shape, self._param_dtype, initializer,
                                   regularizer=regularizer, **kw)

        self.gamma = (weight("gamma", self.gamma_initializer, self.gamma_regularizer,
                             trainable=True) if self.scale else None)
        self.beta = (weight("beta", self.beta_initializer, self.beta_regularizer,
                            trainable=True) if self.center else None)
        on_read = dict(synchronization=variables.VariableSynchronization.ON_READ,
                       aggregation=variables.VariableAggregation.MEAN, trainable=False)
        self.moving_mean = weight("moving_mean", self.moving_mean_initializer, **on_read)
        self.moving_variance = weight("moving_variance", self.moving_variance_initializer,
                                      **on_read)
        super().build(input_shape)

    def _decide_fused(self, rank, input_shape):
        """Settle ``fused`` now the rank is known (Keras's build)."""
        if self.fused is None:
            self.fused = rank in (4, 5)
        elif self.fused and rank not in (4, 5):
            raise ValueError("Batch normalization layers with `fused=True` only support 4D or "
                             f"5D input tensors. Received tensor with shape: "
                             f"{tuple(input_shape)}")
        if not self.fused or (self.axis[0], rank) in _FUSED_LAYOUTS:
            return
        if rank == 5:
            self.fused = False  # a 5-D input with another axis takes the plain path
            return
        raise ValueError("Unsupported axis. The use of `fused=True` is only possible with "
                         f"`axis=1` or `axis=3` for 4D input tensors. Received: "
                         f"axis={tuple(self.axis)}")

    # --- statistics ---------------------------------------------------------------------
    def _moments(self, x, axes):
        """Batch mean and biased variance, zeros for an empty batch a strategy handed out."""
        keepdims = len(self.axis) > 1  # shaped like the multi-axis parameters
        # Keras takes the synchronized path in any replica context, one replica or none
        # (the default one): E[x^2] - E[x]^2, which cancels catastrophically (to a negative
        # variance, NaN outputs) where the two-pass formula below would not.
        if self.synchronized and ds_context.get_replica_context() is not None:
            mean, var = self._global_moments(x, axes, keepdims)
        else:
            mean, var = nn_impl.moments(x, axes, keepdims=keepdims)
        return self._masked(x, mean, var)

    def _masked(self, x, mean, var):
        """The statistics, zeros on an empty replica (see ``_has_rows``)."""
        has_rows = self._has_rows(x)
        if has_rows is not None:
            # TF's tf.where(batch_size > 0, stat, 0): a gradient path stays, so this replica
            # still joins the backward all-reduce of the synchronized statistics.
            mean = A.where(has_rows, mean, A.zeros_like(mean))
            var = A.where(has_rows, var, A.zeros_like(var))
        return mean, var

    def _fused_training(self, x):
        """The fused kernel in training: its output and the batch's statistics."""
        out, mean, var = fused_batch_norm.train(x, self.axis[0], self.gamma, self.beta,
                                                self.epsilon)
        return (out,) + self._masked(x, mean, var)

    def _global_moments(self, x, axes, keepdims):
        """Mean and variance of the global batch: local sums, sums of squares and counts
        all-reduced (an empty replica adds zeros and still takes part)."""
        ctx = ds_context.get_replica_context()
        local_sum = M.reduce_sum(x, axis=axes, keepdims=keepdims)
        local_sq = M.reduce_sum(M.square(x), axis=axes, keepdims=keepdims)
        if all(x.shape[a] is not None for a in axes):
            count = A.constant(float(math.prod(x.shape[a] for a in axes)), dtype=x.dtype)
        else:   # traced with batch dimension None: the rows of this execution
            count = A.cast(M.reduce_prod(A.gather(A.shape(x), list(axes))), x.dtype)
        local_count = A.fill([1], count)
        # Three all-reduces, not one batched, as Keras launches them (NCCL ordering, b/163099951):
        # the timeline shows three collectives per synchronized layer.
        g_sum, g_sq, g_count = (ctx.all_reduce(ReduceOp.SUM, t)
                                for t in (local_sum, local_sq, local_count))
        mean = M.divide(g_sum, g_count)
        var = M.subtract(M.divide(g_sq, g_count), M.square(mean))
        return mean, var

    def _has_rows(self, x):
        """Under a strategy that can hand a replica an empty batch (Keras's
        ``_support_zero_size_input``), whether this one has rows (a bool tensor: False
        when empty, computed at each execution when traced with batch dimension None): an
        empty replica's statistics are zeros and its moving statistics stay. None: no
        such case."""
        if x.shape[0] not in (0, None) or not ds_context.has_strategy():
            return None
        extended = ds_context.get_strategy().extended
        if not getattr(extended, "enable_partial_batch_handling",
                       getattr(extended, "experimental_enable_get_next_as_optional", False)):
            return None
        if x.shape[0] == 0:
            return A.constant(False)
        return M.greater(A.shape(x)[0], 0)

    def _update_moving_stats(self, x, mean, var):
        """Move the moving statistics toward this batch's (this replica's copy of them)."""
        if self.fused:
            new_mean, new_var = self._moved(x, mean, var)
            if new_mean is not None:
                self.moving_mean.assign(new_mean)
                self.moving_variance.assign(new_var)
            return
        for moving, value in ((self.moving_mean, mean), (self.moving_variance, var)):
            self._move(x, moving, value)

    def _moved(self, x, mean, var):
        """The fused kernel's new moving mean and variance (None, None: an empty replica's
        stay as they are)."""
        has_rows = self._has_rows(x)
        if has_rows is not None and x.shape[0] == 0:
            return None, None  # TF's update delta is masked to zero on an empty replica
        new = fused_batch_norm.moved(x, self.axis[0], *self._moving(), A.stop_gradient(mean),
                                     A.stop_gradient(var), self.momentum)
        if has_rows is not None:   # traced: masked at each execution
            new = tuple(A.where(has_rows, t, old) for t, old in zip(new, self._moving()))
        return new

    def _move(self, x, moving, value):
        """``moving -= (moving - value) * (1 - momentum)`` (masked on an empty replica)."""
        has_rows = self._has_rows(x)
        if has_rows is not None and x.shape[0] == 0:
            return moving.read_value()
        with name_scope("AssignMovingAvg") as scope:   # Keras's _assign_moving_average
            decay = A.constant(1.0 - self.momentum, dtype=moving.dtype, name="decay")
            delta = (moving - value) * decay
            if has_rows is not None:   # traced: masked at each execution
                delta = A.where(has_rows, delta, A.zeros_like(delta))
            return moving.assign_sub(delta, name=op_scope(scope))

    # --- call ---------------------------------------------------------------------------
    def call(self, inputs, training=None):
        x = inputs
        if x.dtype != dtypes.as_dtype(self.compute_dtype):
            x = A.cast(x, self.compute_dtype)  # integer and bool inputs too, as Keras
        out_dtype = x.dtype
        if out_dtype == dtypes.float16:
            x = A.cast(x, dtypes.float32)  # 16-bit statistics overflow; Keras uses float32
        axes = [i for i in range(x.ndim) if i not in self.axis]
        if not self.trainable:
            training = False  # a frozen BN normalizes with its moving statistics (Keras 2)
        if control_flow_util.graph_for(training) is not None:
            out = self._call_by_tensor(x, axes, training)
        elif training and self.fused:
            out, mean, var = self._fused_training(x)
            self._update_moving_stats(x, mean, var)
        elif training:   # a Python bool, or an eager tensor's value
            params = self._params(x)
            mean, var = self._moments(x, axes)
            self._update_moving_stats(x, mean, var)
            out = self._normalize(x, mean, var, params)
        else:   # the moving statistics read where Keras's batch_normalization reads them
            out = self._normalize(x, self.moving_mean, self.moving_variance)
        return A.cast(out, out_dtype) if out.dtype != out_dtype else out

    def _moving(self):
        return self.moving_mean.read_value(), self.moving_variance.read_value()

    def _call_by_tensor(self, x, axes, training):
        """``training`` a symbolic boolean (a traced function's argument): both ways built
        into the graph, chosen at each execution by Keras's smart_cond (tf.cond).

        The fused kernel: one cond of (output, mean, variance) between the training kernel
        (the moving statistics moved toward this batch's) and the inference one (the moving
        statistics as they are), then both assigned. Otherwise: the batch moments, a cond
        each for the mean and the variance used (batch or moving), then a cond each for
        the moving mean's and variance's update (moved, or left)."""
        if self.fused:
            def fused_training():
                out, mean, var = self._fused_training(x)
                return (out,) + self._moved(x, mean, var)

            out, mean, var = smart_cond(training, fused_training,
                                        lambda: (self._normalize(x, *self._moving()),)
                                        + self._moving())
            self.moving_mean.assign(mean)
            self.moving_variance.assign(var)
            return out
        params = self._params(x)
        mean, var = self._moments(x, axes)
        mean = smart_cond(training, lambda: mean, self.moving_mean.read_value)
        var = smart_cond(training, lambda: var, self.moving_variance.read_value)
        for moving, value in ((self.moving_mean, mean), (self.moving_variance, var)):
            smart_cond(training, lambda m=moving, v=value: self._move(x, m, v),
                       moving.read_value)
        return self._normalize(x, mean, var, params)

    def _broadcast(self, x, v):
        """Keras's ``_broadcast``: a ``(dim,)`` value reshaped to broadcast along the
        feature axis, where that axis is not the last one."""
        ndims = x.ndim
        reduced = [i for i in range(ndims) if i not in self.axis]
        if v is None or len(v.shape) == ndims or reduced == list(range(ndims - 1)):
            return v
        shape = [1] * ndims
        shape[self.axis[0]] = x.shape[self.axis[0]]
        return A.reshape(v, shape)

    def _params(self, x):
        """gamma and beta broadcast (Keras reshapes them before the moments)."""
        return self._broadcast(x, self.gamma), self._broadcast(x, self.beta)

    def _normalize(self, x, mean, var, params=None):
        """tf.nn.batch_normalization: ``x * inv + (beta - mean * inv)`` with ``inv =
        rsqrt(var + epsilon) * gamma``, in its ``batchnorm`` scope (Python operators: a
        variable given is read where TF reads it). The fused kernel's own:
        fused_batch_norm.py."""
        if self.fused:
            return fused_batch_norm.normalize(x, self.axis[0], mean, var, self.gamma,
                                              self.beta, self.epsilon)
        scale, offset = self._params(x) if params is None else params
        mean, var = self._broadcast(x, mean), self._broadcast(x, var)
        with name_scope("batchnorm"):
            inv = M.rsqrt(var + self.epsilon)
            if scale is not None:
                inv = inv * scale
            return x * inv + (offset - mean * inv if offset is not None else -mean * inv)

    compute_output_shape = same_shape

    def get_config(self):
        cfg = super().get_config()
        cfg.update(
            axis=self.axis, momentum=self.momentum, epsilon=self.epsilon, center=self.center,
            scale=self.scale,
            beta_initializer=initializers.serialize(self.beta_initializer),
            gamma_initializer=initializers.serialize(self.gamma_initializer),
            moving_mean_initializer=initializers.serialize(self.moving_mean_initializer),
            moving_variance_initializer=initializers.serialize(
                self.moving_variance_initializer),
            beta_regularizer=regularizers.serialize(self.beta_regularizer),
            gamma_regularizer=regularizers.serialize(self.gamma_regularizer),
            beta_constraint=None, gamma_constraint=None)
        return cfg


class SyncBatchNormalization(BatchNormalization):
    """BatchNormalization with the statistics of the global batch across replicas
    (``tf.keras.layers.experimental.SyncBatchNormalization``, ``synchronized=True``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, synchronized=True, **kwargs)


def _refuse_unsimulated(**options):
    """Raise for the batch-norm options simdist does not simulate, rather than ignore them."""
    given = [k for k, v in options.items() if v is not None]
    if given:
        raise NotImplementedError(
            f"BatchNormalization({given[0]}=...) is not simulated by simdist; leave it out "
            "(weight constraints can be applied by hand after each step: "
            "w.assign(constraint(w))).")
