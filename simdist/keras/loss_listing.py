"""The operations TF's graph lists for a Keras loss object's call (``get_operations``).

Glossary:
  loss scope     -- the loss's name scope (``mean_squared_error/``, made unique:
                    ``mean_squared_error_1/``): the node's name before ``/weighted_loss/``.
  per-example    -- the loss function's ops: MeanSquaredError ``SquaredDifference`` and
                    ``Mean`` over the last axis (its ``reduction_indices`` Const);
                    MeanAbsoluteError ``sub``, ``Abs``, ``Mean``; the crossentropies and
                    Huber: crossentropy_listing.
  weighted_loss  -- losses_utils.compute_weighted_loss: the sample weight (1.0 for none,
                    a Python number: a ``Const``; a traced tensor of the per-example shape
                    as it is), ``Mul``; SUM and SUM_OVER_BATCH_SIZE: ``Sum`` over every axis
                    (``Const_1``, or ``Const`` after a tensor weight); SUM_OVER_BATCH_SIZE:
                    ``num_elements`` (a folded Size) and its ``Cast``, ``Sum_1`` of the
                    scalar (``Rank``, ``range``) and ``value``, a DivNoNan.
  whole          -- what is not listed here (a sample weight of another shape, which TF
                    squeezes or expands, other losses, labels whose rank needs a squeeze
                    or a flatten, shapes not fully known) stays one node.

Mirrors tf_keras/src/losses.py (Loss.__call__, LossFunctionWrapper.call,
mean_squared_error, mean_absolute_error) and tf_keras/src/utils/losses_utils.py
(compute_weighted_loss, reduce_weighted_loss, _safe_mean, _num_elements).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, graph_operations
from simdist.framework.graph_operations import GraphTensor, _is_variable
from simdist.keras import losses
from simdist.keras.losses import ReductionV2


def _shape(t):
    return tuple(t.shape.as_list()) if t is not None and t.shape.rank is not None else None


def _out(builder, name, op_type, inputs, dtype, shape, value=None):
    out = builder.add(name, op_type, inputs, [(dtype, shape)]).outputs[0]
    if value is not None:
        out.value = np.asarray(value)
    return out


def _mean_last(builder, scope, x, shape):
    axis = _out(builder, builder.unique(f"{scope}Mean/reduction_indices"), "Const", (),
                dtypes.int32, (), -1)
    return _out(builder, builder.unique(f"{scope}Mean"), "Mean", [x, axis], x.dtype,
                shape[:-1])


def _mse(builder, scope, y_true, y_pred, kwargs):
    shape = _shape(y_pred)
    name = builder.unique(f"{scope}SquaredDifference")
    diff = _out(builder, name, "SquaredDifference", [y_pred, y_true], y_pred.dtype, shape)
    return _mean_last(builder, scope, diff, shape)


def _mae(builder, scope, y_true, y_pred, kwargs):
    shape = _shape(y_pred)
    sub = _out(builder, builder.unique(f"{scope}sub"), "Sub", [y_pred, y_true],
               y_pred.dtype, shape)
    sub.op.forward_scope = sub.op.name + "/"   # y_pred - y_true: binary_op_wrapper's scope
    absolute = _out(builder, builder.unique(f"{scope}Abs"), "Abs", [sub], y_pred.dtype, shape)
    absolute.op.forward_scope = absolute.op.name + "/"   # tf.abs's own scope
    return _mean_last(builder, scope, absolute, shape)


# the loss function -> its per-example ops (None where TF's ops are not listed here)
# (crossentropy_listing adds the crossentropies and Huber)
_CALLS = {losses.mean_squared_error: _mse, losses.mean_absolute_error: _mae}


def _all_axes(builder, scope, rank):
    """math_ops._ReductionDims: a Const of the axes, or a scalar's ``Rank`` and ``range``."""
    if rank:
        return _out(builder, builder.unique(f"{scope}Const"), "Const", (), dtypes.int32,
                    (rank,), np.arange(rank))
    zero = _out(builder, builder.unique(f"{scope}Rank"), "Const", (), dtypes.int32, (), 0)
    base = builder.unique(f"{scope}range")
    start = _out(builder, f"{base}/start", "Const", (), dtypes.int32, (), 0)
    delta = _out(builder, f"{base}/delta", "Const", (), dtypes.int32, (), 1)
    return _out(builder, base, "Range", [start, zero, delta], dtypes.int32, (0,), [])


def _weighted(builder, scope, name, per_example, reduction, weight):
    """compute_weighted_loss (see the module docstring); ``weight``: a GraphTensor of the
    per-example shape or a Python number."""
    scope = f"{scope}weighted_loss/"
    dt, shape = per_example.dtype, _shape(per_example)
    if not isinstance(weight, GraphTensor):
        weight = _out(builder, builder.unique(f"{scope}Const"), "Const", (), dt, (), weight)
    last = name.rsplit("/", 1)[-1]
    mul_name = name if reduction == ReductionV2.NONE else builder.unique(f"{scope}Mul")
    weighted = _out(builder, mul_name, "Mul", [per_example, weight], dt, shape)
    if reduction == ReductionV2.NONE:
        return weighted
    axes = _all_axes(builder, scope, len(shape))
    sum_name = name if last == "Sum" else builder.unique(f"{scope}Sum")
    total = _out(builder, sum_name, "Sum", [weighted, axes], dt, ())
    if reduction == ReductionV2.SUM:
        return total
    count = _out(builder, builder.unique(f"{scope}num_elements"), "Const", (), dtypes.int32,
                 (), int(np.prod(shape)))
    count = _out(builder, builder.unique(f"{scope}num_elements/Cast"), "Cast", [count], dt, ())
    axes = _all_axes(builder, scope, 0)
    total = _out(builder, builder.unique(f"{scope}Sum"), "Sum", [total, axes], dt, ())
    value = _out(builder, name, "DivNoNan", [total, count], dt, ())
    value.op.forward_scope = name + "/"   # math_ops.div_no_nan's own scope, named 'value'
    return value


def _sample_weight(builder, name, sample_weight):
    """The weight compute_weighted_loss multiplies by: 1.0 for none, a Python number as it
    is, a traced tensor's GraphTensor (None: not listed here)."""
    if sample_weight is None:
        return 1.0
    if isinstance(sample_weight, (int, float)) and not isinstance(sample_weight, bool):
        return float(sample_weight)
    found = builder.converted(name, None, sample_weight)
    return found[0] if len(found) == 1 and found[0].dtype == dtypes.float32 else None


def list_loss(builder, name, args, kwargs, outputs):
    """The ops of the loss node ``name`` (graph_operations.LISTINGS), or None."""
    loss, y_true, y_pred = (list(args) + [None] * 3)[:3]
    sample_weight = args[3] if len(args) > 3 else kwargs.get("sample_weight")
    fn = getattr(loss, "fn", None)
    call = _CALLS.get(fn)
    if call is None or "/weighted_loss/" not in name:
        return None
    weight = _sample_weight(builder, name, sample_weight)
    if weight is None:
        return None
    scope = name.split("/weighted_loss/")[0] + "/"
    if _is_variable(y_true) or _is_variable(y_pred) and call not in (_mse, _mae):
        return None
    found = [[] if _is_variable(y_true) else builder.converted(name, None, y_true),
             # mean_squared_error's convert_to_tensor(y_pred) first: a read in the scope
             [builder.read(builder.unique(scope + "ReadVariableOp"), y_pred, named=True)]
             if _is_variable(y_pred) else builder.converted(name, None, y_pred)]
    sparse = fn is losses.sparse_categorical_crossentropy
    if not found[0] and sparse and isinstance(y_true, (list, tuple)):
        labels = np.asarray(y_true)   # backend's convert_to_tensor of the Python labels
        if labels.dtype.kind == "i":
            found[0] = [_out(builder, builder.unique(f"{scope}Const"), "Const", (),
                             dtypes.int32, labels.shape, labels)]
    if not all(found):
        return None
    y_true, y_pred = found[0][0], found[1][0]
    shape = _shape(y_pred)
    if shape is None or None in shape or _shape(y_true) is None or \
            y_pred.dtype != dtypes.float32:
        return None
    if not sparse and _shape(y_true) != shape:   # a squeeze TF lists
        return None
    if not sparse and y_true.dtype != y_pred.dtype:   # a Cast of it
        return None
    per_example = call(builder, scope, y_true, y_pred, loss._fn_kwargs)
    if per_example is None:
        return None
    if isinstance(weight, GraphTensor) and _shape(weight) != _shape(per_example):
        return None   # TF squeezes or expands it first
    reduction = loss.reduction
    if reduction == ReductionV2.AUTO:
        reduction = ReductionV2.SUM_OVER_BATCH_SIZE
    return _weighted(builder, scope, name, per_example, reduction, weight).op


graph_operations.register_listing(losses.Loss.__call__, list_loss)
from simdist.keras import crossentropy_listing  # noqa: E402,F401 - adds its losses to _CALLS
