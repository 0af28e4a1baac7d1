"""The pre-2.11 Keras optimizer (``OptimizerV2``, ``tf.keras.optimizers.legacy``).

Glossary:
  hyper         -- ``learning_rate``, ``decay``, ``beta_1`` ...: kept as given until the
                   first step (or first read), then float32 variables named
                   '<optimizer>/<hyper>' (``opt.learning_rate`` is one); ``opt.lr`` is the
                   learning rate; assigning an attribute of a hyper sets its variable.
  decay         -- ``lr / (1 + decay * iterations)`` (time-based decay, before the step).
  iterations    -- int64 'iter', made on first use ('Adam/iter:0' when the first step
                   makes it).
  slots         -- per-variable state named '<optimizer>/<variable>/<slot>' ('Adam/v/m:0'),
                   made at the first step in the variable's strategy (``get_slot``,
                   ``get_slot_names``).
  variables()   -- a method here (a property in the new optimizers): iterations, then the
                   slots, in creation order; the hypers are not in it.
  apply         -- in replica context: sum the gradients across replicas (unless
                   ``experimental_aggregate_gradients=False``), clip them, then update each
                   copy of each variable in a merge_call and count the step; in
                   cross-replica context TF's RuntimeError.
  sparse        -- an IndexedSlices gradient: its repeated indices summed, then
                   ``_resource_apply_sparse`` (TF's ResourceSparseApply* kernels or
                   tf-keras's Python ops: only the gradient's rows change).

Mirrors tf_keras/src/optimizers/legacy/optimizer_v2.py.
"""

from __future__ import annotations

import contextlib
import warnings

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import dtypes, trackable, variables
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.name_scope import init_scope, name_scope
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers import optimizer as optimizer_lib
from simdist.keras.optimizers import schedules
from simdist.keras.optimizers.sparse_updates import deduplicate_indexed_slices

_ALLOWED_KWARGS = ("clipnorm", "clipvalue", "lr", "decay", "global_clipnorm")


def uses_momentum(momentum) -> bool:
    """Whether SGD / RMSprop keep a momentum slot (a positive, variable or callable momentum).

    Raises:
      ValueError: a number outside [0, 1].
    """
    if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
        raise ValueError("`momentum` must be between [0, 1]. Received: "
                         f"momentum={momentum} (of type {type(momentum)}).")
    return callable(momentum) or hasattr(momentum, "numpy") or momentum > 0


class OptimizerV2(optimizer_lib.Optimizer):
    """Base class of the legacy Keras optimizers (``tf.keras.optimizers.legacy.Optimizer``).

    It reuses the new optimizer's distributed machinery (merge calls, clipping, per-device
    coefficients) and keeps OptimizerV2's state, names and configuration.
    """

    _counts_the_step_past_the_end = False  # its step count waits for the update

    def __init__(self, name, gradient_aggregator=None, gradient_transformers=None, **kwargs):
        self._validate_kwargs(kwargs)
        if gradient_aggregator is not None or gradient_transformers:
            raise NotImplementedError("gradient_aggregator and gradient_transformers are not "
                                      "simulated by simdist.")
        self.__dict__["_hyper"] = {}
        self._name = name
        self.name = name
        self._slots, self._slot_names, self._weights = {}, [], []
        self._iterations = None
        self._initial_decay = kwargs.pop("decay", 0.0)
        self._hypers_created = False
        self._distribution_strategy = ds_context.get_strategy()
        self.clipnorm = kwargs.pop("clipnorm", None)
        self.global_clipnorm = kwargs.pop("global_clipnorm", None)
        if self.clipnorm is not None and self.global_clipnorm is not None:
            raise ValueError("Cannot accept both `clipnorm` and `global_clipnorm`. Received: "
                             f"`clipnorm`={self.clipnorm}, "
                             f"`global_clipnorm`={self.global_clipnorm}.")
        self.clipvalue = kwargs.pop("clipvalue", None)
        self.weight_decay = None
        self._apply_state = None
        self._built = False

    @staticmethod
    def _validate_kwargs(kwargs):
        for k, value in kwargs.items():
            if k not in _ALLOWED_KWARGS:
                raise TypeError(f"Unexpected keyword argument passed to optimizer: {k}. "
                                f"Allowed kwargs are {set(_ALLOWED_KWARGS)}.")
            if value is not None and value < 0:
                raise ValueError(f"Expected {k} >= 0, received: {value}")
            if k == "lr":
                warnings.warn("The `lr` argument is deprecated, use `learning_rate` instead.",
                              stacklevel=3)

    # --- hyper-parameters ---------------------------------------------------------------
    def _set_hyper(self, name, value):
        hyper = self._hyper
        if name in hyper and isinstance(hyper[name], variables.Variable) and \
                not isinstance(value, schedules.LearningRateSchedule):
            with ds_context.enter_or_assert_strategy(ds_context.strategy_of(hyper[name])):
                hyper[name].assign(value)
        else:
            hyper[name] = value

    def _get_hyper(self, name, dtype=None):
        self._create_hypers()
        value = self._hyper[name]
        if isinstance(value, schedules.LearningRateSchedule):
            return value          # called with the step by _decayed_lr
        if callable(value) and not isinstance(value, variables.Variable):
            value = value()
        return A.cast(value, dtype) if dtype else value

    def _create_hypers(self):
        if self._hypers_created:
            return
        with self._strategy_scope():
            for name, value in sorted(self._hyper.items()):
                if isinstance(value, (variables.Variable, schedules.LearningRateSchedule)) \
                        or callable(value) or hasattr(value, "numpy"):
                    continue
                self._hyper[name] = variables.Variable(
                    float(value), name=name, dtype=dtypes.float32, trainable=False,
                    aggregation=variables.VariableAggregation.ONLY_FIRST_REPLICA)
        self._hypers_created = True

    def __getattr__(self, name):
        hyper = self.__dict__.get("_hyper", {})
        key = "learning_rate" if name == "lr" else name
        if key in hyper:
            return self._get_hyper(key)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        key = "learning_rate" if name == "lr" else name
        if key in self.__dict__.get("_hyper", {}):
            self._set_hyper(key, value)
        else:
            object.__setattr__(self, name, value)

    learning_rate = property(lambda self: self._get_hyper("learning_rate"),
                             lambda self, value: self._set_hyper("learning_rate", value))
    lr = learning_rate

    def _decayed_lr(self, var_dtype):
        """The learning rate of this step (a schedule's value, then time-based decay)."""
        lr_t = self._get_hyper("learning_rate", var_dtype)
        if isinstance(lr_t, schedules.LearningRateSchedule):
            lr_t = A.cast(lr_t(A.cast(self.iterations.read_value(), var_dtype)), var_dtype)
        if self._initial_decay > 0.0:
            local_step = A.cast(self.iterations.read_value(), var_dtype)
            decay_t = A.constant(self._initial_decay, dtype=var_dtype)
            lr_t = M.divide(lr_t, M.add(A.constant(1.0, dtype=var_dtype),
                                        M.multiply(decay_t, local_step)))
        return lr_t

    def _prepare_local(self, dtype) -> dict:
        return {"lr_t": A.identity(self._decayed_lr(dtype))}

    def _serialize_hyperparameter(self, hyperparameter_name):
        value = self._hyper[hyperparameter_name]
        if isinstance(value, schedules.LearningRateSchedule):
            return schedules.serialize(value)
        if isinstance(value, variables.Variable) or hasattr(value, "numpy"):
            return value.numpy()
        return value() if callable(value) else value

    # --- state ----------------------------------------------------------------------------
    @property
    def iterations(self):
        """The number of steps run (int64 'iter', made on first use)."""
        if self._iterations is None:
            with self._strategy_scope():
                self._iterations = variables.Variable(
                    0, name="iter", dtype=dtypes.int64, trainable=False,
                    aggregation=variables.VariableAggregation.ONLY_FIRST_REPLICA)
            self._weights.append(self._iterations)
        return self._iterations

    @iterations.setter
    def iterations(self, variable):
        if self._iterations is not None:
            raise RuntimeError("Cannot set `iterations` to a new Variable after the Optimizer "
                               "weights have been created. Here it is attempting to set "
                               f"`iterations` to {variable}.")
        self._iterations = variable
        self._weights.append(variable)

    def variables(self):
        """Iterations, then the slots, in creation order (a method, as in OptimizerV2)."""
        return self._weights

    @property
    def weights(self):
        return self._weights

    def get_weights(self) -> list:
        return [w.numpy() for w in self._weights]

    def get_slot_names(self) -> list:
        return self._slot_names

    def add_slot(self, var, slot_name, initializer="zeros"):
        """The slot ``slot_name`` of ``var``, made on first request."""
        from simdist.keras import initializers

        if slot_name not in self._slot_names:
            self._slot_names.append(slot_name)
        slot_dict = self._slots.setdefault(optimizer_lib.var_key(var), {})
        weight = slot_dict.get(slot_name)
        if weight is None:
            init = initializers.get(initializer)
            with self._strategy_scope(), \
                    ds_context.get_strategy().extended.colocate_vars_with(var):
                weight = variables.Variable(
                    initial_value=lambda: init(list(var.shape), dtype=var.dtype),
                    name=f"{self._shared_name(var)}/{slot_name}", dtype=var.dtype,
                    trainable=False)
            slot_dict[slot_name] = weight
            self._weights.append(weight)
            trackable.restore_deferred()
        return weight

    def get_slot(self, var, slot_name):
        return self._slots[optimizer_lib.var_key(var)][slot_name]

    def _create_slots(self, var_list):
        """Subclasses make their slots here."""

    def _create_all_weights(self, var_list):
        _ = self.iterations
        self._create_hypers()
        self._create_slots(var_list)

    def _trackable_children(self) -> dict:
        out = {"iter": self.iterations}
        out.update({k: v for k, v in self._hyper.items() if isinstance(v, variables.Variable)})
        out["_variables"] = list(self._weights[1:])
        return out

    # --- applying ---------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, name=None, experimental_aggregate_gradients=True):
        """Sum the gradients across replicas, clip them, update the variables, count the step.

        Raises:
          ValueError: no gradient for any variable.
          RuntimeError: called in cross-replica context.
        """
        grads_and_vars = optimizer_lib.filter_empty_gradients(grads_and_vars)
        var_list = [v for _, v in grads_and_vars]
        with name_scope(self._name) as scope:
            self._create_weights_in_cross_replica(var_list, scope)
            if not grads_and_vars:
                return None
            if ds_context.in_cross_replica_context():
                raise RuntimeError(
                    "`apply_gradients() cannot be called in cross-replica context. Use "
                    "`tf.distribute.Strategy.run` to enter replica context. For more "
                    "information, please see the docstring of "
                    "`tf.distribute.get_replica_context`.")
            if experimental_aggregate_gradients:
                grads_and_vars = optimizer_lib.all_reduce_sum_gradients(grads_and_vars)
            grads, var_list = zip(*grads_and_vars)
            grads = self._clip_gradients(list(grads))
            return self._maybe_merge_call(self._distributed_apply_gradients_fn,
                                          list(zip(grads, var_list)))

    def _build_for_apply(self, grads_and_vars, name=None):
        """Make iterations, hypers and slots of the variables that have gradients (once),
        in the optimizer's name scope, while apply_gradients is traced."""
        var_list = [v for g, v in grads_and_vars if g is not None]
        with name_scope(self._name) as scope:
            self._create_weights_in_cross_replica(var_list, scope)

    def _create_weights_in_cross_replica(self, var_list, scope):
        """Make iterations, hypers and slots once, outside the replicas (as TF's init_scope
        does), named under the optimizer's scope."""
        ctx = ds_context.get_replica_context()
        if ctx is not None and ds_context.has_strategy() and \
                ds_context.get_strategy().num_replicas_in_sync > 1:
            def create(_strategy, vs):
                with init_scope(), name_scope(scope):
                    self._create_all_weights(list(vs))

            ctx.merge_call(create, args=(tuple(var_list),))
        else:
            with init_scope():   # in a trace: the variables are made eagerly, as TF lifts them
                self._create_all_weights(var_list)

    _takes_indexed_slices = True

    def update_step(self, gradient, variable):
        coefficients = self._coefficients(variable)
        if isinstance(gradient, IndexedSlices):
            if getattr(variable, "constraint", None) is not None:
                raise RuntimeError("Cannot use a constraint function on a sparse variable.")
            return self._resource_apply_sparse_duplicate_indices(
                gradient.values, variable, gradient.indices, coefficients)
        return self._resource_apply_dense(gradient, variable, coefficients)

    def _resource_apply_sparse_duplicate_indices(self, grad, var, indices, coefficients):
        """A sparse gradient's repeated indices summed, then ``_resource_apply_sparse``."""
        summed = deduplicate_indexed_slices(IndexedSlices(grad, indices))
        return self._resource_apply_sparse(summed.values, var, summed.indices, coefficients)

    def _resource_apply_sparse(self, grad, var, indices, coefficients):
        """Each optimizer's sparse update (TF's ResourceSparseApply* kernels or tf-keras's
        Python ops, on the gradient's rows only).

        Raises:
          NotImplementedError: a subclass without one (TF's text).
        """
        raise NotImplementedError("`_resource_apply_sparse` Must be implemented in "
                                  "subclasses.")

    def _resource_apply_dense(self, grad, var, coefficients):
        raise NotImplementedError

    def minimize(self, loss, var_list, grad_loss=None, name=None, tape=None):
        """Compute the gradients of ``loss`` and apply them."""
        return self.apply_gradients(self.compute_gradients(loss, var_list, tape), name=name)

    # --- configuration ----------------------------------------------------------------------
    def get_config(self) -> dict:
        config = {"name": self._name}
        for key in ("clipnorm", "clipvalue", "global_clipnorm"):
            if getattr(self, key) is not None:
                config[key] = getattr(self, key)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if "lr" in config:
            config["learning_rate"] = config.pop("lr")
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = schedules.deserialize(config["learning_rate"],
                                                            custom_objects)
        return cls(**config)

    def _strategy_scope(self):
        s = self._distribution_strategy
        if ds_context.has_strategy() or s is ds_context.get_default_strategy():
            return contextlib.nullcontext()
        return s.scope()
