"""The operations TF's graph lists for ``tf.tensordot`` recorded whole in a trace (its
dynamic path: a shape known only in part), ``get_operations``.

Glossary:
  scope    -- the node's name (``Tensordot``, made unique, or the ``name=`` given): every
              op is under it, and the result's Reshape is named the scope itself.
  static   -- a side of a fully known shape: a ``transpose`` (its ``perm``) and a
              ``Reshape`` (its ``shape``), each only when it changes the tensor.
  dynamic  -- a side whose shape is read at run time: the ``axes`` and ``free`` Consts,
              ``Shape``, ``GatherV2`` of the free and of the contracted dims, their
              ``Prod`` (default axes ``Const``), ``concat`` (the permutation), ``stack``
              (the new shape), ``transpose``, ``Reshape``.
  result   -- ``MatMul``; the free dims of a static side as a Const, ``concat`` of both
              sides' and the Reshape named after the scope.
  read axes -- a side of unknown rank, or whose axes are a tensor: ``Shape`` and
              ``Rank`` (Consts where known), the axes made non-negative (``GreaterEqual``,
              ``add``, ``Select``), the free ones by ``range`` and ``ListDiff``; an int
              ``N`` over an unknown rank: ``Rank``, ``sub``, ``range`` and ``range_1``.
  tensor axes -- axes given as a (2, n) tensor: ``axes[0]`` and ``axes[1]`` first
              (``strided_slice``, ``strided_slice_1``), then each side's axes read.

Mirrors tensorflow/python/ops/math_ops.py (tensordot, _tensordot_reshape).
"""

from __future__ import annotations

import builtins

import numpy as np

from simdist.framework import dtypes, execute
from simdist.framework.gradient_listing import Scope
from simdist.framework.ops import tensordot_ops
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape

_I32 = dtypes.int32


def _side(s, t, axes, flipped):
    """_tensordot_reshape's ops for the GraphTensor ``t`` and its contracted ``axes`` (a
    list, or a GraphTensor of them): (reshaped, free dims: a list for a static side, else
    the GatherV2 of them)."""
    shape = t.shape.as_list() if t.shape.rank is not None else None
    if isinstance(axes, list):
        axes = [i if i >= 0 else i + len(shape) for i in axes] if shape is not None else axes
    if shape is not None and None not in shape and isinstance(axes, list):
        free = [i for i in builtins.range(len(shape)) if i not in axes]
        perm = axes + free if flipped else free + axes
        new_shape = [int(np.prod([shape[i] for i in axes])),
                     int(np.prod([shape[i] for i in free]))]
        new_shape = new_shape if flipped else new_shape[::-1]
        if perm != list(builtins.range(len(shape))):
            t = s.op("transpose", "Transpose", [t, ("perm", perm)], dtype=t.dtype,
                     shape=tuple(shape[i] for i in perm))
        if list(t.shape.as_list()) != new_shape:
            t = s.op("Reshape", "Reshape", [t, ("shape", new_shape)], dtype=t.dtype,
                     shape=tuple(new_shape))
        return t, [shape[i] for i in free]
    if shape is not None and isinstance(axes, list):   # a rank known: the axes' Consts
        free = [i for i in builtins.range(len(shape)) if i not in axes]
        axes_t, free_t = s.const("axes", axes), s.const("free", free)
        shape_t = s.op("Shape", "Shape", [t], dtype=_I32, shape=(len(shape),))
    else:
        shape_t, axes_t, free_t = _read_axes(s, t, shape, axes)
    n_free = None if shape is None or not isinstance(axes, list) else len(shape) - len(axes)
    n_axes = len(axes) if isinstance(axes, list) else axes.shape.as_list()[0]
    free_dims = s.op("GatherV2", "GatherV2", [shape_t, free_t, ("axis", 0)], dtype=_I32,
                     shape=(n_free,))
    axes_dims = s.op("GatherV2", "GatherV2", [shape_t, axes_t, ("axis", 0)], dtype=_I32,
                     shape=(n_axes,))
    prods = [s.op("Prod", "Prod", [d, s.const("Const", [0])], dtype=_I32, shape=())
             for d in (free_dims, axes_dims)]
    order = [axes_t, free_t] if flipped else [free_t, axes_t]
    perm = s.op("concat", "ConcatV2", order + [("axis", 0)], dtype=_I32,   # (a ListDiff's:
                shape=(None if shape is None or not isinstance(axes, list)   # unknown)
                       else len(shape),))
    new_shape = s.op("stack", "Pack", prods[::-1] if flipped else prods, dtype=_I32,
                     shape=(2,))
    t = s.op("transpose", "Transpose", [t, perm], dtype=t.dtype, shape=None)
    return s.op("Reshape", "Reshape", [t, new_shape], dtype=t.dtype, shape=(None, None)), \
        free_dims


def _read_axes(s, t, shape, axes):
    """The shape, contracted and free axes of a side read at run time (a rank not known, or
    axes given as a tensor): Shape and Rank (Consts where known), the axes made
    non-negative (GreaterEqual, add, Select) and the free ones (range, ListDiff)."""
    known = shape is not None and None not in shape
    shape_t = s.const("Shape", shape) if known else s.op(
        "Shape", "Shape", [t], dtype=_I32, shape=(None if shape is None else len(shape),))
    rank_t = s.const("Rank", len(shape)) if shape is not None else s.op(
        "Rank", "Rank", [t], dtype=_I32, shape=())
    if isinstance(axes, list):
        axes = s.const("axes", axes)
    n = axes.shape.as_list()[0] if axes.shape.rank else None
    at_least = s.op("GreaterEqual", "GreaterEqual", [axes, ("y", 0)], dtype=dtypes.bool_,
                    shape=(n,))
    shifted = s.op("add", "AddV2", [axes, rank_t], dtype=_I32, shape=(n,))
    axes = s.op("Select", "Select", [at_least, axes, shifted], dtype=_I32, shape=(n,))
    every = s.op("range", "Range", [("start", 0), rank_t, ("delta", 1)], dtype=_I32,
                 shape=(None if shape is None else len(shape),))
    free = s.b.add(s.name("ListDiff"), "ListDiff", [every, axes],
                   [(_I32, (None,)), (_I32, (None,))]).outputs[0]
    return shape_t, axes, free


def _rank_axes(s, a, n):
    """_tensordot_axes for an int ``n`` and ``a`` of unknown rank: ``range(rank(a) - n,
    rank(a))`` and ``range(n)``."""
    rank = s.op("Rank", "Rank", [a], dtype=_I32, shape=())
    start = s.op("sub", "Sub", [rank, ("y", n)], dtype=_I32, shape=())
    a_axes = s.op("range", "Range", [start, rank, ("delta", 1)], dtype=_I32, shape=(None,))
    b_axes = s.op("range", "Range", [("start", 0), ("limit", n), ("delta", 1)], dtype=_I32,
                  shape=(n,))
    return a_axes, b_axes


def _row(s, axes, i):
    """``axes[i]`` of axes given as a (2, n) tensor: its ``stack`` Consts and the
    StridedSlice (shrink_axis_mask 1)."""
    name = s.name("strided_slice")
    inner = Scope(s.b, name + "/")
    bounds = [inner.const("stack", [b]) for b in (i, i + 1, 1)]
    out = s.op("strided_slice", "StridedSlice", [axes] + bounds, dtype=_I32,
               shape=tuple(axes.shape.as_list()[1:]), name=name)
    out.op._given = {"shrink_axis_mask": 1}
    return out


def _operand(s, builder, name, label, value):
    found = builder.converted(name, None, value)
    if len(found) == 1:
        return found[0]
    if not isinstance(value, Tensor):
        value = execute.convert_to_tensor(value)   # TF's dtype for a Python value
    if value.dtype.is_string:
        return None
    out = s.const(label, value.numpy(), value.dtype)
    out.shape = TensorShape(value.shape)
    return out


def list_tensordot(builder, name, args, kwargs, outputs):
    """The ops of the tensordot node ``name`` (graph_operations.LISTINGS), or None."""
    call = dict(zip(("a", "b", "axes"), args))
    call.update(kwargs)
    s = Scope(builder, name + "/")
    a = _operand(s, builder, name, "a", call["a"])
    b = _operand(s, builder, name, "b", call["b"])
    axes = call["axes"]
    tensor_axes = builder.converted(name, None, axes) \
        if not isinstance(axes, (int, np.integer, list, tuple)) else []
    if a is None or b is None or not isinstance(axes, (int, np.integer, list, tuple)) and (
            len(tensor_axes) != 1 or tensor_axes[0].shape.rank != 2):
        return None
    if tensor_axes:   # _tensordot_axes: axes[0] and axes[1] of the tensor
        a_axes, b_axes = (_row(s, tensor_axes[0], i) for i in (0, 1))
    elif a.shape.rank is None and isinstance(axes, (int, np.integer)):
        a_axes, b_axes = _rank_axes(s, a, int(axes))
    else:
        a_axes, b_axes = (list(x) for x in tensordot_ops.axes_lists(a.shape.rank, axes))
        if len(a_axes) != len(b_axes):
            return None
    a_t, a_free = _side(s, a, a_axes, False)
    b_t, b_free = _side(s, b, b_axes, True)
    product = s.op("MatMul", "MatMul", [a_t, b_t], dtype=a.dtype, shape=(None, None))
    free = [d if not isinstance(d, list) else s.const("Const", d) for d in (a_free, b_free)]
    shape = s.op("concat", "ConcatV2", free + [("axis", 0)], dtype=_I32, shape=None)
    return builder.add(name, "Reshape", [product, shape], outputs)
