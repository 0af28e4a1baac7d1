"""Loss classes and functions, looked up by name in one table (``LOSSES``).

Glossary:
  Loss.__call__     -- per-example losses (``call``), then ``compute_weighted_loss`` with
                       the reduction; AUTO/SUM_OVER_BATCH_SIZE under a strategy outside
                       ``compile`` raise TF's ValueError (see utils/losses_utils.py).
  from_logits       -- False: inputs are probabilities, clipped to [eps, 1 - eps] with
                       eps = 1e-7; but the output of a sigmoid/softmax activation is
                       recognised and its logits used instead, exactly as Keras does.
  per-example loss  -- the mean over the last axis (e.g. BCE of shape [B, 1] gives [B]).

Mirrors keras/src/losses.py and backend.py (the crossentropy kernels).
"""

from __future__ import annotations

import warnings

from simdist.distribute import distribution_strategy_context as ds
from simdist.framework import op_def
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops
from simdist.keras import backend
from simdist.keras.utils import losses_utils
from simdist.keras.utils.losses_utils import Reduction, ReductionV2

DISTRIBUTION_ERROR = (
    "Please use `tf.keras.losses.Reduction.SUM` or "
    "`tf.keras.losses.Reduction.NONE` for loss reduction when "
    "losses are used with `tf.distribute.Strategy`, "
    "except for specifying losses in `Model.compile()` "
    "for use by the built-in training looop `Model.fit()`.\n"
    "Please see https://www.tensorflow.org/tutorials"
    "/distribute/custom_training for more details."
)


# --- backend kernels ----------------------------------------------------------------------
def _get_logits(output, from_logits, op_type, fn_name):
    logits = backend.get_keras_logits(output)
    if logits is None:
        return output, from_logits
    if from_logits:
        warnings.warn(f'"`{fn_name}` received `from_logits=True`, but the `output` argument '
                      f"was produced by a {op_type} activation and thus does not represent "
                      "logits. Was this intended?", stacklevel=3)
    return logits, True


def _eps(dtype):
    return A.constant(backend.epsilon(), dtype=dtype)


def backend_binary_crossentropy(target, output, from_logits=False):
    output, from_logits = _get_logits(output, from_logits, "Sigmoid", "binary_crossentropy")
    if from_logits:
        return nn_ops.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = _eps(output.dtype)
    one = A.constant(1.0, dtype=output.dtype)
    output = M.clip_by_value(output, eps, M.subtract(one, eps))
    bce = M.multiply(target, M.log(M.add(output, eps)))
    bce = M.add(bce, M.multiply(M.subtract(one, target),
                                M.log(M.add(M.subtract(one, output), eps))))
    return M.negative(bce)


def backend_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    if tuple(target.shape) != tuple(output.shape):  # e.g. integer labels: Keras checks
        raise ValueError(f"Shapes {target.shape} and {output.shape} are incompatible")
    output, from_logits = _get_logits(output, from_logits, "Softmax",
                                      "categorical_crossentropy")
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = M.divide(output, M.reduce_sum(output, axis, keepdims=True))
    eps = _eps(output.dtype)
    output = M.clip_by_value(output, eps, M.subtract(A.constant(1.0, dtype=output.dtype), eps))
    return M.negative(M.reduce_sum(M.multiply(target, M.log(output)), axis))


def backend_sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1,
                                            ignore_class=None):
    if ignore_class is not None:
        # Ignored entries get loss 0 and a False in the loss's mask, which the reduction
        # leaves out of SUM_OVER_BATCH_SIZE's count (Keras's ``_keras_mask``).
        target = op_def.convert_to_tensor(target)
        valid = M.not_equal(target, A.cast(A.constant(ignore_class), target.dtype))
        res = backend_sparse_categorical_crossentropy(
            A.where(valid, target, A.zeros_like(target)), output, from_logits, axis)
        valid = A.reshape(valid, list(res.shape))
        res = A.where(valid, res, A.zeros_like(res))
        backend.set_keras_mask(res, valid)
        return res
    output, from_logits = _get_logits(output, from_logits, "Softmax",
                                      "sparse_categorical_crossentropy")
    if not from_logits:
        eps = _eps(output.dtype)
        output = M.log(M.clip_by_value(output, eps,
                                       M.subtract(A.constant(1.0, dtype=output.dtype), eps)))
    target = A.cast(target, "int64")
    update_shape = target.ndim != output.ndim - 1
    out_shape = list(output.shape)
    if update_shape:
        target = A.reshape(target, [-1])
        output = A.reshape(output, [-1, out_shape[-1]])
    res = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if update_shape and len(out_shape) >= 3:
        res = A.reshape(res, out_shape[:-1])
    return res


# --- loss functions -----------------------------------------------------------------------
def _prep(y_true, y_pred):
    y_pred = op_def.convert_to_tensor(y_pred)
    y_true = A.cast(op_def.convert_to_tensor(y_true), y_pred.dtype)
    return y_true, y_pred


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example binary crossentropy (mean over ``axis``)."""
    y_pred = op_def.convert_to_tensor(y_pred)
    logits = backend.get_keras_logits(y_pred)
    y_true = A.cast(op_def.convert_to_tensor(y_true), y_pred.dtype)
    if label_smoothing:
        ls = A.constant(label_smoothing, dtype=y_pred.dtype)
        y_true = M.add(M.multiply(y_true, M.subtract(A.constant(1.0, dtype=ls.dtype), ls)),
                       M.multiply(A.constant(0.5, dtype=ls.dtype), ls))
    if logits is not None:
        backend.set_keras_logits(y_pred, logits)
    return M.reduce_mean(backend_binary_crossentropy(y_true, y_pred, from_logits), axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example categorical crossentropy for one-hot labels."""
    y_true, y_pred = _prep(y_true, y_pred)
    if label_smoothing:
        n = A.cast(A.constant(y_true.shape[axis]), y_pred.dtype)
        ls = A.constant(label_smoothing, dtype=y_pred.dtype)
        y_true = M.add(M.multiply(y_true, M.subtract(A.constant(1.0, dtype=ls.dtype), ls)),
                       M.divide(ls, n))
    return backend_categorical_crossentropy(y_true, y_pred, from_logits, axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1,
                                    ignore_class=None):
    """Per-example crossentropy for integer labels."""
    y_pred = op_def.convert_to_tensor(y_pred)
    y_true = op_def.convert_to_tensor(y_true)
    return backend_sparse_categorical_crossentropy(y_true, y_pred, from_logits, axis,
                                                   ignore_class)


def mean_squared_error(y_true, y_pred):
    """``mean(square(y_pred - y_true), axis=-1)``."""
    y_true, y_pred = _prep(y_true, y_pred)
    return M.reduce_mean(M.squared_difference(y_pred, y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """``mean(abs(y_pred - y_true), axis=-1)``."""
    y_true, y_pred = _prep(y_true, y_pred)
    return M.reduce_mean(M.abs(M.subtract(y_pred, y_true)), axis=-1)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error


def _is_tensor(x) -> bool:
    from simdist.framework.tensor import Tensor
    from simdist.framework.variables import Variable

    return isinstance(x, (Tensor, Variable)) or hasattr(x, "_as_tensor")


# --- classes ------------------------------------------------------------------------------
class Loss:
    """Base class of losses: ``loss(y_true, y_pred, sample_weight=None)``."""

    def __init__(self, reduction=ReductionV2.AUTO, name=None):
        ReductionV2.validate(reduction)
        self.reduction = reduction
        self.name = name
        self._allow_sum_over_batch_size = False

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.call(y_true, y_pred)
        reduction = self._get_reduction()
        if sample_weight is not None:
            sample_weight = op_def.convert_to_tensor(sample_weight)
        sample_weight = losses_utils.apply_valid_mask(
            losses, sample_weight, backend.get_keras_mask(losses), reduction)
        return losses_utils.compute_weighted_loss(losses, sample_weight, reduction=reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def _get_reduction(self):
        if (not self._allow_sum_over_batch_size and ds.has_strategy()
                and self.reduction in (ReductionV2.AUTO, ReductionV2.SUM_OVER_BATCH_SIZE)):
            raise ValueError(DISTRIBUTION_ERROR)
        if self.reduction == ReductionV2.AUTO:
            return ReductionV2.SUM_OVER_BATCH_SIZE
        return self.reduction

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss that calls ``fn(y_true, y_pred, **kwargs)`` after matching ranks."""

    def __init__(self, fn, reduction=ReductionV2.AUTO, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        if _is_tensor(y_pred) and _is_tensor(y_true):
            # A squeezed activation output is a new tensor: like TF, it loses its logits.
            y_pred, y_true = losses_utils.squeeze_or_expand_dimensions(
                op_def.convert_to_tensor(y_pred), op_def.convert_to_tensor(y_true))
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(self._fn_kwargs)
        return cfg


def _wrapper(cls_name, fn, default_name, arg_names):
    def __init__(self, *args, reduction=ReductionV2.AUTO, name=default_name, **kwargs):
        kw = dict(zip(arg_names, args))
        kw.update(kwargs)
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **kw)

    return type(cls_name, (LossFunctionWrapper,), {
        "__init__": __init__, "__doc__": f"``{fn.__name__}`` as a Loss object."})


BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              ("from_logits", "label_smoothing", "axis"))
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "categorical_crossentropy",
                                   ("from_logits", "label_smoothing", "axis"))
SparseCategoricalCrossentropy = _wrapper(
    "SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy", ("from_logits", "ignore_class"))
MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error", ())
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error",
                             ())

LOSSES = {
    "binary_crossentropy": binary_crossentropy,
    "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
    "MSE": mean_squared_error, "mean_absolute_error": mean_absolute_error,
    "mae": mean_absolute_error, "MAE": mean_absolute_error,
    "BinaryCrossentropy": BinaryCrossentropy,
    "CategoricalCrossentropy": CategoricalCrossentropy,
    "SparseCategoricalCrossentropy": SparseCategoricalCrossentropy,
    "MeanSquaredError": MeanSquaredError, "MeanAbsoluteError": MeanAbsoluteError,
}


def get(identifier):
    """A loss function or Loss for ``identifier`` (a name, a Loss, a callable, or None)."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        try:
            obj = LOSSES[identifier]
        except KeyError:
            raise ValueError(f"Unknown loss function: '{identifier}'. Please ensure you are "
                             "using a `keras.utils.custom_object_scope` and that this object "
                             "is included in the scope.") from None
        return obj() if isinstance(obj, type) else obj
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")


__all__ = ["Loss", "LossFunctionWrapper", "Reduction", "BinaryCrossentropy",
           "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "MeanSquaredError",
           "MeanAbsoluteError", "binary_crossentropy", "categorical_crossentropy",
           "sparse_categorical_crossentropy", "mean_squared_error", "mean_absolute_error",
           "get"]
