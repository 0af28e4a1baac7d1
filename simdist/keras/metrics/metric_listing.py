"""The operations TF's graph lists for a Keras metric in a trace (``get_operations``):
``update_state`` of a Mean (and Sum), of SparseCategoricalAccuracy, and ``result``.

Glossary:
  no scope     -- tf-keras opens no name scope for a metric: its ops are named in the
                  scope around the call (``Cast``, ``Sum``, ``AssignAddVariableOp``), made
                  unique among the graph's.
  Reduce       -- Reduce.update_state: the values cast to the metric's dtype (no op when
                  they have it), their sum over every axis (``Const``; a scalar's ``Rank``
                  and ``range``), ``total``'s AssignAddVariableOp; a mean's ``count`` gets
                  the folded ``Size`` cast to the dtype.
  matches      -- sparse_categorical_matches (metrics_utils): the labels' Cast to the
                  metric's dtype, their ``Shape`` (folded), ``ArgMax`` of the predictions,
                  its Cast to the labels' dtype, ``Equal`` and its Cast to floatx.
  result       -- a mean's ``div_no_nan`` of ``total`` and ``count`` (each read inside it)
                  and result_wrapper's ``Identity``: the node's name (func_graph's
                  record_methods names it so).
  whole        -- what is not listed here (a sample weight, labels of the predictions'
                  rank, another metric function, a strategy, a shape not fully known)
                  stays one node.

Mirrors tf_keras/src/metrics/base_metric.py (Reduce.update_state, MeanMetricWrapper.
update_state), tf_keras/src/utils/metrics_utils.py (sparse_categorical_matches,
result_wrapper).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, graph_operations
from simdist.framework.gradient_listing import Scope
from simdist.keras.metrics.accuracy import sparse_categorical_accuracy
from simdist.keras.metrics.base_metric import MeanMetricWrapper, Metric, Reduce


def _shape(t):
    return tuple(t.shape.as_list()) if t.shape.rank is not None else None


def _scope(builder, name) -> Scope:
    return Scope(builder, name.rsplit("/", 1)[0] + "/" if "/" in name else "")


def _reduce(s, metric, values):
    """Reduce.update_state's ops for ``values`` (a GraphTensor); the last op."""
    if values.dtype != metric._dtype:
        values = s.op("Cast", "Cast", [values], like=values, dtype=metric._dtype)
    shape = _shape(values)
    if shape:
        axes = s.const("Const", list(range(len(shape))))
    else:   # math_ops._ReductionDims of a scalar: Rank and range
        rank = s.const("Rank", 0)
        name = s.name("range")
        start, delta = s.b.const(f"{name}/start", np.int32(0)), s.b.const(f"{name}/delta",
                                                                          np.int32(1))
        axes = s.op("range", "Range", [start, rank, delta], dtype=dtypes.int32, name=name)
    total = s.op("Sum", "Sum", [values, axes], dtype=metric._dtype, shape=())
    op = _assign_add(s, metric.total, total)
    if metric._reduction == "sum":
        return op
    size = s.const("Size", int(np.prod(shape)))
    return _assign_add(s, metric.count, s.op("Cast", "Cast", [size], like=total))


def _assign_add(s, variable, value):
    name = s.name("AssignAddVariableOp")
    return s.b.add(name, "AssignAddVariableOp", [s.b.resource(name, variable), value], ())


def _values(builder, name, value):
    found = builder.converted(name, None, value)
    return found[0] if found and _shape(found[0]) is not None and \
        None not in _shape(found[0]) else None


def list_reduce_update(builder, name, args, kwargs, outputs):
    """A Mean's or Sum's update_state (graph_operations.LISTINGS), or None."""
    metric, values = (list(args) + [None, None])[:2]
    if len(args) > 2 or kwargs.get("sample_weight") is not None or builder.replica is not None:
        return None
    values = _values(builder, name, values)
    if values is None or type(metric).update_state is not Reduce.update_state:
        return None
    return _reduce(_scope(builder, name), metric, values)


def list_accuracy_update(builder, name, args, kwargs, outputs):
    """SparseCategoricalAccuracy's update_state (graph_operations.LISTINGS), or None."""
    metric, y_true, y_pred = (list(args) + [None] * 3)[:3]
    if len(args) > 3 or kwargs.get("sample_weight") is not None or \
            builder.replica is not None or metric._fn is not sparse_categorical_accuracy:
        return None
    y_true, y_pred = _values(builder, name, y_true), _values(builder, name, y_pred)
    if y_true is None or y_pred is None or y_pred.dtype != metric._dtype:
        return None
    squeezed = len(_shape(y_pred)) == len(_shape(y_true))   # (batch, 1) labels
    if _shape(y_pred)[-1] == 1 or not (squeezed and _shape(y_true)[-1] == 1 or
                                       len(_shape(y_pred)) == len(_shape(y_true)) + 1):
        return None   # (losses_utils.squeeze_or_expand_dimensions would change them)
    s = _scope(builder, name)
    labels = y_true if y_true.dtype == metric._dtype else \
        s.op("Cast", "Cast", [y_true], like=y_true, dtype=metric._dtype)
    shape = s.const("Shape", list(_shape(y_true)))
    if squeezed:
        labels = s.op("Squeeze", "Squeeze", [labels], like=labels, shape=_shape(y_true)[:-1])
    best = s.op("ArgMax", "ArgMax", [y_pred, ("dimension", -1)], dtype=dtypes.int64,
                shape=_shape(labels))
    best = s.op("Cast", "Cast", [best], like=labels)
    equal = s.op("Equal", "Equal", [labels, best], like=labels, dtype=dtypes.bool_)
    matches = s.op("Cast", "Cast", [equal], like=labels)
    if squeezed:   # back to the labels' shape
        matches = s.op("Reshape", "Reshape", [matches, shape], like=y_true,
                       dtype=metric._dtype)
    return _reduce(s, metric, matches)


def list_result(builder, name, args, kwargs, outputs):
    """A mean's result (graph_operations.LISTINGS): div_no_nan, then the Identity."""
    metric = args[0] if args else None
    if not isinstance(metric, Reduce) or metric._reduction == "sum" or \
            type(metric)._result is not Reduce._result or builder.replica is not None:
        return None
    s = _scope(builder, name)
    div = s.name("div_no_nan")
    total, count = (builder.read(s.b.unique(f"{div}/ReadVariableOp"), v, named=True)
                    for v in (metric.total, metric.count))
    value = s.op("div_no_nan", "DivNoNan", [total, count], like=total, name=div)
    return builder.add(name, "Identity", [value], [(value.dtype, ())])


# (their ops are named in the scope around the call: taken while tracing)
graph_operations.register_listing(Reduce.update_state, list_reduce_update, reserve=True)
graph_operations.register_listing(MeanMetricWrapper.update_state, list_accuracy_update,
                                  reserve=True)
graph_operations.register_listing(Metric.result, list_result, reserve=True)
