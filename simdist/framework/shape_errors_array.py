"""More of TF's shape functions' errors at trace time (shape_errors.RULES): stacking,
transposing, tiling, squeezing, expanding, splitting, gathering, broadcasting to a shape,
reductions.

Glossary:
  computed input -- an argument TF's shape function reads by value (an axis, a perm): the
                    text ends ``and with computed input tensors: input[1] = <0 2>.``
  attribute      -- a Python argument of the op (``squeeze_dims=[0]``, ``num_split=2``).
A rule returns TF's text when the static shapes show the problem, else None (the kernel
checks at execution, or the op is fine).

Mirrors tensorflow/core/ops/array_ops.cc (Pack, Transpose, Tile, Squeeze, ExpandDims,
Split, SplitV, GatherV2, BroadcastTo), math_ops.cc (the reductions, ArgMax) and common_shape_fns.cc
(ReductionShape).
"""

from __future__ import annotations

import re

import numpy as np

from simdist.framework.shape_errors import (
    RUNTIME_CHECKED,
    SHAPES,
    _dims,
    _dtype_attr,
    _merge,
    _shape_text,
    _symbolic,
    register,
)


def _ints(value):
    """The Python ints of an argument TF reads by value (list, scalar, constant), or None
    (a symbolic tensor: unknown at trace)."""
    if _symbolic(value) or value is None:
        return None
    try:
        host = getattr(value, "numpy", None)
        return [int(v) for v in np.asarray(host() if host else value).ravel()]
    except (TypeError, ValueError):
        return None


def _computed(index, values) -> str:
    return f" and with computed input tensors: input[{index}] = <{' '.join(map(str, values))}>"


def _list_attr(values) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


@register("Pack")
def _pack(node, arguments):
    named = dict(arguments)
    values, axis = named["values"], named.get("axis", 0)
    shapes = [_dims(v) for v in values]
    if len(values) < 2 or not isinstance(axis, (int, np.integer)):
        return None
    cur = shapes[-1]
    problem = None
    for i in range(len(shapes) - 2, -1, -1):   # TF merges from the last shape back
        s = shapes[i]
        if s is None or cur is None:
            cur = s if cur is None else cur
            continue
        if len(s) != len(cur):
            problem = f"Shapes must be equal rank, but are {len(s)} and {len(cur)}"
        else:
            cur, problem = _merge(s, cur)
        if problem is not None:
            problem += f"\n\tFrom merging shape {i} with other shapes."
            break
    if problem is None:
        return None
    if axis == 0:   # tf.stack first tried TF's auto-packing under this name, which failed
        found = re.fullmatch(r"(.*)_(\d+)", node.name)
        node.name = f"{found.group(1)}_{int(found.group(2)) + 1}" if found else \
            f"{node.name}_1"
    names = [node.input_name(v, f"values_{i}") for i, v in enumerate(values)]
    attrs = {"N": str(len(values)), "T": _dtype_attr(values[0]), "axis": str(axis)}
    return node.text(problem, attrs, names, shapes)


@register("Pack", table=SHAPES)
def _pack_shape(arguments):
    """Pack's output where the kernel met the placeholders' made-up sizes: the inputs'
    merged dims with the new one (their count) at ``axis``."""
    named = dict(arguments)
    values, axis = named["values"], int(named.get("axis", 0))
    known = [s for s in (_dims(v) for v in values) if s is not None]
    if not known:
        return None, values[0].dtype
    merged = [next((d for d in dims if d is not None), None) for dims in zip(*known)]
    merged.insert(axis % (len(merged) + 1), len(values))
    return merged, values[0].dtype


@register("Transpose", table=SHAPES)
def _transpose_shape(arguments):
    """Transpose's output: the input's dims in ``perm``'s order (a duplicate entry is the
    kernel's error, at execution)."""
    named = dict(arguments)
    x, perm = named["a"], _ints(named.get("perm"))
    dx = _dims(x)
    if perm is None or dx is None:
        return None, x.dtype
    return [dx[p % len(dx)] for p in perm], x.dtype


RUNTIME_CHECKED.add("Transpose")


@register("Transpose")
def _transpose(node, arguments):
    named = dict(arguments)
    x, perm = named["a"], _ints(named.get("perm"))
    dx = _dims(x)
    if perm is None or dx is None:
        return None
    rank = len(dx)
    tail = ""
    if len(perm) != rank:
        problem = f"Dimension must be {rank} but is {len(perm)}"
    else:
        bad = next((p for p in perm if not -rank <= p < rank), None)
        if bad is None:
            return None
        problem = f"perm dim {bad} is out of range of input rank {rank}"
        tail = _computed(1, perm)
    return node.text(problem, {"T": _dtype_attr(x), "Tperm": "DT_INT32"},
                     [node.input_name(x, "a"), f"{node.name}/perm"], [dx, [len(perm)]], tail)


@register("Tile")
def _tile(node, arguments):
    named = dict(arguments)
    x, multiples = named["input"], _ints(named.get("multiples"))
    dx = _dims(x)
    if multiples is None or dx is None or len(multiples) == len(dx):
        return None
    return node.text(f"Shape must be rank {len(dx)} but is rank {len(multiples)}",
                     {"T": _dtype_attr(x), "Tmultiples": "DT_INT32"},
                     [node.input_name(x, "input"), f"{node.name}/multiples"],
                     [dx, [len(multiples)]])


@register("Squeeze")
def _squeeze(node, arguments):
    named = dict(arguments)
    x, axis = named["input"], named.get("axis")
    dx = _dims(x)
    dims = _ints(axis)
    if dx is None or not dims:
        return None
    rank = len(dx)
    problem = None
    for i, a in enumerate(dims):
        if not -rank <= a < rank:
            problem = f"squeeze_dims[{i}] not in [{-rank},{rank})."
            break
        which = a % rank
        if dx[which] is not None and dx[which] != 1:
            problem = (f"Can not squeeze dim[{which}], expected a dimension of 1, got "
                       f"{dx[which]}")
            break
    if problem is None:
        return None
    return node.text(problem, {"T": _dtype_attr(x), "squeeze_dims": _list_attr(dims)},
                     [node.input_name(x, "input")], [dx])


@register("ExpandDims")
def _expand_dims(node, arguments):
    named = dict(arguments)
    x, axis = named["input"], _ints(named.get("axis"))
    dx = _dims(x)
    if dx is None or axis is None or len(axis) != 1:
        return None
    rank, a = len(dx), axis[0]
    if -rank - 1 <= a <= rank:
        return None
    return node.text(f"dim {a} not in the interval [{-rank - 1}, {rank}].",
                     {"T": _dtype_attr(x), "Tdim": "DT_INT32"},
                     [node.input_name(x, "input"), f"{node.name}/dim"], [dx, []],
                     _computed(1, [a]))


@register("Split", "SplitV")
def _split(node, arguments):
    named = dict(arguments)
    x, splits, axis = named["value"], named["num_or_size_splits"], _ints(named.get("axis", 0))
    dx = _dims(x)
    if dx is None or axis is None or len(axis) != 1:
        return None
    rank, a = len(dx), axis[0]
    if node.op_type == "Split":
        n = int(splits)
        attrs = {"T": _dtype_attr(x), "num_split": str(n)}
        inputs = [f"{node.name}/split_dim", node.input_name(x, "value")]
        if not -rank <= a < rank:
            return node.text(f"Dimension size, given by scalar input {a} must be in range "
                             f"[{-rank}, {rank})", attrs, inputs, [[], dx], _computed(0, [a]))
        size = dx[a % rank]
        if size is None or size % n == 0:
            return None
        return node.text(f"Dimension size must be evenly divisible by {n} but is {size}\n\t"
                         "Number of ways to split should evenly divide the split dimension",
                         attrs, inputs, [[], dx], _computed(0, [a]))
    sizes = _ints(splits)
    if sizes is None or not -rank <= a < rank:
        return None
    size = dx[a % rank]
    if size is None or -1 in sizes or sum(sizes) == size:
        return None
    attrs = {"T": _dtype_attr(x), "Tlen": "DT_INT32", "num_split": str(len(sizes))}
    return node.text(f"can't split axis of size {size} into pieces of size "
                     f"{_shape_text(sizes)}", attrs,
                     [node.input_name(x, "value"), "Const", f"{node.name}/split_dim"],
                     [dx, [len(sizes)], []],
                     _computed(1, sizes) + f", input[2] = <{a}>")


@register("Sum", "Mean", "Max", "Min", "Prod")
def _reduction(node, arguments):
    named = dict(arguments)
    x, given = named["input_tensor"], named.get("axis")
    axes, dx = _ints(given), _dims(x)
    if dx is None or not axes:
        return None
    rank = len(dx)
    bad = next((a for a in axes if not -rank <= a < rank), None)
    if bad is None:
        return None
    scalar = isinstance(given, (int, np.integer))
    attrs = {"T": _dtype_attr(x), "Tidx": "DT_INT32",
             "keep_dims": "true" if named.get("keepdims") else "false"}
    return node.text(f"Invalid reduction dimension {bad} for input with {rank} dimensions.",
                     attrs, [node.input_name(x, "input"), f"{node.name}/reduction_indices"],
                     [dx, [] if scalar else [len(axes)]], _computed(1, axes))


@register("ArgMax", "ArgMin")
def _arg(node, arguments):
    named = dict(arguments)
    x, axis = named["input"], _ints(named.get("axis"))
    dx = _dims(x)
    if dx is None or axis is None or len(axis) != 1 or -len(dx) <= axis[0] < len(dx):
        return None
    rank = len(dx)
    output = named.get("output_type")
    attrs = {"T": _dtype_attr(x), "Tidx": "DT_INT32",
             "output_type": _dtype_attr(_Typed(output)) if output is not None else "DT_INT64"}
    return node.text(f"Dimension ({axis[0]}) must be in the range [{-rank}, {rank}), where "
                     f"{rank} is the number of dimensions in the input.", attrs,
                     [node.input_name(x, "input"), f"{node.name}/dimension"], [dx, []],
                     _computed(1, axis))


class _Typed:
    """A stand-in with a dtype (an op's dtype argument, for its attribute's text)."""

    def __init__(self, dtype):
        self.dtype = dtype


@register("GatherV2")
def _gather(node, arguments):
    named = dict(arguments)
    params, indices = named["params"], named["indices"]
    axis = _ints(named.get("axis"))
    batch_dims = int(named.get("batch_dims") or 0)
    dp = _dims(params)
    a = batch_dims if axis is None else axis[0]
    if dp is None or (axis is None and not batch_dims) or a < len(dp):
        return None
    di = _dims(indices)
    attrs = {"Taxis": "DT_INT32", "Tindices": _dtype_attr(indices) if hasattr(
        indices, "dtype") else "DT_INT32", "Tparams": _dtype_attr(params),
        "batch_dims": str(batch_dims)}
    return node.text(f"Shape must be at least rank {a + 1} but is rank {len(dp)}", attrs,
                     [node.input_name(params, "params"), node.input_name(indices, "indices"),
                      f"{node.name}/axis"], [dp, di, []], _computed(2, [a]))


@register("BroadcastTo")
def _broadcast_to(node, arguments):
    named = dict(arguments)
    x, target = named["input"], _ints(named.get("shape"))
    dx = _dims(x)
    if dx is None or target is None or len(dx) > len(target):
        return None
    problem = next((f"Dimensions must be equal, but are {a} and {b}"
                    for a, b in zip(dx[::-1], target[::-1])
                    if a is not None and a != 1 and a != b), None)
    if problem is None:
        return None
    return node.text(problem, {"T": _dtype_attr(x), "Tidx": "DT_INT32"},
                     [node.input_name(x, "input"), f"{node.name}/shape"],
                     [dx, [len(target)]], " and with input tensors computed as partial "
                     f"shapes: input[1] = {_shape_text(target)}")
