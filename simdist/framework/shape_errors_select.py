"""TF's shape functions' errors and output shapes at trace time for the selection and
padding ops: SelectV2 (3-argument ``tf.where``), OneHot, Unique, Slice, Pad / PadV2 /
MirrorPad, EnsureShape (shape_errors.RULES and SHAPES).

Glossary:
  SelectV2 -- ``then`` and ``else`` broadcast together first, then ``condition`` with
              that (BroadcastSelectShapeFn): the first pair that cannot is the error.
  OneHot   -- ``axis`` below -1 is an error; otherwise the depth goes in at
              ``(axis + rank + 1) % (rank + 1)`` (an axis past the rank wraps around, as
              TF's shape function computes it; the kernel refuses it at execution); a known
              negative depth is an error ("computed input").
  rank errors -- Unique wants a vector, Slice a ``begin`` as long as the rank, Pad as many
              rows of paddings as the rank: "Shape must be rank N but is rank M".
  EnsureShape -- the expected shape merged with the input's (Merge's text, the expected
              shape first).

Mirrors tensorflow/core/ops/array_ops.cc (SelectV2's BroadcastSelectShapeFn, OneHot,
Unique, Slice, Pad, PadV2, MirrorPad) and common_shape_fns.cc.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, shape_errors_array
from simdist.framework.shape_errors import (
    RUNTIME_CHECKED,
    SHAPES,
    _broadcast_dims,
    _broadcast_problem,
    _dims,
    _dtype_attr,
    _merge,
    _shape_text,
    register,
)
from simdist.framework.tensor_shape import TensorShape


def _rank_text(node, want, have, attrs, inputs, shapes):
    return node.text(f"Shape must be rank {want} but is rank {have}", attrs, inputs, shapes)


@register("SelectV2")
def _select(node, arguments):
    named = dict(arguments)
    c, x, y = named["condition"], named["x"], named["y"]
    dc, dx, dy = _dims(c), _dims(x), _dims(y)
    problem = _broadcast_problem(dx, dy) or _broadcast_problem(dc, _broadcast_dims(dx, dy))
    if problem is None:
        return None
    return node.text(problem, {"T": _dtype_attr(x)},
                     [node.input_name(c, "condition"), node.input_name(x, "t"),
                      node.input_name(y, "e")], [dc, dx, dy])


@register("SelectV2", table=SHAPES)
def _select_shape(arguments):
    named = dict(arguments)
    dims = _broadcast_dims(_dims(named["condition"]),
                           _broadcast_dims(_dims(named["x"]), _dims(named["y"])))
    return dims, getattr(named["x"], "dtype", dtypes.float32)


def _one_hot_dtype(named):
    given = named.get("dtype")
    for key in ("on_value", "off_value"):
        if given is None and named.get(key) is not None:
            given = getattr(named[key], "dtype", None)
    return dtypes.float32 if given is None else dtypes.as_dtype(given)


def _one_hot_axis(named) -> int:
    return -1 if named.get("axis") is None else int(named["axis"])


@register("OneHot")
def _one_hot(node, arguments):
    named = dict(arguments)
    indices, axis = named["indices"], _one_hot_axis(named)
    depth = shape_errors_array._ints(named["depth"])
    tail = ""
    if axis < -1:
        problem = "axis must be >= -1"
    elif depth is not None and depth[0] < 0:
        problem = (f"Dimension size, given by scalar input 1, must be non-negative but is "
                   f"{depth[0]}")
        tail = shape_errors_array._computed(1, depth)
    else:
        return None
    attrs = {"T": dtypes.datatype_name(_one_hot_dtype(named).name),
             "TI": _dtype_attr(indices), "axis": axis}
    inputs = [node.input_name(indices, "indices")] + [
        f"{node.name}/{k}" for k in ("depth", "on_value", "off_value")]
    return node.text(problem, attrs, inputs, [_dims(indices), [], [], []], tail)


@register("OneHot", table=SHAPES)
def _one_hot_shape(arguments):
    named = dict(arguments)
    di = _dims(named["indices"])
    depth = shape_errors_array._ints(named["depth"])
    if di is None:
        return None, _one_hot_dtype(named)
    new_rank = len(di) + 1
    at = (_one_hot_axis(named) + new_rank) % new_rank
    return di[:at] + [None if depth is None else depth[0]] + di[at:], _one_hot_dtype(named)


RUNTIME_CHECKED.add("OneHot")   # an axis past the rank: traced, refused by the kernel


@register("Unique")
def _unique(node, arguments):
    named = dict(arguments)
    x = named["x"]
    dx = _dims(x)
    if dx is None or len(dx) == 1:
        return None
    out_idx = dtypes.datatype_name(dtypes.as_dtype(named.get("out_idx", dtypes.int32)).name)
    return _rank_text(node, 1, len(dx), {"T": _dtype_attr(x), "out_idx": out_idx},
                      [node.input_name(x, "x")], [dx])


@register("Slice")
def _slice(node, arguments):
    named = dict(arguments)
    x, begin, size = named["input_"], named["begin"], named["size"]
    dx, db, ds = _dims(x), _dims(begin), _dims(size)
    if dx is None or db is None or len(db) != 1 or db[0] in (None, len(dx)):
        return None
    return _rank_text(node, db[0], len(dx), {"Index": "DT_INT32", "T": _dtype_attr(x)},
                      [node.input_name(x, "input"), node.input_name(begin, "begin"),
                       node.input_name(size, "size")], [dx, db, ds])


@register("Pad", "PadV2", "MirrorPad")
def _pad(node, arguments):
    named = dict(arguments)
    x, paddings = named["tensor"], named["paddings"]
    dx, dp = _dims(x), list(np.shape(paddings)) if not hasattr(paddings, "shape") \
        else _dims(paddings)
    if dx is None or dp is None or len(dp) != 2 or dp[0] in (None, len(dx)):
        return None
    attrs = {"T": _dtype_attr(x), "Tpaddings": "DT_INT32"}
    inputs = [node.input_name(x, "input"), node.input_name(paddings, "paddings")]
    shapes = [dx, dp]
    if node.op_type == "MirrorPad":
        attrs["mode"] = f'"{str(named.get("mode", "REFLECT")).upper()}"'
    if node.op_type == "PadV2":
        inputs.append(f"{node.name}/constant_values")
        shapes.append([])
    return _rank_text(node, dp[0], len(dx), attrs, inputs, shapes)


@register("EnsureShape")
def _ensure_shape(node, arguments):
    named = dict(arguments)
    x = named["x"]
    dx, dg = _dims(x), TensorShape(named["shape"]).dims
    if dx is None or dg is None:
        return None
    if len(dx) != len(dg):
        problem = f"Shape must be rank {len(dg)} but is rank {len(dx)}"
    else:
        problem = _merge(dg, dx)[1]
    if problem is None:
        return None
    return node.text(problem, {"T": _dtype_attr(x), "shape": _shape_text(dg)},
                     [node.input_name(x, "input")], [dx])
