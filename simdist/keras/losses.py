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

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import call_plan, execute, func_graph, graph_errors
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import cond as cond_lib
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops
from simdist.framework.tensor import Tensor
from simdist.keras import backend
from simdist.keras.utils import losses_utils
from simdist.keras.utils.losses_utils import Reduction, ReductionV2
from simdist.keras.utils.serialization import lookup

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
    output = M.clip_by_value(output, eps, 1.0 - eps)
    # TF's operators (their ops' names: ``add_1/y``, ``sub_3/x`` ...)
    bce = target * M.log(output + backend.epsilon())
    bce += (1 - target) * M.log(1 - output + backend.epsilon())
    return -bce


def backend_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    if tuple(target.shape) != tuple(output.shape):  # e.g. integer labels: Keras checks
        raise ValueError(f"Shapes {target.shape} and {output.shape} are incompatible")
    output, from_logits = _get_logits(output, from_logits, "Softmax",
                                      "categorical_crossentropy")
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = output / M.reduce_sum(output, axis, True)
    eps = _eps(output.dtype)
    output = M.clip_by_value(output, eps, 1.0 - eps)
    return -M.reduce_sum(target * M.log(output), axis)


def backend_sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1,
                                            ignore_class=None):
    if ignore_class is not None:
        # Ignored entries get loss 0 and a False in the loss's mask, which the reduction
        # leaves out of SUM_OVER_BATCH_SIZE's count (Keras's ``_keras_mask``).
        target = execute.convert_to_tensor(target)
        valid = M.not_equal(target, A.cast(A.constant(ignore_class), target.dtype))
        res = backend_sparse_categorical_crossentropy(
            A.where(valid, target, A.zeros_like(target)), output, from_logits, axis)
        valid = A.reshape(valid, list(res.shape))
        res = A.where(valid, res, A.zeros_like(res))
        backend.set_keras_mask(res, valid)
        return res
    target = A.cast(execute.convert_to_tensor(target), "int64")
    output, from_logits = _get_logits(execute.convert_to_tensor(output), from_logits,
                                      "Softmax", "sparse_categorical_crossentropy")
    if not from_logits:
        eps = _eps(output.dtype)
        output = M.log(M.clip_by_value(output, eps, 1 - eps))
    output_shape = A.shape(output)   # TF's tf.shape (a folded 'Shape' Const in a trace)
    rank = output.ndim
    update_shape = target.ndim != rank - 1
    if update_shape:
        target = A.reshape(target, [-1])
        output = A.reshape(output, [-1, output_shape[-1]])
    res = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if update_shape and rank >= 3:
        res = A.reshape(res, output_shape[:-1])
    return res


# --- loss functions -----------------------------------------------------------------------
def _prep(y_true, y_pred):
    y_pred = execute.convert_to_tensor(y_pred)
    y_true = A.cast(execute.convert_to_tensor(y_true), y_pred.dtype)
    return y_true, y_pred


def _smoothing_tensor(label_smoothing, dtype):
    """TF's ``convert_to_tensor(label_smoothing, dtype)``: a Python number's ``Const``."""
    if isinstance(label_smoothing, Tensor):
        return label_smoothing
    return A.constant(label_smoothing, dtype=dtype)


def _smoothing(label_smoothing) -> bool:
    """Whether labels are smoothed: a Python number or a concrete tensor that is not 0 (a
    traced one always: its smoothing by 0 leaves the labels as they are)."""
    if func_graph.is_symbolic(label_smoothing):
        return True
    return bool(float(label_smoothing))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example binary crossentropy (mean over ``axis``)."""
    y_pred = execute.convert_to_tensor(y_pred)
    logits = backend.get_keras_logits(y_pred)
    y_true = A.cast(execute.convert_to_tensor(y_true), y_pred.dtype)
    ls = _smoothing_tensor(label_smoothing, y_pred.dtype)
    if _smoothing(label_smoothing):   # TF's smart_cond on its value
        y_true = y_true * (1.0 - ls) + 0.5 * ls
    if logits is not None:
        backend.set_keras_logits(y_pred, logits)
    return M.reduce_mean(backend_binary_crossentropy(y_true, y_pred, from_logits), axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Per-example categorical crossentropy for one-hot labels."""
    y_true, y_pred = _prep(y_true, y_pred)
    ls = _smoothing_tensor(label_smoothing, y_pred.dtype)
    if _smoothing(label_smoothing):   # TF's smart_cond on its value
        n = A.cast(A.shape(y_true)[axis], y_pred.dtype)
        y_true = y_true * (1.0 - ls) + ls / n
    return backend_categorical_crossentropy(y_true, y_pred, from_logits, axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1,
                                    ignore_class=None):
    """Per-example crossentropy for integer labels."""
    y_pred = execute.convert_to_tensor(y_pred)
    y_true = execute.convert_to_tensor(y_true)
    return backend_sparse_categorical_crossentropy(y_true, y_pred, from_logits, axis,
                                                   ignore_class)


def mean_squared_error(y_true, y_pred):
    """``mean(square(y_pred - y_true), axis=-1)``."""
    y_true, y_pred = _prep(y_true, y_pred)
    return M.reduce_mean(M.squared_difference(y_pred, y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    """``mean(abs(y_pred - y_true), axis=-1)``."""
    y_true, y_pred = _prep(y_true, y_pred)
    return M.reduce_mean(M.abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    """``100 * mean(|y_true - y_pred| / max(|y_true|, epsilon), axis=-1)``."""
    y_true, y_pred = _prep(y_true, y_pred)
    # tf-keras's operators and calls, so a trace lists TF's ops ('sub', 'Maximum/y', 'mul/x')
    diff = M.abs((y_true - y_pred) / M.maximum(M.abs(y_true), backend.epsilon()))
    return 100.0 * M.reduce_mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    """``mean(square(log(y_pred + 1) - log(y_true + 1)), axis=-1)`` (both floored at eps)."""
    y_true, y_pred = _prep(y_true, y_pred)
    first = M.log(M.maximum(y_pred, backend.epsilon()) + 1.0)
    second = M.log(M.maximum(y_true, backend.epsilon()) + 1.0)
    return M.reduce_mean(M.squared_difference(first, second), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """Quadratic for errors up to ``delta``, linear beyond: ``mean(.., axis=-1)``."""
    y_pred = A.cast(execute.convert_to_tensor(y_pred), backend.floatx())
    y_true = A.cast(execute.convert_to_tensor(y_true), backend.floatx())
    delta = A.cast(delta, backend.floatx())   # a Python delta: the Const 'Cast/x'
    error = M.subtract(y_pred, y_true)
    abs_error = M.abs(error)
    half = A.constant(0.5, dtype=abs_error.dtype)
    return M.reduce_mean(A.where(abs_error <= delta, half * M.square(error),
                                 delta * abs_error - half * M.square(delta)), axis=-1)


def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)), axis=-1)``, computed without overflow."""
    y_true, y_pred = _prep(y_true, y_pred)
    x = y_pred - y_true
    value = x + M.softplus(-2.0 * x) - A.cast(M.log(2.0), x.dtype)
    return M.reduce_mean(value, axis=-1)


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred), axis=-1)``, both clipped to ``[eps, 1]``."""
    y_true, y_pred = _prep(y_true, y_pred)
    y_true = M.clip_by_value(y_true, backend.epsilon(), 1)   # backend.clip
    y_pred = M.clip_by_value(y_pred, backend.epsilon(), 1)
    return M.reduce_sum(y_true * M.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    """``mean(y_pred - y_true * log(y_pred + eps), axis=-1)``."""
    y_true, y_pred = _prep(y_true, y_pred)
    return M.reduce_mean(y_pred - y_true * M.log(y_pred + backend.epsilon()), axis=-1)


def _signed_labels(y_true):
    """0/1 labels become -1/1 (labels already in -1/1 stay), as Keras's hinge losses do:
    ``_maybe_convert_labels``, a smart_cond on whether every label is 0 or 1 (a graph cond
    in a tf.function, so the hinge losses trace)."""
    is_binary = M.reduce_all(M.logical_or(M.equal(y_true, 0), M.equal(y_true, 1)))
    return cond_lib.cond_for_tf_v2(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)


def hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0), axis=-1)`` with -1/1 labels."""
    y_true, y_pred = _prep(y_true, y_pred)
    return M.reduce_mean(M.maximum(1.0 - _signed_labels(y_true) * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    """``mean(square(max(1 - y_true * y_pred, 0)), axis=-1)`` with -1/1 labels."""
    y_true, y_pred = _prep(y_true, y_pred)
    margin = 1.0 - _signed_labels(y_true) * y_pred
    return M.reduce_mean(M.square(M.maximum(margin, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    """``max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`` per example."""
    y_true, y_pred = _prep(y_true, y_pred)
    pos = M.reduce_sum(y_true * y_pred, axis=-1)
    neg = M.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    zero = A.cast(0.0, y_pred.dtype)
    return M.maximum(neg - pos + 1.0, zero)


def cosine_similarity(y_true, y_pred, axis=-1):
    """``-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis)``: -1 when aligned."""
    y_true, y_pred = _prep(y_true, y_pred)

    def l2_normalize(x):
        norm_sq = M.reduce_sum(M.square(x), axis=axis, keepdims=True)
        return M.multiply(x, M.rsqrt(M.maximum(norm_sq, 1e-12)))

    return M.negative(M.reduce_sum(M.multiply(l2_normalize(y_true), l2_normalize(y_pred)),
                                   axis=axis))


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh


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

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        func_graph.record_methods(cls, _RECORDED, _NAMES)

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.call(y_true, y_pred)
        reduction = self._get_reduction()
        if sample_weight is not None:
            sample_weight = execute.convert_to_tensor(sample_weight)
        # the predictions' mask (a masked sequence's steps) and the losses' own
        in_mask, out_mask = backend.get_keras_mask(y_pred), backend.get_keras_mask(losses)
        mask = out_mask if in_mask is None else in_mask if out_mask is None else \
            M.logical_and(in_mask, out_mask)
        sample_weight = losses_utils.apply_valid_mask(losses, sample_weight, mask, reduction)
        return losses_utils.compute_weighted_loss(losses, sample_weight, reduction=reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def _get_reduction(self):
        if (not self._allow_sum_over_batch_size and ds_context.has_strategy()
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


def _graph_name(loss, y_true, y_pred, sample_weight=None):
    """TF's graph name of a loss's result (tf-keras Loss.__call__ and
    losses_utils.compute_weighted_loss): under the loss's scope (its name without
    leading or trailing ``_``, else its class's; ``lambda``) and ``weighted_loss``, the
    ``divide_no_nan`` named ``value`` (SUM_OVER_BATCH_SIZE), the ``Sum`` (SUM) or the
    weighting ``Mul`` (NONE)."""
    name = loss.name
    scope = type(loss).__name__.strip("_") if name is None else \
        "lambda" if name == "<lambda>" else name.strip("_")
    reduction = ReductionV2.SUM_OVER_BATCH_SIZE if loss.reduction == ReductionV2.AUTO \
        else loss.reduction
    last = {ReductionV2.SUM: "Sum", ReductionV2.NONE: "Mul"}.get(reduction, "value")
    return scope, "weighted_loss", last


def _failing_op_name(node_name, op_type):
    """TF's name of the op inside a loss whose kernel failed (its error names it): the
    cross-entropy kernel sits in nn_ops' own scope under the loss's (recorded from TF 2.21:
    ``sparse_categorical_crossentropy/SparseSoftmaxCrossEntropyWithLogits/
    SparseSoftmaxCrossEntropyWithLogits``, a label out of range)."""
    scope, found, _ = node_name.rpartition("/weighted_loss/")
    if not found or op_type != "SparseSoftmaxCrossEntropyWithLogits":
        return None
    return f"{scope}/{op_type}/{op_type}"


# In a traced tf.function a loss is one graph node (its Python runs at each execution).
_RECORDED = {"__call__": "pure"}
_NAMES = {"__call__": _graph_name}
func_graph.record_methods(Loss, _RECORDED, _NAMES)
graph_errors.register_inner_node_name(Loss.__call__.__recorded_op__, _failing_op_name)
call_plan.register(Loss.__call__)   # a replay runs its ops as kernel calls, once captured


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
                execute.convert_to_tensor(y_pred), execute.convert_to_tensor(y_true))
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        cfg = super().get_config()
        cfg.update(self._fn_kwargs)
        cfg["fn"] = getattr(self.fn, "__name__", str(self.fn))
        return cfg

    @classmethod
    def from_config(cls, config):
        """A loss from ``get_config()``: a named Loss class knows its function already, a
        plain wrapper looks it up by name (Keras's ``LossFunctionWrapper.from_config``)."""
        config = dict(config)
        fn = config.pop("fn", None)
        if cls is LossFunctionWrapper:
            config["fn"] = get(fn) if isinstance(fn, str) else fn
        return cls(**config)


def _wrapper(cls_name, fn, default_name, arg_defaults=()):
    """A LossFunctionWrapper class for ``fn`` whose arguments (and config) are ``arg_defaults``."""
    names = [n for n, _ in arg_defaults]

    def __init__(self, *args, reduction=ReductionV2.AUTO, name=default_name, **kwargs):
        kw = dict(arg_defaults)
        kw.update(zip(names, args))
        kw.update(kwargs)
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **kw)

    return type(cls_name, (LossFunctionWrapper,), {
        "__init__": __init__, "__doc__": f"``{fn.__name__}`` as a Loss object."})


_XENT = (("from_logits", False), ("label_smoothing", 0.0), ("axis", -1))
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              _XENT)
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "categorical_crossentropy", _XENT)
SparseCategoricalCrossentropy = _wrapper(
    "SparseCategoricalCrossentropy", sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy", (("from_logits", False), ("ignore_class", None)))
MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError",
                                       mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError",
                                       mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")
Huber = _wrapper("Huber", huber, "huber_loss", (("delta", 1.0),))
LogCosh = _wrapper("LogCosh", log_cosh, "log_cosh")
KLDivergence = _wrapper("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _wrapper("Poisson", poisson, "poisson")
Hinge = _wrapper("Hinge", hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge")
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity",
                            (("axis", -1),))

_FUNCTIONS = (binary_crossentropy, categorical_crossentropy, sparse_categorical_crossentropy,
              mean_squared_error, mean_absolute_error, mean_absolute_percentage_error,
              mean_squared_logarithmic_error, huber, log_cosh, kl_divergence, poisson, hinge,
              squared_hinge, categorical_hinge, cosine_similarity)
_CLASSES = (BinaryCrossentropy, CategoricalCrossentropy, SparseCategoricalCrossentropy,
            MeanSquaredError, MeanAbsoluteError, MeanAbsolutePercentageError,
            MeanSquaredLogarithmicError, Huber, LogCosh, KLDivergence, Poisson, Hinge,
            SquaredHinge, CategoricalHinge, CosineSimilarity)
LOSSES = {
    **{fn.__name__: fn for fn in _FUNCTIONS},
    **{cls.__name__: cls for cls in _CLASSES},
    "mse": mse, "MSE": mse, "mae": mae, "MAE": mae, "mape": mape, "MAPE": mape,
    "msle": msle, "MSLE": msle, "kld": kld, "KLD": kld,
    "kullback_leibler_divergence": kld, "logcosh": log_cosh,
}


def get(identifier):
    """A loss function or Loss for ``identifier`` (a name, a Loss, a callable, or None)."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        obj = lookup(LOSSES, identifier, "loss function")
        return obj() if isinstance(obj, type) else obj
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")


__all__ = ["Loss", "LossFunctionWrapper", "Reduction", "get",
           *[cls.__name__ for cls in _CLASSES], *[fn.__name__ for fn in _FUNCTIONS]]
from simdist.keras import loss_listing  # noqa: E402,F401 - registers the graph listing of a loss
