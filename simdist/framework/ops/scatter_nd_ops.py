"""``tf.gather_nd``, ``tf.scatter_nd`` and ``tf.tensor_scatter_nd_{update,add,sub,min,max}``:
reading and writing a tensor at index tuples.

Glossary:
  index tuple   -- the last dimension of ``indices`` (its depth, at most the rank): one
                   coordinate per leading dimension of the indexed tensor; the slice it
                   names is what is left of the other dimensions.
  outer shape   -- ``indices.shape[:-1]``: one index tuple per position; ``updates`` has
                   that shape followed by the slice's (TF's "Dimensions [a,b) of ..." text
                   when not).
  scatter       -- ``scatter_nd`` adds the updates into zeros of ``shape`` (repeated
                   indices add up); ``tensor_scatter_nd_*`` start from ``tensor`` and
                   replace, add, subtract, or keep the smaller / larger value.
  out of range  -- an index tuple outside the shape: TF's InvalidArgumentError naming it
                   (a negative coordinate too: no wrapping around, as in TF).

Mirrors tensorflow/python/ops/array_ops.py (gather_nd, scatter_nd, tensor_scatter_nd_*),
their CPU kernels (core/kernels/gather_nd_op.cc, scatter_nd_op.cc) and the gradients in
python/ops/array_grad.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import errors, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.hardware import array_api, backend

_ALLOWED = "int16, int32, int64"


def _indices(op_type, indices):
    """``indices`` as a tensor of an integer type (TF's attr error else) and on the host."""
    idx = A._t(indices)
    if idx.dtype.name not in _ALLOWED.split(", "):
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'Tindices' of {execute.kernel_dtype_name(idx.dtype)} "
                        f"is not in the list of "
                        f"allowed values: {_ALLOWED}\n\t; NodeDef: {{{{node {op_type}}}}} "
                        f"[Op:{op_type}]")
    return idx, np.asarray(backend.to_host(idx._value)).astype(np.int64)


def _dims(shape) -> str:
    return ",".join(str(d) for d in shape)


def _check_in_range(op_type, host, shape, what) -> None:
    """Every index tuple inside ``shape`` (TF's text naming the first one that is not)."""
    depth = host.shape[-1]
    tuples = host.reshape(-1, depth)
    bad = np.nonzero(((tuples < 0) | (tuples >= np.asarray(shape[:depth]))).any(axis=1))[0]
    if bad.size:
        i = int(bad[0])
        coords = ", ".join(str(int(c)) for c in tuples[i])
        raise errors.InvalidArgumentError(
            None, None, f"indices[{i}] = [{coords}] does not index into {what} "
                        f"[{_dims(shape)}]" + (", node name: GatherNd" if op_type == "GatherNd"
                                                else "") + f" [Op:{op_type}]")


def _position(host):
    """NumPy's advanced index for the index tuples: one array per coordinate."""
    return tuple(host[..., i] for i in range(host.shape[-1]))


def gather_nd(params, indices, batch_dims=0, name=None):
    """The slices of ``params`` named by the index tuples of ``indices`` (the output's
    shape: the outer shape, then each slice's).

    With ``batch_dims`` b, the first b dimensions of ``params`` and ``indices`` are batch
    dimensions: each batch's index tuples index its own slice of ``params``.

    Raises:
      InvalidArgumentError: TF's texts: an index of another type, tuples longer than the
        rank, a tuple out of range; batch dimensions that differ (TF's reshape error).
      ValueError: ``batch_dims`` negative, or not below both ranks (TF's texts).
    """
    if batch_dims != 0:
        return _batch_gather_nd(params, indices, int(batch_dims))
    p = A._t(params)
    idx, host = _indices("GatherNd", indices)
    if host.shape[-1] > p.ndim:
        raise errors.InvalidArgumentError(
            None, None, f"index innermost dimension length must be <= params rank; saw: "
                        f"{host.shape[-1]} vs. {p.ndim} [Op:GatherNd]")
    _check_in_range("GatherNd", host, p._value.shape, "param shape")
    xp = array_api.namespace(p._value)
    pos = _position(host) if xp is np else tuple(xp.asarray(c) for c in _position(host))
    return execute.execute("GatherNd", [p, idx], array_api.copy(p._value[pos]))


def _batch_gather_nd(params, indices, b):
    """TF's batch_gather_nd: each index tuple prefixed with its batch position, then one
    GatherNd (its gradient too), reshaped to the batch shape and the gathered slices."""
    idx, p = A._t(indices), A._t(params)
    if b < 0:
        raise ValueError("tf.gather_nd does not allow negative batch_dims.")
    for what, rank in (("indices", idx.ndim), ("params", p.ndim)):
        if b >= rank:
            raise ValueError(f"Argument `batch_dims` = {b} must be less than rank(`{what}`) "
                             f"= {rank}")
    batch_shape = list(p.shape[:b])
    flat = A.reshape(idx, [int(np.prod(batch_shape))] + list(idx.shape[b:]))   # TF's check
    inner = list(idx.shape[b:-1])
    grid = np.stack(np.meshgrid(*[np.arange(d) for d in batch_shape], indexing="ij"), -1)
    grid = np.broadcast_to(grid.reshape([-1] + [1] * len(inner) + [b]),
                           [grid.size // b] + inner + [b])
    full = A.concat([A.constant(grid.astype(idx.dtype.as_numpy_dtype)), flat], axis=-1)
    out = gather_nd(p, full)
    return A.reshape(out, batch_shape + list(out.shape[1:]))


def _check_updates(op_type, host, updates_shape, shape) -> None:
    """``updates`` shaped as the outer shape then the slice, tuples no longer than the rank
    (TF's texts)."""
    outer = host.shape[:-1]
    depth = host.shape[-1]
    if tuple(updates_shape[:len(outer)]) != tuple(outer):
        if op_type == "ScatterNd":
            raise errors.InvalidArgumentError(
                None, None, f"Dimensions [0,{len(outer)}) of indices[shape=[{_dims(host.shape)}"
                            f"]] must match dimensions [0,{len(outer)}) of updates[shape=["
                            f"{_dims(updates_shape)}]] [Op:{op_type}]")
        raise errors.InvalidArgumentError(
            None, None, f"Outer dimensions of indices and update must match. Indices shape: "
                        f"[{_dims(host.shape)}], updates shape:[{_dims(updates_shape)}] "
                        f"[Op:{op_type}]")
    if depth > len(shape) or tuple(updates_shape[len(outer):]) != tuple(shape[depth:]):
        raise errors.InvalidArgumentError(
            None, None, f"Dimensions [{depth},{len(shape)}) of input[shape=[{_dims(shape)}]] "
                        f"must match dimensions [{len(outer)},{len(updates_shape)}) of updates"
                        f"[shape=[{_dims(updates_shape)}]] [Op:{op_type}]")


def _scatter(op_type, base, idx, host, updates, combine):
    """``base`` (a tensor) with ``updates`` combined in at the index tuples, in order; the
    op's inputs are TF's (ScatterNd's: the indices and updates; its shape is an attr)."""
    u = A._t(updates, dtype=base.dtype)
    shape = tuple(base._value.shape)
    _check_updates(op_type, host, tuple(u._value.shape), shape)
    _check_in_range(op_type, host, shape, "shape")
    value = np.array(backend.to_host(base._value))
    pos = _position(host)
    if combine is None:   # replace: a repeated tuple keeps its last update, as TF's kernel
        value[pos] = np.asarray(backend.to_host(u._value))
    else:
        combine.at(value, pos, np.asarray(backend.to_host(u._value)))
    xp = array_api.namespace(base._value)
    out = value if xp is np else xp.asarray(value)
    inputs = [idx, u] if op_type == "ScatterNd" else [base, idx, u]
    return execute.execute(op_type, inputs, out)


def scatter_nd(indices, updates, shape, name=None):
    """Zeros of ``shape`` with ``updates`` added at the index tuples (repeated ones add up).

    Raises:
      InvalidArgumentError: TF's texts: an index of another type, updates of another
        shape than the indices' outer shape then the slice's, a tuple out of range.
    """
    idx, host = _indices("ScatterNd", indices)
    u = A._t(updates)
    zeros = A.zeros(A._ints(shape), dtype=u.dtype)
    return _scatter("ScatterNd", zeros, idx, host, u, np.add)


def _tensor_scatter(op_type, combine):
    def op(tensor, indices, updates, name=None):
        t = A._t(tensor)
        idx, host = _indices(op_type, indices)
        return _scatter(op_type, t, idx, host, updates, combine)
    return op


tensor_scatter_nd_update = _tensor_scatter("TensorScatterUpdate", None)
tensor_scatter_nd_update.__doc__ = "``tensor`` with the slices at the index tuples replaced."
tensor_scatter_nd_add = _tensor_scatter("TensorScatterAdd", np.add)
tensor_scatter_nd_add.__doc__ = "``tensor`` with ``updates`` added at the index tuples."
tensor_scatter_nd_sub = _tensor_scatter("TensorScatterSub", np.subtract)
tensor_scatter_nd_sub.__doc__ = "``tensor`` with ``updates`` subtracted at the index tuples."
tensor_scatter_nd_min = _tensor_scatter("TensorScatterMin", np.minimum)
tensor_scatter_nd_min.__doc__ = "``tensor`` keeping the smaller value at the index tuples."
tensor_scatter_nd_max = _tensor_scatter("TensorScatterMax", np.maximum)
tensor_scatter_nd_max.__doc__ = "``tensor`` keeping the larger value at the index tuples."
for _name in ("update", "add", "sub", "min", "max"):
    globals()[f"tensor_scatter_nd_{_name}"].__name__ = f"tensor_scatter_nd_{_name}"


# --- gradients (array_grad.py) ----------------------------------------------------------
@execute.RegisterGradient("GatherNd")
def _gather_nd_grad(op, grad):
    params, indices = op.inputs
    return scatter_nd(indices, grad, A.shape(params, out_type=indices.dtype)), None


@execute.RegisterGradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return None, gather_nd(grad, op.inputs[0])


@execute.RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    indices = op.inputs[1]
    updates_grad = gather_nd(grad, indices)
    return tensor_scatter_nd_update(grad, indices, A.zeros_like(updates_grad)), None, \
        updates_grad


def _tensor_scatter_min_or_max_grad(op, grad):
    """TF's _TensorScatterMinOrMaxGrad: the gradient goes to the elements equal to the
    output, shared equally between ties."""
    x, indices, y = op.inputs
    output = op.outputs[0]
    x_indicators = A.cast(M.equal(x, output), grad.dtype)
    y_indicators = A.cast(M.equal(y, gather_nd(output, indices)), grad.dtype)
    indicators = M.add(x_indicators, scatter_nd(indices, y_indicators, A.shape(x)))
    x_grad = M.truediv(M.multiply(grad, x_indicators), indicators)
    y_grad = M.multiply(gather_nd(M.truediv(grad, indicators), indices), y_indicators)
    return x_grad, None, y_grad


execute.RegisterGradient("TensorScatterMax")(_tensor_scatter_min_or_max_grad)
execute.RegisterGradient("TensorScatterMin")(_tensor_scatter_min_or_max_grad)


@execute.RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    return grad, None, gather_nd(grad, op.inputs[1])


@execute.RegisterGradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    return grad, None, M.negative(gather_nd(grad, op.inputs[1]))


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
