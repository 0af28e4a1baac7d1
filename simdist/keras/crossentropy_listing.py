"""The per-example operations TF's graph lists for Keras's crossentropy losses and Huber
(``get_operations``), under the loss's scope; loss_listing adds the weighting.

Glossary:
  smoothing Const -- categorical and binary crossentropy convert ``label_smoothing`` first
                     (``Const``); categorical's non-zero one adds ``y * (1 - s) + s / n``
                     (n from the folded Shape's ``strided_slice``, ``Cast``).
  epsilon clip    -- probabilities are clipped to [eps, 1 - eps]: ``Const`` (eps),
                     ``sub`` (1 - eps), ``clip_by_value/Minimum`` and ``clip_by_value``
                     (a Maximum); categorical first divides by their ``Sum`` over -1.
  sparse          -- SparseCategoricalCrossentropy: the labels' ``Cast`` to int64 (probabilities:
                     their clipped ``Log``), the logits' folded ``Shape``, labels of the
                     logits' rank flattened (``Reshape``) and the logits reshaped, and
                     nn_ops' ``SparseSoftmaxCrossEntropyWithLogits`` scope.
  softmax_cross_entropy_with_logits / logistic_loss -- nn_ops' and nn_impl's scopes for
                     Categorical- / BinaryCrossentropy(from_logits): framework/xent_listing.
  huber_loss      -- delta's ``Cast/x``, ``Sub``, ``Abs``, 0.5's ``Const``, ``LessEqual``,
                     both branches, ``SelectV2``, the Mean over -1.
  whole           -- logits of a Softmax / Sigmoid op (Keras reads their input), a
                     binary label smoothing, other ranks: loss_listing keeps one node.

Mirrors tf_keras/src/losses.py (categorical_crossentropy, binary_crossentropy, huber),
tf_keras/src/backend.py (categorical_, sparse_categorical_, binary_crossentropy) and
tensorflow/python/ops/nn_ops.py (softmax_cross_entropy_with_logits_v2,
sparse_softmax_cross_entropy_with_logits), nn_impl.py
(sigmoid_cross_entropy_with_logits), clip_ops.py (clip_by_value).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, xent_listing
from simdist.keras import backend, loss_listing, losses
from simdist.keras.loss_listing import _mean_last, _out, _shape

_I32 = dtypes.int32


def _const(builder, scope, base, value, dtype=dtypes.float32):
    value = np.asarray(value)
    return _out(builder, builder.unique(scope + base), "Const", (), dtype, value.shape, value)


def _op(builder, scope, base, op_type, inputs, like, consts=(), dtype=None):
    """An op named ``scope + base`` (unique) whose Python operands become ``<op>/<input>``
    Consts (``consts``: (position, input name, value))."""
    name = builder.unique(scope + base)
    inputs = list(inputs)
    for position, input_name, value in consts:
        inputs.insert(position, _out(builder, f"{name}/{input_name}", "Const", (),
                                     like.dtype, (), value))
    out = _out(builder, name, op_type, inputs, dtype or like.dtype, _shape(like))
    if base in _OPERATORS:   # a Python operator's op: binary_op_wrapper's own scope
        out.op.forward_scope = name + "/"
    return out


_OPERATORS = ("mul", "sub", "add", "truediv")


def _clipped(builder, scope, y_pred):
    """backend's ``clip_by_value(output, eps, 1 - eps)``; returns (clipped, eps)."""
    eps = _const(builder, scope, "Const", np.float32(backend.epsilon()))
    top = _op(builder, scope, "sub", "Sub", [eps], eps, [(0, "x", np.float32(1))])
    name = builder.unique(scope + "clip_by_value")
    low = _out(builder, f"{name}/Minimum", "Minimum", [y_pred, top], y_pred.dtype,
               _shape(y_pred))
    high = _out(builder, name, "Maximum", [low, eps], y_pred.dtype, _shape(y_pred))
    low.op.forward_scope = high.op.forward_scope = name + "/"   # clip_by_value's scope
    return high


def _smoothed(builder, scope, y_true, y_pred, smoothing):
    """losses.categorical_crossentropy's _smooth_labels (see the module docstring)."""
    shape = _const(builder, scope, "Shape", _shape(y_true), _I32)
    sliced = builder.unique(scope + "strided_slice")
    bounds = [_out(builder, f"{sliced}/stack{suffix}", "Const", (), _I32, (1,), v)
              for suffix, v in (("", [-1]), ("_1", [0]), ("_2", [1]))]
    count = _out(builder, sliced, "StridedSlice", [shape] + bounds, _I32, ())
    count = _out(builder, builder.unique(scope + "Cast"), "Cast", [count], y_pred.dtype, ())
    kept = _op(builder, scope, "sub", "Sub", [smoothing], smoothing, [(0, "x", 1.0)])
    kept = _op(builder, scope, "mul", "Mul", [y_true, kept], y_true)
    spread = _op(builder, scope, "truediv", "RealDiv", [smoothing, count], smoothing)
    return _op(builder, scope, "add", "AddV2", [kept, spread], y_true)


def _softmax_xent(builder, scope, labels, logits):
    """nn_ops.softmax_cross_entropy_with_logits_v2 (xent_listing.softmax_xent)."""
    name = builder.unique(scope + "softmax_cross_entropy_with_logits")
    return xent_listing.softmax_xent(builder, name, labels, logits)


def _logits_of_activation(y_pred) -> bool:
    """Keras reads a Softmax's / Sigmoid's input as the logits (backend._get_logits)."""
    return y_pred.op.type in ("Softmax", "Sigmoid")


def _categorical(builder, scope, y_true, y_pred, kwargs):
    if len(_shape(y_pred)) != 2 or kwargs.get("axis", -1) != -1 or \
            _logits_of_activation(y_pred):
        return None
    smoothing = _const(builder, scope, "Const", np.float32(kwargs.get("label_smoothing", 0)))
    if kwargs.get("label_smoothing"):
        y_true = _smoothed(builder, scope, y_true, y_pred, smoothing)
    if kwargs.get("from_logits"):
        return _softmax_xent(builder, scope, y_true, y_pred)
    rows = _shape(y_pred)[:1] + (1,)
    axis = _out(builder, builder.unique(scope + "Sum") + "/reduction_indices", "Const", (),
                _I32, (), -1)
    total = _out(builder, axis.op.name.rsplit("/", 1)[0], "Sum", [y_pred, axis],
                 y_pred.dtype, rows)
    y_pred = _op(builder, scope, "truediv", "RealDiv", [y_pred, total], y_pred)
    logs = _op(builder, scope, "Log", "Log", [_clipped(builder, scope, y_pred)], y_pred)
    product = _op(builder, scope, "mul", "Mul", [y_true, logs], y_pred)
    axis = _out(builder, builder.unique(scope + "Sum") + "/reduction_indices", "Const", (),
                _I32, (), -1)
    total = _out(builder, axis.op.name.rsplit("/", 1)[0], "Sum", [product, axis],
                 y_pred.dtype, rows[:1])
    return _op(builder, scope, "Neg", "Neg", [total], total)


def _binary(builder, scope, y_true, y_pred, kwargs):
    if kwargs.get("label_smoothing") or kwargs.get("axis", -1) != -1 or \
            _logits_of_activation(y_pred):
        return None
    _const(builder, scope, "Const", np.float32(0))   # label_smoothing converted
    if kwargs.get("from_logits"):
        loss = _logistic_loss(builder, scope, y_true, y_pred)
    else:
        p = _clipped(builder, scope, y_pred)
        eps = [(1, "y", np.float32(backend.epsilon()))]
        one = [(0, "x", np.float32(1))]
        log = _op(builder, scope, "Log", "Log", [_op(builder, scope, "add", "AddV2", [p], p,
                                                    eps)], p)
        first = _op(builder, scope, "mul", "Mul", [y_true, log], p)
        other = _op(builder, scope, "sub", "Sub", [y_true], p, one)
        log = _op(builder, scope, "Log", "Log", [_op(builder, scope, "add", "AddV2", [
            _op(builder, scope, "sub", "Sub", [p], p, one)], p, eps)], p)
        second = _op(builder, scope, "mul", "Mul", [other, log], p)
        loss = _op(builder, scope, "Neg", "Neg", [
            _op(builder, scope, "add", "AddV2", [first, second], p)], p)
    return _mean_last(builder, scope, loss, _shape(y_pred))


def _logistic_loss(builder, scope, labels, logits):
    """nn_impl.sigmoid_cross_entropy_with_logits (xent_listing.logistic_loss)."""
    return xent_listing.logistic_loss(builder, builder.unique(scope + "logistic_loss"),
                                      labels, logits)


def _sparse_xent(builder, scope, y_true, y_pred, kwargs):
    if kwargs.get("ignore_class") is not None or _logits_of_activation(y_pred):
        return None
    logits = _shape(y_pred)
    labels = _shape(y_true)
    if len(logits) != 2 or len(labels) not in (1, 2):   # TF transposes: not listed
        return None
    if y_true.dtype != dtypes.int64:
        y_true = _out(builder, builder.unique(f"{scope}Cast"), "Cast", [y_true],
                      dtypes.int64, labels)
    if not kwargs.get("from_logits"):   # probabilities: their clipped Log
        y_pred = _op(builder, scope, "Log", "Log", [_clipped(builder, scope, y_pred)], y_pred)
    shape = _out(builder, builder.unique(f"{scope}Shape"), "Const", (), dtypes.int32, (2,),
                 logits)
    if len(labels) == 2:   # labels of the logits' rank: flattened, the logits reshaped
        y_true, y_pred = _flattened(builder, scope, y_true, y_pred, shape)
        labels = _shape(y_true)
    inner = builder.unique(f"{scope}SparseSoftmaxCrossEntropyWithLogits")
    _out(builder, builder.unique(f"{inner}/Shape"), "Const", (), dtypes.int32, (1,), labels)
    op = builder.add(builder.unique(f"{inner}/SparseSoftmaxCrossEntropyWithLogits"),
                     "SparseSoftmaxCrossEntropyWithLogits", [y_pred, y_true],
                     [(y_pred.dtype, labels), (y_pred.dtype, logits)])
    return op.outputs[0]


def _flattened(builder, scope, y_true, y_pred, shape):
    """backend.sparse_categorical_crossentropy's update_shape: ``flatten(target)`` and
    ``reshape(output, [-1, shape(output)[-1]])`` (its list packed: ``shape/0``, Pack)."""
    name = builder.unique(f"{scope}Reshape")
    size = int(np.prod(_shape(y_true)))
    flat = _out(builder, f"{name}/shape", "Const", (), dtypes.int32, (1,), [-1])
    y_true = _out(builder, name, "Reshape", [y_true, flat], y_true.dtype, (size,))
    sliced = builder.unique(f"{scope}strided_slice")
    bounds = [_out(builder, f"{sliced}/stack{suffix}", "Const", (), dtypes.int32, (1,), v)
              for suffix, v in (("", [-1]), ("_1", [0]), ("_2", [1]))]
    last = _out(builder, sliced, "StridedSlice", [shape] + bounds, dtypes.int32, ())
    name = builder.unique(f"{scope}Reshape")
    first = _out(builder, f"{name}/shape/0", "Const", (), dtypes.int32, (), -1)
    packed = _out(builder, f"{name}/shape", "Pack", [first, last], dtypes.int32, (2,))
    y_pred = _out(builder, name, "Reshape", [y_pred, packed], y_pred.dtype, _shape(y_pred))
    return y_true, y_pred


def _huber(builder, scope, y_true, y_pred, kwargs):
    delta = _out(builder, builder.unique(scope + "Cast") + "/x", "Const", (), y_pred.dtype,
                 (), np.float32(kwargs.get("delta", 1.0)))
    error = _op(builder, scope, "Sub", "Sub", [y_pred, y_true], y_pred)
    absolute = _op(builder, scope, "Abs", "Abs", [error], y_pred)
    half = _const(builder, scope, "Const", np.float32(0.5))
    small = _op(builder, scope, "LessEqual", "LessEqual", [absolute, delta], y_pred,
                dtype=dtypes.bool_)
    quadratic = _op(builder, scope, "mul", "Mul", [
        half, _op(builder, scope, "Square", "Square", [error], y_pred)], y_pred)
    linear = _op(builder, scope, "mul", "Mul", [delta, absolute], y_pred)
    linear = _op(builder, scope, "sub", "Sub", [linear, _op(builder, scope, "mul", "Mul", [
        half, _op(builder, scope, "Square", "Square", [delta], delta)], delta)], y_pred)
    chosen = _op(builder, scope, "SelectV2", "SelectV2", [small, quadratic, linear], y_pred)
    return _mean_last(builder, scope, chosen, _shape(y_pred))


loss_listing._CALLS.update({losses.categorical_crossentropy: _categorical,
                            losses.sparse_categorical_crossentropy: _sparse_xent,
                            losses.binary_crossentropy: _binary, losses.huber: _huber})
