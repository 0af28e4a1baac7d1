"""The static shapes TF's shape functions give a listed op's outputs, from its inputs'.

Glossary:
  shape      -- a list of dims (``None``: unknown), or ``None`` for an unknown rank;
                ``TensorShape`` prints them (``(None, 4)``, ``<unknown>``).
  value      -- a small integer or boolean tensor known while the graph is built: a Const's,
                or one computed from known values (TF's shape refiner evaluates such
                constant subgraphs, shape_refiner.cc EvaluateConstantTensor, when a shape
                function reads an input: a ``Reshape``'s shape, a ``Range``'s limits).
  elementwise -- the output has the input's shape (``Neg``, ``Cast``, ``Relu``).
  broadcast  -- a binary op's output: the inputs' shapes broadcast, dim by dim from the
                right; a 1 takes the other's dim, an unknown dim against a 1 stays unknown
                (common_shape_fns.cc BroadcastBinaryOpOutputShapeFnHelper).
  reduction  -- ``Sum``/``Mean``/...: the axes' dims dropped (or 1 with ``keep_dims``); all
                unknown but the rank when the axes are not known.

``infer(op_type, attrs, shapes, values)`` gives the output shapes (None: no shape function
here, the listed ones stay) and ``evaluate`` an output's value where it is known.

Mirrors tensorflow/core/ops/math_ops.cc, array_ops.cc and nn_ops.cc (their SetShapeFn),
tensorflow/core/framework/common_shape_fns.cc.
"""

from __future__ import annotations

import numpy as np

_ELEMENTWISE = {
    "Neg", "Abs", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Sigmoid", "Tanh",
    "Softplus", "Reciprocal", "Floor", "Ceil", "Round", "Sign", "IsNan", "IsInf",
    "IsFinite", "Cast", "Identity", "Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softmax",
    "LogSoftmax", "StopGradient", "PreventGradient", "ZerosLike", "OnesLike", "LogicalNot",
    "Sin", "Cos", "Erf", "Snapshot", "Inv", "Expm1", "Softsign", "Gelu",
}
_BROADCAST = {
    "AddV2", "Add", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "MulNoNan", "Maximum",
    "Minimum", "FloorDiv", "FloorMod", "Pow", "SquaredDifference", "Equal", "NotEqual",
    "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd", "LogicalOr", "ReluGrad",
    "SigmoidGrad", "TanhGrad", "Relu6Grad", "EluGrad", "SoftplusGrad", "RsqrtGrad",
    "SqrtGrad", "ReciprocalGrad", "LeakyReluGrad", "Xdivy", "Xlogy", "Atan2",
}
REDUCTIONS = {"Sum", "Mean", "Max", "Min", "Prod", "Any", "All", "EuclideanNorm"}
# the op types whose shape function reads no attr: their inferred rank is TF's
_RANK_KNOWN = _ELEMENTWISE | _BROADCAST | {"ExpandDims", "ConcatV2", "Pack", "Range", "Transpose",
                                           "BiasAdd", "SelectV2", "Shape", "Size", "Rank"}
# op type -> what it computes on known (small integer) values
_EVALUATED = {
    "AddV2": np.add, "Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
    "Maximum": np.maximum, "Minimum": np.minimum, "FloorDiv": np.floor_divide,
    "FloorMod": np.mod, "Equal": np.equal, "NotEqual": np.not_equal,
    "Greater": np.greater, "GreaterEqual": np.greater_equal, "Less": np.less,
    "LessEqual": np.less_equal, "Neg": np.negative, "Identity": lambda x: x,
}
# the op types whose shape or value reads an attr (graph_def's NodeDef attrs)
ATTRIBUTED = {"StridedSlice", "Pack", "MatMul", "FusedBatchNormV3", *REDUCTIONS}
_MAX_ELEMENTS = 1024   # TF evaluates small constant subgraphs only


def _dim(d):
    return None if d is None or d < 0 else int(d)


def _broadcast(x, y):
    if x is None or y is None:
        return None
    rank = max(len(x), len(y))
    x, y = [1] * (rank - len(x)) + list(x), [1] * (rank - len(y)) + list(y)
    out = []
    for a, b in zip(x, y):
        if a == 1:
            out.append(b)
        elif b == 1 or b == a:
            out.append(a)
        elif a is None:
            out.append(b)
        elif b is None:
            out.append(a)
        else:
            return None   # incompatible: not TF's graph, keep what is listed
    return out


def _axes(value, rank):
    if value is None or rank is None:
        return None
    return sorted({int(a) % rank for a in np.reshape(value, -1)}) if rank else []


def _reduction(attrs, shapes, values):
    x = shapes[0]
    if x is None:
        return None
    keep = attrs.get("keep_dims", False)
    axes = _axes(values[1], len(x))
    if axes is None:   # the rank only (keep_dims), else nothing
        return [None] * len(x) if keep else None
    return [1 if i in axes else d for i, d in enumerate(x)] if keep else \
        [d for i, d in enumerate(x) if i not in axes]


def _reshape(shapes, values):
    target = values[1]
    if target is None:
        size = shapes[1][0] if shapes[1] is not None and len(shapes[1]) == 1 else None
        return None if size is None else [None] * size
    dims = [_dim(d) if d != -1 else -1 for d in np.reshape(target, -1)]
    if -1 in dims:
        x = shapes[0]
        known = int(np.prod([d for d in dims if d not in (-1, None)]))
        total = None if x is None or None in x else int(np.prod(x))
        dims[dims.index(-1)] = None if total is None or None in dims or not known \
            else total // known
    return dims


def _slice_key(attrs, values):
    """StridedSlice's begin / end / strides and masks as a NumPy index (None: unknown)."""
    begin, end, strides = values[1:4]
    if begin is None or end is None or strides is None:
        return None
    masks = [attrs.get(k, 0) for k in ("begin_mask", "end_mask", "ellipsis_mask",
                                        "new_axis_mask", "shrink_axis_mask")]
    key = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if masks[2] & bit:
            key.append(Ellipsis)
        elif masks[3] & bit:
            key.append(np.newaxis)
        elif masks[4] & bit:
            key.append(int(b))
        else:
            key.append(slice(None if masks[0] & bit else int(b),
                             None if masks[1] & bit else int(e), int(s)))
    return tuple(key)


def _strided_slice(attrs, shapes, values):
    x, key = shapes[0], _slice_key(attrs, values)
    if x is None or key is None:
        return None
    # unknown dims: two sizes tried, the dims that follow them are unknown
    results = []
    for size in (1009, 1013):
        dummy = np.broadcast_to(np.empty(()), [size if d is None else d for d in x])
        try:
            results.append(dummy[key].shape)
        except (IndexError, ValueError):
            return None
    return [a if a == b else None for a, b in zip(*results)]


def _concat(shapes, values, axis_at):
    pieces = shapes[:axis_at] if axis_at else shapes[1:]
    axis = values[axis_at] if axis_at else values[0]
    if axis is None or any(p is None for p in pieces) or not pieces:
        rank = next((len(p) for p in pieces if p is not None), None)
        return None if rank is None else [None] * rank
    rank = len(pieces[0])
    axis = int(axis) % rank
    out = []
    for i in range(rank):
        dims = [p[i] for p in pieces]
        if i == axis:
            out.append(None if None in dims else sum(dims))
        else:
            out.append(next((d for d in dims if d is not None), None))
    return out


def _pack(attrs, shapes):
    if any(s is None for s in shapes) or not shapes:
        return None
    one = shapes[0]
    axis = attrs.get("axis", 0) % (len(one) + 1)
    return list(one[:axis]) + [len(shapes)] + list(one[axis:])


def _expand_dims(shapes, values):
    x, dim = shapes[0], values[1]
    if x is None or dim is None:
        return None
    axis = int(np.reshape(dim, -1)[0]) % (len(x) + 1)
    return list(x[:axis]) + [1] + list(x[axis:])


def _range(shapes, values):
    start, limit, delta = values[:3]
    if start is None or limit is None or delta is None:
        return [None]
    return [max(0, int(np.ceil((float(limit) - float(start)) / float(delta))))]


def _matmul(attrs, shapes):
    a, b = shapes[:2]
    if a is None or b is None or len(a) != 2 or len(b) != 2:
        return None
    ta, tb = attrs.get("transpose_a", False), attrs.get("transpose_b", False)
    inner = (a[0] if ta else a[1], b[1] if tb else b[0])
    if None not in inner and inner[0] != inner[1]:
        return None   # transposes not known here: keep the listed shape
    return [a[1] if ta else a[0], b[0] if tb else b[1]]


def _transpose(shapes, values):
    x, perm = shapes[0], values[1]
    if x is None:   # the rank from the permutation's length
        n = shapes[1][0] if shapes[1] is not None and len(shapes[1]) == 1 else None
        return None if n is None else [None] * n
    if perm is None:
        return [None] * len(x)
    return [x[int(p)] for p in np.reshape(perm, -1)]


def _select(shapes):
    out = shapes[0]
    for s in shapes[1:]:
        out = _broadcast(out, s)
    return out


def infer(op_type, attrs, shapes, values):
    """The output shapes of an op of ``op_type`` (list of shapes), or None where no shape
    function here applies. ``shapes`` and ``values`` are its inputs' (None: unknown)."""
    try:
        return _infer(op_type, attrs, shapes, values)
    except (ValueError, IndexError, TypeError):   # not a graph TF builds: as listed
        return None


def _infer(op_type, attrs, shapes, values):
    if op_type in _ELEMENTWISE and shapes:
        return [shapes[0]] if shapes[0] is not None else None
    one = None
    if op_type in _BROADCAST and len(shapes) == 2:
        one = _broadcast(*shapes)
    elif op_type in REDUCTIONS and len(shapes) == 2:
        one = _reduction(attrs, shapes, values)
    elif op_type == "Reshape" and len(shapes) == 2:
        one = _reshape(shapes, values)
    elif op_type == "StridedSlice" and len(shapes) == 4:
        one = _strided_slice(attrs, shapes, values)
    elif op_type == "ConcatV2" and len(shapes) >= 2:
        one = _concat(shapes, values, len(shapes) - 1)
    elif op_type == "Pack":
        one = _pack(attrs, shapes)
    elif op_type == "ExpandDims" and len(shapes) == 2:
        one = _expand_dims(shapes, values)
    elif op_type == "Range" and len(shapes) == 3:
        one = _range(shapes, values)
    elif op_type == "Transpose" and len(shapes) == 2:
        one = _transpose(shapes, values)
    elif op_type == "MatMul" and len(shapes) == 2:
        one = _matmul(attrs, shapes)
    elif op_type == "BiasAdd" and shapes and shapes[0] is not None:
        one = shapes[0]
    elif op_type in ("SelectV2", "BroadcastTo"):
        one = _select(shapes) if op_type == "SelectV2" else _reshape(shapes, values)
    elif op_type == "BroadcastArgs" and len(shapes) == 2:
        lengths = [s[0] if s is not None and len(s) == 1 else None for s in shapes]
        one = [None if None in lengths else max(lengths)]
    elif op_type == "FusedBatchNormV3" and shapes and shapes[0] is not None:
        x = shapes[0]
        depth = x[1] if attrs.get("data_format", "NHWC").startswith("NC") else x[-1]
        return [x] + [[depth]] * 4 + [None]   # reserve_space_3: unknown
    elif op_type == "Shape" and shapes and shapes[0] is not None:
        one = [len(shapes[0])]
    elif op_type in ("Size", "Rank"):
        one = []
    return None if one is None else [one]


def merged(op_type, listed, inferred):
    """The shape to list: the inferred one where the listed rank is unknown; dim by dim
    (a dim known on either side) where the ranks agree; else the inferred one only where
    its op's shape function reads no attr (a listing may leave an attr out: keep_dims)."""
    if inferred is None or listed is None:
        return inferred if listed is None else listed
    if len(listed) == len(inferred):
        return [i if i is not None else d for d, i in zip(listed, inferred)]
    return inferred if op_type in _RANK_KNOWN else listed


def evaluate(op_type, attrs, values, shapes):
    """The value of a small integer op's output whose inputs' values are known (TF's
    constant folding of a shape argument), else None."""
    try:
        return _evaluate(op_type, attrs, values, shapes)
    except (ValueError, IndexError, TypeError):   # not a graph TF builds: not folded
        return None


def _evaluate(op_type, attrs, values, shapes):
    if op_type == "Shape":
        x = shapes[0] if shapes else None
        return None if x is None or None in x else np.asarray(x, np.int32)
    if any(v is None for v in values) or not values:
        return None
    if any(np.asarray(v).dtype.kind not in "iub" or np.size(v) > _MAX_ELEMENTS
           for v in values):
        return None
    fn = _EVALUATED.get(op_type)
    if fn is not None and len(values) in (1, 2):
        return np.asarray(fn(*values))
    if op_type == "Cast":
        return np.asarray(values[0])
    if op_type == "Pack":
        return np.stack(values, axis=attrs.get("axis", 0))
    if op_type == "ConcatV2":
        return np.concatenate([np.reshape(v, -1) if np.ndim(v) == 0 else v
                               for v in values[:-1]], axis=int(values[-1]))
    if op_type == "SelectV2":
        return np.where(*values)
    if op_type == "Reshape":
        return np.reshape(values[0], [int(d) for d in np.reshape(values[1], -1)])
    if op_type == "Range":
        return np.arange(*[int(v) for v in values[:3]])
    if op_type == "StridedSlice":
        key = _slice_key(attrs, values)
        return None if key is None else np.asarray(np.asarray(values[0])[key])
    if op_type == "BroadcastArgs":
        return np.asarray(np.broadcast_shapes(tuple(values[0]), tuple(values[1])), np.int32)
    return None
