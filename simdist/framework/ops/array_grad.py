"""Gradient rules of the array ops (reshaping, joining, slicing, selection).

Glossary:
  layout ops  -- reshape, transpose, squeeze ...: the gradient is the inverse layout change.
  join / cut  -- concat's gradient is a split and the other way round (stack / unstack).
  selection   -- where / gather / slicing: the gradient goes back to the selected
                 positions and is zero elsewhere.

Mirrors tensorflow/python/ops/array_grad.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import pad_ops, selection_ops
from simdist.framework.ops.math_grad import unbroadcast

for _op in ("StopGradient", "ZerosLike", "OnesLike", "Shape", "Size", "Rank", "OneHot",
            "Where", "Const"):
    execute.NotDifferentiable(_op)


@execute.RegisterGradient("Identity")
def _identity_grad(op, grad):
    return grad


@execute.RegisterGradient("IdentityN")
def _identity_n_grad(op, *grads):
    return grads


@execute.RegisterGradient("ReadVariableOp")
def _read_variable_grad(op, grad):
    return grad


@execute.RegisterGradient("Fill")
def _fill_grad(op, grad):
    return M.reduce_sum(grad)


@execute.RegisterGradient("Cast")
def _cast_grad(op, grad):
    """A sparse gradient stays sparse: its values are cast (TF's math_ops.cast of an
    IndexedSlices), e.g. an embedding gathered from a float16 cast of its variable."""
    src, dst = op.attrs["SrcT"], op.attrs["DstT"]
    if not (src.is_floating and dst.is_floating):
        return None
    if isinstance(grad, IndexedSlices):
        return IndexedSlices(A.cast(grad.values, src), grad.indices, grad.dense_shape)
    return A.cast(grad, src)


def _reshape_back(op, grad):
    return A.reshape(grad, list(op.inputs[0].shape))


for _op in ("Reshape", "ExpandDims", "Squeeze"):
    execute.RegisterGradient(_op)(_reshape_back)


@execute.RegisterGradient("Transpose")
def _transpose_grad(op, grad):
    return A.transpose(grad, np.argsort(op.attrs["perm"]).tolist())


@execute.RegisterGradient("ConcatV2")
def _concat_grad(op, grad):
    return A.split(grad, op.attrs["sizes"], axis=op.attrs["axis"])


@execute.RegisterGradient("Pack")
def _pack_grad(op, grad):
    return A.unstack(grad, axis=op.attrs["axis"])


@execute.RegisterGradient("Unpack")
def _unpack_grad(op, *grads):
    return A.stack(list(grads), axis=op.attrs["axis"])


def _split_grad(op, *grads):
    return A.concat(list(grads), axis=op.attrs["axis"])


execute.RegisterGradient("Split")(_split_grad)
execute.RegisterGradient("SplitV")(_split_grad)


@execute.RegisterGradient("SelectV2")
def _select_grad(op, grad):
    c, x, y = op.inputs
    zeros = A.zeros_like(grad)
    gx = unbroadcast(A.where(c, grad, zeros), x.shape) if op.needs_grad(1) else None
    gy = unbroadcast(A.where(c, zeros, grad), y.shape) if op.needs_grad(2) else None
    return None, gx, gy


@execute.RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    return unbroadcast(grad, op.inputs[0].shape)


@execute.RegisterGradient("ReverseV2")
def _reverse_grad(op, grad):
    return A.reverse(grad, op.attrs["axis"])


@execute.RegisterGradient("Tile")
def _tile_grad(op, grad):
    # View the tiled gradient as [m0, d0, m1, d1, ...] and sum over the copies m_i.
    shape = list(op.inputs[0].shape)
    split = []
    for m, d in zip(op.attrs["multiples"], shape):
        split += [m, d]
    g = A.reshape(grad, split)
    return M.reduce_sum(g, list(range(0, 2 * len(shape), 2)))


@execute.RegisterGradient("GatherV2")
def _gather_grad(op, grad):
    # Along axis 0, TF's gradient is sparse: the gathered rows' gradients at their indices
    # (tf.IndexedSlices). Along another axis, scatter-add the gathered slices back: move
    # the index dimensions first, sum the slices per index with unsorted_segment_sum, then
    # move the result to ``axis``.
    params, indices = op.inputs
    a = op.attrs["axis"]
    if a == 0:
        values = A.reshape(grad, [-1] + list(params.shape)[1:])
        return IndexedSlices(values, A.reshape(indices, [-1]), A.shape(params)), None
    p_rank, i_rank = params.ndim, indices.ndim
    g_rank = p_rank - 1 + i_rank
    idx_dims = list(range(a, a + i_rank))
    rest = [d for d in range(g_rank) if d not in idx_dims]
    g = A.transpose(grad, idx_dims + rest) if a else grad
    summed = M.unsorted_segment_sum(g, indices, params.shape[a])
    if a:
        perm = list(range(1, a + 1)) + [0] + list(range(a + 1, p_rank))
        summed = A.transpose(summed, perm)
    return summed, None


@execute.RegisterGradient("StridedSlice")
def _strided_slice_grad(op, grad):
    return A.strided_slice_grad(grad, op.attrs["key"], op.attrs["shape"])


@execute.RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, grad):
    return A.strided_slice(grad, op.attrs["key"])


@execute.RegisterGradient("Slice")
def _slice_grad(op, grad):
    """The gradient padded back to the input's shape with zeros (TF's _SliceGrad)."""
    dims = list(op.inputs[0].shape)
    begin, size = op.attrs["begin"], op.attrs["size"]
    return pad_ops.pad(grad, [[b, d - b - n] for b, d, n in zip(begin, dims, size)])


@execute.RegisterGradient("Pad")
@execute.RegisterGradient("PadV2")
def _pad_grad(op, grad):
    """The padded gradient's middle, the input's place (TF's _PadGrad); the constant value
    has none."""
    begin = [before for before, _ in op.attrs["paddings"]]
    return selection_ops.slice(grad, begin, list(op.inputs[0].shape))
