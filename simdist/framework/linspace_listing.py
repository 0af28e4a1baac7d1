"""The operations TF's graph lists for ``tf.linspace`` in a trace (``get_operations``).

Glossary:
  scope        -- the node's name (``linspace``, ``linspace_1``, or the ``name=`` given):
                  every op is under it.
  conversions  -- a Python ``start`` / ``stop`` / ``num`` becomes a Const of that name;
                  ``num`` is cast to int32 (``Cast``, even an int32 tensor: the generated
                  op always runs) and then to the values' dtype (``Cast_1``).
  template     -- math_ops.linspace_nd's ops, always the same for fully known shapes of
                  ``start`` and ``stop`` (the Shapes fold to Consts): broadcast, expand
                  along ``axis``, the axis as a SelectV2, ``num - 2`` and ``num - 1``
                  clipped (Maximum), ``delta``, the inner range (int64 Range, Cast),
                  its shape, ``start + delta * range``, the concatenation and the Slice of
                  ``num`` along ``axis`` (its size built from StridedSlices and Packs).
  whole        -- ``start`` or ``stop`` of an unknown shape: listed as one node.

Mirrors tensorflow/python/ops/math_ops.py (``linspace_nd``).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.framework.gradient_listing import Scope

_I32 = dtypes.int32


def _given(s, label, value, dtype=None):
    """A tensor argument, or the Const TF converts a Python one to (``<scope>/<label>``)."""
    found = s.b.converted(s.scope[:-1], None, value)
    if found:
        return found[0]
    return s.const(label, value, dtype or dtypes.float32)


def _strided_slice(s, shape, bounds, **masks):
    """``shape[begin:end]`` with tensor bounds: ``stack`` .. ``stack_2`` (Pack of a tensor
    bound, a Const for a Python one), then the StridedSlice with its ``masks``
    (``shape[0]``: shrink_axis_mask 1; ``shape[axis + 1:]``: end_mask 1)."""
    name = s.name("strided_slice")
    inner = Scope(s.b, name + "/")
    made = [inner.const("stack", [b]) if isinstance(b, int) else
            inner.op("stack", "Pack", [b], dtype=_I32) for b in bounds]
    out = s.op("strided_slice", "StridedSlice", [shape] + made, dtype=_I32, name=name)
    out.op._given = masks
    return out


def list_linspace(builder, name, args, kwargs, outputs):
    """The ops of the linspace node ``name`` (graph_operations.LISTINGS), or None."""
    call = dict(zip(("start", "stop", "num", "axis"), args))
    call.update((k, v) for k, v in kwargs.items() if k in ("start", "stop", "num", "axis"))
    s = Scope(builder, name + "/")
    start = _given(s, "start", call["start"])
    stop = _given(s, "stop", call["stop"], start.dtype)
    known = [tuple(t.shape.as_list()) for t in (start, stop) if t.shape.rank is not None]
    if len(known) < 2 or any(None in k for k in known):
        return None
    axis = call.get("axis", 0)
    num = _given(s, "num", call["num"], _I32)
    num = s.op("Cast", "Cast", [num], dtype=_I32, shape=())
    s.op("Cast", "Cast", [num], dtype=start.dtype, shape=())
    shapes = [s.const("Shape", list(k)) for k in known]
    broadcast = s.op("BroadcastArgs", "BroadcastArgs", shapes, dtype=_I32)
    starts = [s.op("BroadcastTo", "BroadcastTo", [t, broadcast], like=start)
              for t in (start, stop)]
    first, last = [s.op("ExpandDims", "ExpandDims", [t, ("dim", axis)], like=start)
                   for t in starts]
    # shape(expand_dims(start, axis)) and its own shape fold to Consts of TF's values
    broadcast_shape = list(np.broadcast_shapes(*known))
    at = axis % (len(broadcast_shape) + 1)
    expanded = broadcast_shape[:at] + [1] + broadcast_shape[at:]
    shape = s.const("Shape", expanded)
    ndims = _strided_slice(s, s.const("Shape", [len(expanded)]), [0, 1, 1],
                           shrink_axis_mask=1)
    axis_t = s.op("SelectV2", "SelectV2", [("condition", axis >= 0), ("t", axis),
                                          s.op("add", "AddV2", [ndims, ("y", axis)])])
    fill = s.op("Maximum", "Maximum", [s.op("sub", "Sub", [num, ("y", 2)]), ("y", 0)])
    steps = s.op("Maximum", "Maximum", [s.op("sub", "Sub", [num, ("y", 1)]), ("y", 1)])
    delta = s.op("truediv", "RealDiv", [s.op("sub", "Sub", [last, first], like=first),
                                        s.op("Cast", "Cast", [steps], dtype=start.dtype)],
                 like=first)
    end = s.op("SelectV2", "SelectV2", [s.op("GreaterEqual", "GreaterEqual", [num, ("y", 0)]),
                                        steps, ("e", -1)])
    inner = s.op("Cast", "Cast", [_range(s, end, cast=True)], dtype=start.dtype)
    mask = s.op("Equal", "Equal", [axis_t, _range(s, ndims)])
    inner = s.op("Reshape", "Reshape", [inner, s.op("SelectV2", "SelectV2",
                                                    [mask, fill, ("e", 1)])])
    middle = s.op("add", "AddV2", [first, s.op("mul", "Mul", [delta, inner])], like=first)
    joined = s.op("concat", "ConcatV2", [first, middle, last, axis_t], like=first)
    begin = s.const("zeros_like", [0] * len(expanded))
    before = _strided_slice(s, shape, [0, axis_t, s.const("Const", 1)])
    length = s.op("Reshape", "Reshape", [num, ("shape", [1])], dtype=_I32)
    after = s.op("add", "AddV2", [axis_t, ("y", 1)], dtype=_I32)
    after = _strided_slice(s, shape, [after, s.const("Const", 0), s.const("Const", 1)],
                           end_mask=1)
    size = s.op("concat", "ConcatV2", [before, length, after, ("axis", 0)], dtype=_I32)
    out = s.op("Slice", "Slice", [joined, begin, size], dtype=start.dtype,
               shape=(outputs[0][1] if outputs else None))
    return out.op


def _range(s, limit, cast=False):
    """``range(1, limit, dtype=int64)`` (``cast``: its limit cast, ``range/Cast``) or
    ``range(limit)`` of an int32 limit."""
    name = s.name("range")
    dtype = np.int64 if cast else np.int32
    start = s.b.const(f"{name}/start", np.asarray(1 if cast else 0, dtype))
    delta = s.b.const(f"{name}/delta", np.asarray(1, dtype))
    if cast:
        limit = s.op("Cast", "Cast", [limit], dtype=dtypes.int64, name=f"{name}/Cast")
    return s.op("range", "Range", [start, limit, delta], dtype=limit.dtype, name=name)
