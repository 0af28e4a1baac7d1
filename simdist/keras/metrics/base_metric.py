"""Metric base classes: state in sync-on-read variables, aggregated when read.

Glossary:
  state variables -- created with ``synchronization=ON_READ, aggregation=SUM``; under a
                     strategy each replica accumulates into its own copy
                     (``update_state`` in replica context touches only that copy).
  result()        -- in cross-replica context (or at top level) the copies are summed on
                     read; called inside ``strategy.run`` it goes through ``merge_call`` so
                     every replica sees the global value, as Keras's ``result_wrapper`` does.
  Reduce / Sum / Mean -- ``total`` (and ``count``) accumulators.
  MeanMetricWrapper   -- ``fn(y_true, y_pred)`` per example, then a Mean.

Mirrors keras/src/metrics/base_metric.py and utils/metrics_utils.py.
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import call_plan, dtypes, execute, func_graph, module, name_scope, trackable
from simdist.framework import variables as variables_lib
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras import backend
from simdist.keras.engine import layer_metrics
from simdist.keras.utils import losses_utils, tf_utils


def _merges_to_update(metric, *args, **kwargs) -> bool:
    """Whether writing the metric's state in replica context merges the replicas
    (CentralStorageStrategy's AggregatingVariables): the update is then traced through,
    its merge_calls in the replica threads, as TF traces every op."""
    return any(getattr(v, "_replica_writes_merge", False) for v in metric._variables)


# In a traced tf.function a metric's update / reset is one stateful graph node and its
# result one node: their Python (and its reads of the state) runs at each execution.
_RECORDED = {"update_state": ("stateful", None, _merges_to_update), "reset_state": "stateful",
             "result": "pure"}
# result's node is named as TF's op giving its value: result_wrapper's tf.identity
_NAMES = {"result": "Identity"}


class Metric(module.Module):
    """Base class of Keras metrics: ``update_state``, ``result``, ``reset_state``; a
    ``tf.Module`` (a Keras Layer in tf-keras), so a module holding one finds its state
    among its variables and the metric among its submodules."""

    _is_keras_metric = True   # a layer's attribute holding one lists it (Model.metrics)
    # The variables by name are the checkpoint's view; flatten finds them in creation order.
    _TF_MODULE_IGNORED_PROPERTIES = frozenset({"_named_variables"})

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        func_graph.record_methods(cls, _RECORDED, _NAMES)

    def __init__(self, name=None, dtype=None, **kwargs):
        # not tf.Module's __init__: a metric's name need not be an identifier (tf-keras)
        self._name = name or tf_utils.snake_case(type(self).__name__)
        self._dtype = dtypes.as_dtype(dtype or backend.floatx())
        self._variables = []
        self._named_variables = {}  # add_weight's name -> variable: the checkpoint's names
        self._strategy = ds_context.get_strategy() if ds_context.has_strategy() else None

    @property
    def dtype(self):
        return self._dtype.name

    @property
    def name_scope(self):
        """The metric's name scope (``with metric.name_scope:``), as a layer's."""
        return name_scope.name_scope(self._name)

    @property
    def variables(self):
        return list(self._variables)

    weights = non_trainable_weights = variables

    @property
    def trainable_weights(self):
        """None: a metric's state is not trained."""
        return []

    def add_weight(self, name, shape=(), aggregation=variables_lib.VariableAggregation.SUM,
                   synchronization=variables_lib.VariableSynchronization.ON_READ,
                   initializer=None, dtype=None):
        """A metric state variable (sync-on-read, SUM by default)."""
        dt = dtypes.as_dtype(dtype or self._dtype)
        scope = (self._strategy.scope()
                 if self._strategy is not None and not ds_context.has_strategy() else _null())
        with scope, name_scope.init_scope():   # tf_utils.maybe_init_scope, as Keras
            v = variables_lib.Variable(A.zeros(list(shape), dtype=dt), name=name, trainable=False,
                                   synchronization=synchronization, aggregation=aggregation)
        self._variables.append(v)
        self._named_variables[name] = v
        trackable.restore_deferred()
        return v

    def _trackable_children(self) -> dict:
        return dict(self._named_variables)

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        result = self.result()
        layer_metrics.mark_metric_result(result, self)   # for Layer.add_metric
        return result

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def _result(self):
        raise NotImplementedError

    def result(self):
        """The metric's value aggregated over every replica."""
        ctx = ds_context.get_replica_context()
        if ds_context.has_strategy() and ctx is not None and \
                ds_context.get_strategy().num_replicas_in_sync > 1:
            return ctx.merge_call(lambda strategy: A.identity(self._result()))
        with ds_context.enter_or_assert_strategy(self._strategy):
            return A.identity(self._result())

    def reset_state(self):
        """Set every state variable back to zero."""
        for v in self._variables:
            with ds_context.enter_or_assert_strategy(ds_context.strategy_of(v)):
                v.assign(A.zeros(list(v.shape), dtype=v.dtype))

    def reset_states(self):
        """Deprecated alias of :meth:`reset_state`."""
        return self.reset_state()

    def _read(self, v):
        """A state variable's value: the sum over replicas in cross-replica context."""
        return A._t(v.read_value()) if not hasattr(v, "read_value") else \
            execute.convert_to_tensor(v.read_value())

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        """A metric from ``get_config()`` (a loaded model's compile config)."""
        return cls(**config)

    def __str__(self):
        args = ",".join(f"{k}={v}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


def _null():
    import contextlib

    return contextlib.nullcontext()


class Reduce(Metric):
    """Accumulates ``total`` (and ``count``) of values."""

    _reduction = "weighted_mean"

    def __init__(self, reduction="weighted_mean", name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self._reduction = reduction
        self.total = self.add_weight("total")
        if reduction in ("sum_over_batch_size", "weighted_mean"):
            self.count = self.add_weight("count")

    def update_state(self, values, sample_weight=None):
        values = A.cast(values, self._dtype)
        if sample_weight is not None:
            sample_weight = A.cast(sample_weight, self._dtype)
            values, _, sample_weight = losses_utils.squeeze_or_expand_dimensions(
                values, sample_weight=sample_weight)
            sample_weight = A.broadcast_to(sample_weight, list(values.shape)) \
                if tuple(sample_weight.shape) != tuple(values.shape) else sample_weight
            values = M.multiply(values, sample_weight)
        value_sum = M.reduce_sum(values)
        self.total.assign_add(value_sum)
        if self._reduction == "sum":
            return
        if self._reduction == "sum_over_batch_size" or sample_weight is None:
            num = A.cast(A.size(values), self._dtype)
        else:
            num = M.reduce_sum(sample_weight)
        self.count.assign_add(num)

    def _result(self):
        total = self._read(self.total)
        if self._reduction == "sum":
            return total
        return M.div_no_nan(total, self._read(self.count))


class Sum(Reduce):
    """The (weighted) sum of the given values."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(reduction="sum", name=name, dtype=dtype)


class Mean(Reduce):
    """The (weighted) mean of the given values."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(reduction="weighted_mean", name=name, dtype=dtype)


class MeanMetricWrapper(Mean):
    """The mean of ``fn(y_true, y_pred)`` over all examples seen."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = A.cast(execute.convert_to_tensor(y_true), self._dtype)
        y_pred = A.cast(execute.convert_to_tensor(y_pred), self._dtype)
        y_pred, y_true = losses_utils.squeeze_or_expand_dimensions(y_pred, y_true)
        matches = self._fn(y_true, y_pred, **self._fn_kwargs)
        return super().update_state(matches, sample_weight=sample_weight)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(self._fn_kwargs)
        return cfg


func_graph.record_methods(Metric, _RECORDED, _NAMES)
# A traced update's ops and its assign_adds replay as one program (call_plan: writes=True).
call_plan.register(MeanMetricWrapper.update_state, writes=True)
call_plan.register(Reduce.update_state, writes=True)
