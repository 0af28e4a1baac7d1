"""Neural-network ops: activations, softmax and cross-entropies.

Glossary:
  logits               -- unnormalized log-probabilities; cross-entropies take logits and
                          are computed stably (max-shifted log-sum-exp, TF's formulas).
The two ``tf.nn`` functions that read the distribution strategy (compute_average_loss,
scale_regularization_loss) live in simdist/distribute/nn_impl.py, a layer above.

Mirrors tensorflow/python/ops/nn_ops.py and nn_impl.py.
"""

from __future__ import annotations

import math

import numpy as np

from simdist.framework import errors, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import eigen_cpu, eigen_redux, eigen_xent, op_types
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend

sigmoid = M.sigmoid
tanh = M.tanh
softplus = M.softplus


def _same_dtype(value, like):
    """``value`` in ``like``'s dtype (a no-op when it already is)."""
    return array_api.astype(value, array_api.numpy_dtype(like))


def relu(features, name=None) -> Tensor:
    """``max(features, 0)``."""
    x = A._t(features)
    return execute.execute("Relu", [x], _same_dtype(backend.xp.maximum(x._value, 0), x._value))


def elu(features, name=None) -> Tensor:
    """``x`` where ``x > 0``, else ``exp(x) - 1`` (``tf.nn.elu``; TF's Elu functor computes
    ``exp(x) - 1``, not expm1: relu_op_functor.h)."""
    x = A._t(features)
    v = x._value
    with np.errstate(all="ignore"):
        value = backend.xp.where(v < 0, _exp_minus_one(v), v)
    return execute.execute("Elu", [x], _same_dtype(value, v))


def _exp_minus_one(v):
    """``exp(v) - 1`` as Elu's and Selu's functors compute it: float32 on the host by
    Eigen's exp over the whole tensor (eigen_cpu.py), as their one expression takes it."""
    if type(v) is np.ndarray and v.dtype == np.float32:
        return eigen_cpu.exp(v) - np.float32(1)
    return backend.xp.exp(v) - 1


# relu_op_functor.h's Selu constants: scale and scale * alpha (alpha 1.67326324...)
SELU_SCALE, SELU_SCALE_ALPHA = 1.0507009873554804934193349852946, 1.7580993408473768599402175208123


def selu(features, name=None) -> Tensor:
    """``scale * x`` where ``x > 0``, else ``scale * alpha * (exp(x) - 1)`` (``tf.nn.selu``;
    TF's Selu functor: ``scale_alpha * (exp(x) - 1)`` below 0, ``scale * x`` else, the two
    constants in the features' dtype)."""
    x = A._t(features)
    v = x._value
    dtype = array_api.numpy_dtype(v)
    scale_alpha, scale = dtype.type(SELU_SCALE_ALPHA), dtype.type(SELU_SCALE)
    with np.errstate(all="ignore"):
        value = backend.xp.where(v < 0, scale_alpha * _exp_minus_one(v), scale * v)
    return execute.execute("Selu", [x], _same_dtype(value, v))


def relu6(features, name=None) -> Tensor:
    """``min(max(x, 0), 6)`` (``tf.nn.relu6``)."""
    x = A._t(features)
    return execute.execute("Relu6", [x], _same_dtype(backend.xp.clip(x._value, 0, 6), x._value))


def leaky_relu(features, alpha=0.2, name=None) -> Tensor:
    """``x`` where ``x > 0``, else ``alpha * x`` (``tf.nn.leaky_relu``)."""
    x = A._t(features)
    return A.where(M.greater(x, 0), x, M.multiply(x, alpha))


def silu(features, beta=1.0) -> Tensor:
    """``x * sigmoid(beta * x)`` (``tf.nn.silu``, also called swish)."""
    x = A._t(features)
    return M.multiply(x, M.sigmoid(M.multiply(x, beta) if beta != 1.0 else x))


swish = silu


def softsign(features, name=None) -> Tensor:
    """``x / (1 + |x|)`` (``tf.nn.softsign``)."""
    x = A._t(features)
    return M.divide(x, M.add(M.abs(x), 1))


def gelu(features, approximate=False, name=None) -> Tensor:
    """``x * P(X <= x)`` for a standard normal X; the tanh form when ``approximate``. TF's
    formulas and their order (nn_ops.gelu): ``0.5 * x * erfc(-x * 0.7071067811865476)``,
    or ``0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))``."""
    x = A._t(features)
    if not x.dtype.is_floating:
        raise ValueError("`features.dtype` must be a floating point tensor."
                         f"Received:features.dtype={x.dtype}")
    half_x = M.multiply(0.5, x)
    if approximate:
        cube = M.multiply(A.cast(0.044715, x.dtype), M.pow(x, 3))
        return M.multiply(half_x, M.add(1.0, M.tanh(M.multiply(0.7978845608028654,
                                                               M.add(x, cube)))))
    return M.multiply(half_x, M.erfc(M.multiply(M.negative(x), A.cast(0.7071067811865476,
                                                                       x.dtype))))


def _shifted(v, axis):
    """``v - max(v)`` and ``log(sum(exp(v - max(v))))`` along ``axis`` (stable)."""
    xp = backend.xp
    m = xp.max(v, axis=axis, keepdims=True)
    m = xp.where(xp.isfinite(m), m, 0)
    s = v - m
    return s, xp.log(xp.sum(xp.exp(s), axis=axis, keepdims=True))


def softmax(logits, axis=None, name=None) -> Tensor:
    """``exp(logits) / sum(exp(logits))`` along ``axis`` (the last one by default)."""
    return _softmax(logits, axis, False)


def xent_softmax(logits, axis=-1) -> Tensor:
    """The probabilities the cross-entropy kernels make for their backprop, as a Softmax op
    (nn_grad's cross-entropy rules): in float32 their own bits (eigen_xent), which divide by
    the sum where tf.nn.softmax multiplies by the CPU's approximate reciprocal."""
    return _softmax(logits, axis, True)


def _softmax(logits, axis, xent):
    x = A._t(logits)
    a = -1 if axis is None else int(axis)
    _check_dim(a, x.ndim)
    a = A._axis(a, x.ndim, "Softmax")
    # "xent": which kernel made it (the Softmax kernel of a replay computes it so too)
    return execute.execute("Softmax", [x], softmax_value(x._value, a, xent),
                           attrs={"axis": a, "xent": xent})


def softmax_value(v, a, xent):
    """The Softmax op's value of ``v`` along axis ``a`` (``xent``: the cross-entropy
    kernels' probabilities)."""
    if v.size == 0:  # no rows or no classes: TF's kernels return the empty shape
        return backend.xp.zeros_like(v)
    # TF's CPU kernel's formula, order and exp; None where its bits are not modelled
    kernel = _by_rows(eigen_xent.probabilities) if xent else eigen_cpu.softmax
    value = kernel(v, a) if type(v) is np.ndarray and v.dtype == np.float32 else None
    if value is None:
        with np.errstate(all="ignore"):
            s, lse = _shifted(v, a)
            value = backend.xp.exp(s - lse)
    return value


def _check_dim(dim, rank):
    """TF's Python check of a softmax ``dim`` other than -1 (nn_ops._wrap_2d_function)."""
    if dim != -1 and not -rank <= dim < rank:
        raise errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the "
                        f"number of dimensions in the input. Received: dim={dim}")


def _move_dim_to_end(axis, rank):
    """TF's wrapper moves a class ``axis`` other than -1 to the end with
    ``range(axis)`` and ``range(axis + 1, rank)`` (nn_ops._move_dim_to_end): a negative one,
    or one past the rank, fails in a Range; a scalar fails flattening (a Slice)."""
    if rank == 0:
        raise errors.InvalidArgumentError(
            None, None, "Expected begin[0] == 0 (got -1) and size[0] == 0 (got 1) when "
                        "input.dim_size(0) == 0 [Op:Slice]")
    if axis != -1 and not 0 <= axis < rank:
        start, limit = (0, axis) if axis < 0 else (axis + 1, rank)
        raise errors.InvalidArgumentError(
            None, None, f"Requires start <= limit when delta > 0: {start}/{limit} [Op:Range]")


def _by_rows(kernel):
    """``kernel`` of (batch, classes) rows as a function of an array and its class axis;
    None past eigen_xent's rows."""
    def run(v, a):
        rows, moved = _class_rows(v, a)
        if not eigen_xent.modelled(rows):
            return None
        return np.moveaxis(kernel(rows).reshape(moved), -1, a)
    return run


def _class_rows(v, a):
    """``v`` with its class axis ``a`` moved to the end (TF's _move_dim_to_end) as
    (batch, classes) rows, and the moved shape."""
    moved = np.moveaxis(v, a, -1)
    return moved.reshape(math.prod(moved.shape[:-1]), moved.shape[-1]), moved.shape


def _flat_rows(shape, check=True):
    """The rows of TF's wrappers' ``reshape(logits, [-1, classes])`` (nn_ops.py's
    _flatten_outer_dims, reshape_op.h's -1): with no classes and no logits the -1 counts
    the non-zero dimensions, and the dense loss's reshape back to ``shape[:-1]`` fails."""
    rows = A._reshape_target(tuple(shape), [-1, shape[-1]])[0]
    want = math.prod(shape[:-1])
    if check and rows != want:
        raise errors.InvalidArgumentError(
            None, None, f"Input to reshape is a tensor with {rows} values, but the requested "
                        f"shape has {want} [Op:Reshape]")
    return rows


def log_softmax(logits, axis=None, name=None) -> Tensor:
    """``logits - log(sum(exp(logits)))`` along ``axis`` (the last one by default)."""
    x = A._t(logits)
    a = -1 if axis is None else int(axis)
    _check_dim(a, x.ndim)
    a = A._axis(a, x.ndim, "LogSoftmax")
    if x._value.size == 0:  # no rows or no classes: the empty shape, as TF's kernel
        return execute.execute("LogSoftmax", [x], backend.xp.zeros_like(x._value),
                               attrs={"axis": a})
    with np.errstate(all="ignore"):
        s, lse = _shifted(x._value, a)
    return execute.execute("LogSoftmax", [x], s - lse, attrs={"axis": a})


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None) -> Tensor:
    """Element-wise ``-labels*log(sigmoid(logits)) - (1-labels)*log(1-sigmoid(logits))``.

    Computed as TF does, ``max(x, 0) - x*z + log(1 + exp(-|x|))``, which never overflows.

    Raises:
      ValueError: if ``labels`` and ``logits`` have different shapes.
    """
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    logits = A._t(logits)
    labels = execute.convert_to_tensor(labels, dtype_hint=logits.dtype)
    if labels.shape != logits.shape:
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({logits.shape} vs {labels.shape}).")
    zeros = A.zeros_like(logits)
    cond = M.greater_equal(logits, zeros)
    relu_logits = A.where(cond, logits, zeros)
    neg_abs_logits = A.where(cond, M.negative(logits), logits)
    return M.add(M.subtract(relu_logits, M.multiply(logits, labels)),
                 M.log1p(M.exp(neg_abs_logits)))


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None) -> Tensor:
    """``-sum(labels * log_softmax(logits), axis)``: one loss per example.

    As in TF, the gradient w.r.t. ``logits`` is ``softmax(logits) - labels`` (exact when
    each row of ``labels`` sums to 1) and gradients also flow into ``labels``.
    """
    logits = A._t(logits)
    labels = execute.convert_to_tensor(labels, dtype_hint=logits.dtype)
    execute.check_same_dtype("SoftmaxCrossEntropyWithLogits", logits, labels)
    _move_dim_to_end(int(axis), logits.ndim)
    a = A._axis(axis, logits.ndim, "SoftmaxCrossEntropyWithLogits")
    try:
        lab = backend.xp.broadcast_to(labels._value, logits._value.shape)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, "logits and labels must be broadcastable: logits_size="
                        f"{M._shape_text(logits)} labels_size={M._shape_text(labels)} "
                        "[Op:SoftmaxCrossEntropyWithLogits]") from None
    rows, moved = _class_rows(logits._value, a)
    if moved[-1] == 0:  # no classes: each loss is an empty sum, where TF's rows allow
        _flat_rows(moved)
        return execute.execute("SoftmaxCrossEntropyWithLogits", [logits, labels],
                               backend.xp.zeros(moved[:-1], dtype=logits._value.dtype),
                               attrs={"axis": a}, flops=0)
    if eigen_xent.modelled(rows) and type(lab) is np.ndarray:
        loss = eigen_xent.dense_loss(rows, _class_rows(lab, a)[0]).reshape(moved[:-1])
    else:
        with np.errstate(all="ignore"):
            s, lse = _shifted(logits._value, a)
            loss = backend.xp.sum(lab * (lse - s), axis=a)
    return execute.execute("SoftmaxCrossEntropyWithLogits", [logits, labels], loss,
                          attrs={"axis": a}, flops=5 * logits._value.size)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None) -> Tensor:
    """Cross-entropy with integer class ``labels`` (shape ``logits.shape[:-1]``).

    Raises:
      ValueError: if ``labels`` does not have rank ``rank(logits) - 1``.
      InvalidArgumentError: for a label outside ``[0, num_classes)``.
    """
    logits = A._t(logits)
    labels = A._t(labels)
    if labels.ndim != logits.ndim - 1:
        raise ValueError(
            f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
            f"labels.shape={labels.shape} of rank {labels.ndim} and "
            f"logits.shape={logits.shape} of rank {logits.ndim}")
    if tuple(labels.shape) != tuple(logits.shape)[:-1]:
        raise ValueError(
            f"`labels.shape` must equal `logits.shape` except for the last dimension. "
            f"Received: labels.shape={labels.shape} and logits.shape={logits.shape}")
    if not labels.dtype.is_integer:
        raise TypeError(f"Value passed to parameter 'labels' has DataType "
                        f"{labels.dtype.name} not in list of allowed values: int32, int64")
    n = logits._value.shape[-1]
    host = np.asarray(backend.to_host(labels._value)).reshape(-1)
    # the wrapper flattens all but rank-2 logits (nn_ops.py)
    rows = logits.shape[0] if logits.ndim == 2 else _flat_rows(logits.shape, check=False)
    if rows != host.size:
        raise errors.InvalidArgumentError(
            None, None, f"logits and labels must have the same first dimension, got logits "
                        f"shape [{rows},{n}] and labels shape [{host.size}] "
                        "[Op:SparseSoftmaxCrossEntropyWithLogits]")
    if n == 0:
        raise errors.InvalidArgumentError(
            None, None, f"Must have at least one class, but got logits shape [{rows},0] "
                        "[Op:SparseSoftmaxCrossEntropyWithLogits]")
    bad = host[(host < 0) | (host >= n)]
    if bad.size:
        raise errors.InvalidArgumentError(
            None, None, f"Received a label value of {int(bad[0])} which is outside the valid "
                        f"range of [0, {n}).  Label values: {' '.join(map(str, host))} "
                        "[Op:SparseSoftmaxCrossEntropyWithLogits]")
    v = logits._value
    if eigen_xent.modelled(v):
        loss = eigen_xent.sparse_loss(v.reshape(-1, n), host).reshape(v.shape[:-1])
    else:
        xp = backend.xp
        with np.errstate(all="ignore"):
            s, lse = _shifted(v, -1)
            picked = xp.take_along_axis(s, array_api.astype(labels._value[..., None], np.int64),
                                        axis=-1)
            loss = (lse - picked)[..., 0]
    return execute.execute("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], loss,
                          flops=5 * logits._value.size)


def l2_loss(t, name=None) -> Tensor:
    """``sum(t ** 2) / 2``: one op, TF's L2Loss (its kernel sums ``t.square() * 0.5``)."""
    x = A.convert_to_tensor(t)
    if not x.dtype.is_floating:
        op_types.refuse_dtype("L2Loss", x, "half, bfloat16, float, double")
    v = x._value
    half = (v * v * np.asarray(0.5, dtype=v.dtype)).astype(v.dtype)
    return execute.execute("L2Loss", [x], M._sum(half, tuple(range(v.ndim))),
                           flops=2 * v.size)


def bias_add(value, bias, data_format=None, name=None) -> Tensor:
    """``value + bias`` with ``bias`` along the channels: the last dimension, or the second
    with a ``data_format`` starting 'NC' (TF's BiasAdd, whose gradient BiasAddGrad sums in
    float32 for float16 and bfloat16 inputs, where ``x + b``'s sums in the input's dtype).

    Raises:
      InvalidArgumentError: a bias that is not 1-D, an input below rank 2, or not one bias
        per channel (TF's kernel messages).
    """
    v = A._t(value)
    b = bias if isinstance(bias, Tensor) else execute.convert_to_tensor(bias, dtype=v.dtype)
    b = A._t(b)
    execute.check_same_dtype("BiasAdd", v, b)
    axis = _bias_axis(v, data_format)
    if b.ndim != 1:
        raise errors.InvalidArgumentError(
            None, None, f"Biases must be 1D: {_dims(b)} [Op:BiasAdd]")
    if v.ndim < 2:
        raise errors.InvalidArgumentError(
            None, None, f"Input tensor must be at least 2D: {_dims(v)} [Op:BiasAdd]")
    if v.shape[axis] != b.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, "Must provide as many biases as the last dimension of the input "
                        f"tensor: {_dims(b)} vs. {_dims(v)} [Op:BiasAdd]")
    shape = [1] * v.ndim
    shape[axis] = b.shape[0]
    xp = array_api.namespace(b._value)
    return execute.execute("BiasAdd", [v, b], v._value + xp.reshape(b._value, tuple(shape)),
                          attrs={"axis": axis})


def bias_add_grad(grad, axis) -> Tensor:
    """TF's BiasAddGrad: ``grad`` summed over every axis but ``axis``, accumulated in float32
    for float16 and bfloat16 (Eigen's AccumulatorType), rounded once; float32 and float16
    channels-last, and float32 channels-first, in TF's order (eigen_redux.py)."""
    g = A._t(grad)
    return execute.execute("BiasAddGrad", [g], bias_grad_value(g._value, axis % g.ndim),
                           attrs={"axis": axis % g.ndim})


def bias_grad_value(v, axis):
    """BiasAddGrad's value of the array ``v``, channel axis ``axis`` (non-negative)."""
    value = _bias_grad_in_order(v, axis)
    if value is None:
        xp = array_api.namespace(v)  # NumPy for host-held 16-bit floats
        acc = xp.float32 if execute.low_precision(v.dtype) else v.dtype
        value = xp.sum(v, axis=tuple(i for i in range(v.ndim) if i != axis), dtype=acc)
    return _same_dtype(value, v)


def _bias_grad_in_order(v, axis):
    """BiasAddGrad's sums in TF's redux functor order, or None (another dtype; 16-bit
    channels-first, whose runs Eigen sums in 16 bits)."""
    if type(v) is not np.ndarray or v.dtype not in (np.float32, np.float16) or not v.size:
        return None
    if axis == v.ndim - 1:
        return eigen_redux.outer_sum(v.reshape(-1, v.shape[-1]), v.dtype.itemsize)
    if v.dtype != np.float32:
        return None
    return eigen_redux.middle_sum(v.reshape(v.shape[0], v.shape[1], -1))


def _bias_axis(v, data_format) -> int:
    return 1 if data_format is not None and str(data_format).startswith("NC") else -1


def _dims(t) -> str:
    return "[" + ",".join(str(d) for d in t.shape) + "]"


SPARSE_XENT_KERNEL = "SparseSoftmaxCrossEntropyWithLogits"   # its kernel, its scope

__all__ = ["relu", "sigmoid", "tanh", "softplus", "softmax", "log_softmax",
           "sigmoid_cross_entropy_with_logits", "softmax_cross_entropy_with_logits",
           "sparse_softmax_cross_entropy_with_logits", "l2_loss", "bias_add"]


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
sparse_softmax_cross_entropy_with_logits = op_recording.recorded(   # TF's scope and kernel
    sparse_softmax_cross_entropy_with_logits,
    name=lambda labels=None, logits=None, name=None:
        (name,) if name else (SPARSE_XENT_KERNEL, SPARSE_XENT_KERNEL))
sigmoid_cross_entropy_with_logits = op_recording.recorded(   # nn_impl's scope and
    sigmoid_cross_entropy_with_logits,                     # its last op's name
    name=lambda labels=None, logits=None, name=None: (name or "logistic_loss",))
softmax_cross_entropy_with_logits = op_recording.recorded(
    softmax_cross_entropy_with_logits,
    name=lambda labels, logits, axis=-1, name=None: (name or
                                                     "softmax_cross_entropy_with_logits",))
op_recording.record_here(__name__)
