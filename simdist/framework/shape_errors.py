"""TF's shape-inference errors for ops being traced: a ValueError at trace time.

Glossary:
  shape function -- what TF runs for each op it adds to a graph: from the inputs' static
                    shapes (``?`` for an unknown dimension) it finds the output's, or a
                    ValueError when they cannot fit. Eagerly (and in simdist's placeholder
                    runs) the op's kernel finds the same mismatch as InvalidArgumentError.
  RULES          -- op type -> rule(node, bound arguments) giving the problem's text, or None
                    when the static shapes do not show it (then TF finds it only at
                    execution: the kernel's InvalidArgumentError stays).
  node text      -- TF's ``'{{node add}} = AddV2[T=DT_FLOAT](a, b)' with input shapes:
                    [2,3], [2,4].``: the node's name, op type, attributes, input names.
  SHAPES         -- op type -> shape(arguments) giving the output's static dims and dtype,
                    for a kernel that fails on the placeholders only because their unknown
                    dimensions were made up (``[None] + [5]``: the zeros' ``[2]``): TF's
                    shape function accepts it, so the op is traced (``deferred``) and the
                    kernel's error, if any, comes at execution, as in TF. Ops in
                    ``RUNTIME_CHECKED`` are traced so even with known sizes (a duplicate
                    ``perm`` entry: TF's Transpose shape function does not look).

Mirrors tensorflow/core/framework/common_shape_fns.cc (BroadcastBinaryOpOutputShapeFn,
MatMulShape, BatchMatMulV2Shape, ConcatShapeHelper), core/ops/array_ops.cc (Reshape's
SetOutputShapeForReshape) and shape_inference.cc (Merge's messages).
"""

from __future__ import annotations

import inspect
import re

import numpy as np

from simdist.framework import dtypes

RULES: dict = {}
SHAPES: dict = {}
RUNTIME_CHECKED: set = set()   # op types whose kernel checks what the shape function does not


def register(*op_types, table=RULES):
    """Make ``rule(node, arguments)`` the shape function of ``op_types`` (with
    ``table=SHAPES``: ``shape(arguments) -> (dims, dtype)``, their output's)."""
    def wrap(rule):
        for op_type in op_types:
            table[op_type] = rule
        return rule
    return wrap


def _op_arguments(error, fn, args, kwargs):
    """(op type named by the kernel ``error``, the call's arguments in TF's order), or
    None."""
    found = re.search(r"\[Op:(\w+)\]", str(error))
    if not found or (found.group(1) not in RULES and found.group(1) not in SHAPES):
        return None
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    arguments = list(bound.arguments.items())
    if re.fullmatch(r"__r\w+__", getattr(fn, "__name__", "")):   # 2 + x: the op is (2, x)
        (_, mine), (_, other) = arguments[:2]
        arguments[:2] = [("x", other), ("y", mine)]
    return found.group(1), arguments


def at_trace(error, fn, op_name, args, kwargs, names=None, op_type=None):
    """TF's ValueError for the kernel ``error`` an op raised on placeholders while being
    traced as node ``op_name``, or None when TF's shape function would not raise.
    ``names(value)``: the graph's name of an input where not its own ``_name`` (a nested
    function's body, nested_shapes); ``op_type``: TF's graph op where not the kernel's."""
    found = _op_arguments(error, fn, args, kwargs)
    rule = RULES.get(found[0]) if found else None
    if rule is None:
        return None
    text = rule(_Node(op_name, op_type or found[0], names), found[1])
    return None if text is None else ValueError(text)


def deferred(error, fn, args, kwargs):
    """(dims, dtype) of the output TF's shape function gives where the kernel ``error``
    came only from the placeholders' made-up sizes (an input has unknown dimensions and
    ``at_trace`` found nothing); None when the error is real (raise it now)."""
    found = _op_arguments(error, fn, args, kwargs)
    shape = SHAPES.get(found[0]) if found else None
    if shape is None:
        return None
    if found[0] not in RUNTIME_CHECKED and not any(
            _symbolic(v) and (v._static_shape.rank is None or
                              None in v._static_shape.as_list())
            for v in _flat_values(found[1])):
        return None
    return shape(found[1])


def _flat_values(arguments):
    for _, v in arguments:
        if isinstance(v, (list, tuple)):
            yield from v
        else:
            yield v


class _Node:
    """The node being traced: its name and op type."""

    def __init__(self, name, op_type, names=None):
        self.name, self.op_type, self._names = name, op_type, names

    def input_name(self, value, fallback):
        """TF's name of an input: a graph tensor's (``add`` for ``add:0``), or the
        constant TF makes of a Python value inside the op's name scope (``add/y``)."""
        given = self._names(value) if self._names is not None else None
        if given is not None:
            return given
        name = getattr(value, "_name", None) if _symbolic(value) else None
        if name is None:
            return f"{self.name}/{fallback}"
        return name[:-2] if name.endswith(":0") else name

    def text(self, problem, attrs, inputs, shapes, tail=""):
        attr_text = ", ".join(f"{k}={v}" for k, v in sorted(attrs.items()))
        return (f"{problem} for '{{{{node {self.name}}}}} = {self.op_type}[{attr_text}]"
                f"({', '.join(inputs)})' with input shapes: "
                f"{', '.join(_shape_text(s) for s in shapes)}{tail}.")


def _symbolic(value) -> bool:
    from simdist.framework.func_graph import SymbolicTensor

    return isinstance(value, SymbolicTensor)


def _dims(value):
    """The static dimensions of an input (None: unknown rank)."""
    if _symbolic(value):
        return value._static_shape.dims
    shape = getattr(value, "shape", None)
    if shape is not None and not isinstance(shape, tuple):   # a Tensor / Variable
        return shape.dims
    return list(np.shape(value)) if shape is None else list(shape)


def _dtype_attr(value) -> str:
    dtype = getattr(value, "dtype", None)   # a Python number: TF converts it to float
    return "DT_FLOAT" if dtype is None else dtypes.datatype_name(dtype.name)


def _shape_text(dims) -> str:
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _flag(value) -> str:
    return "true" if value else "false"


def _broadcast_problem(dx, dy):
    """BroadcastBinaryOpOutputShapeFnHelper: dimensions compared left to right, after
    padding the shorter shape with ones."""
    if dx is None or dy is None:
        return None
    rank = max(len(dx), len(dy))
    px = [1] * (rank - len(dx)) + list(dx)
    py = [1] * (rank - len(dy)) + list(dy)
    for a, b in zip(px, py):
        if a is not None and b is not None and a != 1 and b != 1 and a != b:
            return f"Dimensions must be equal, but are {a} and {b}"
    return None


# Equal / NotEqual are left out: ``==`` on shapes that do not broadcast is a plain False
# (overloads._eq_impl catches the kernel's error), in a trace too.
@register("AddV2", "Sub", "Mul", "RealDiv", "Div", "FloorDiv", "FloorMod", "Pow", "Maximum",
          "Minimum", "SquaredDifference", "DivNoNan", "Less", "LessEqual", "Greater",
          "GreaterEqual", "LogicalAnd", "LogicalOr", "Atan2")
def _binary(node, arguments):
    (_, x), (_, y) = arguments[:2]
    problem = _broadcast_problem(_dims(x), _dims(y))
    if problem is None:
        return None
    typed = x if _symbolic(x) or not _symbolic(y) else y
    attrs = {} if node.op_type in ("LogicalAnd", "LogicalOr") else {"T": _dtype_attr(typed)}
    return node.text(problem, attrs, [node.input_name(x, "x"), node.input_name(y, "y")],
                     [_dims(x), _dims(y)])


@register("MatMul", "BatchMatMulV2")
def _matmul(node, arguments):
    named = dict(arguments)
    (_, a), (_, b) = arguments[:2]
    ta = bool(named.get("transpose_a") or named.get("adjoint_a"))
    tb = bool(named.get("transpose_b") or named.get("adjoint_b"))
    da, db = _dims(a), _dims(b)
    if da is None or db is None or len(da) < 2 or len(db) < 2:
        return None
    inner_a, inner_b = da[-2] if ta else da[-1], db[-1] if tb else db[-2]
    problem = None
    if inner_a is not None and inner_b is not None and inner_a != inner_b:
        problem = f"Dimensions must be equal, but are {inner_a} and {inner_b}"
    elif node.op_type == "BatchMatMulV2":
        problem = _broadcast_problem(da[:-2], db[:-2])
    if problem is None:
        return None
    if node.op_type == "MatMul":
        attrs = {"transpose_a": _flag(ta), "transpose_b": _flag(tb)}
        attrs.update(grad_a="false", grad_b="false")
    else:
        attrs = {"adj_x": _flag(ta), "adj_y": _flag(tb), "grad_x": "false", "grad_y": "false"}
    attrs["T"] = _dtype_attr(a)
    names = [node.input_name(v, k) for k, v in arguments[:2]]
    return node.text(problem, attrs, names, [da, db])


@register("Reshape")
def _reshape(node, arguments):
    (_, x), (_, shape) = arguments[:2]
    if _symbolic(shape) or getattr(shape, "shape", None) is not None and \
            not isinstance(shape, np.ndarray) and not hasattr(shape, "numpy"):
        return None
    try:
        target = [int(d) for d in np.asarray(getattr(shape, "numpy", lambda: shape)()).ravel()]
    except (TypeError, ValueError):
        return None
    dx = _dims(x)
    if dx is None or any(d < -1 for d in target) or target.count(-1) > 1 or 0 in target \
            or 0 in dx:
        return None
    known_in = int(np.prod([d for d in dx if d is not None]))
    known_out = int(np.prod([d for d in target if d != -1]))
    if None not in dx and -1 not in target:
        if known_in == known_out:
            return None
        problem = (f"Cannot reshape a tensor with {known_in} elements to shape "
                   f"{_shape_text(target)} ({known_out} elements)")
    elif None not in dx:
        if known_in % known_out == 0:
            return None
        problem = f"Dimension size must be evenly divisible by {known_out} but is {known_in}"
    elif -1 not in target:
        if known_out % known_in == 0:
            return None
        problem = f"Dimension size must be evenly divisible by {known_in} but is {known_out}"
    else:
        return None
    partial = _shape_text([None if d == -1 else d for d in target])
    return node.text(problem, {"T": _dtype_attr(x), "Tshape": "DT_INT32"},
                     [node.input_name(x, "tensor"), f"{node.name}/shape"],
                     [dx, [len(target)]],
                     f" and with input tensors computed as partial shapes: input[1] = {partial}")


def _merge(merged, dims):
    """Shape Merge: the two shapes' known dimensions must agree (its message on failure)."""
    out = []
    for i, (a, b) in enumerate(zip(merged, dims)):
        if a is not None and b is not None and a != b:
            return None, (f"Dimension {i} in both shapes must be equal, but are {a} and {b}. "
                          f"Shapes are {_shape_text(merged)} and {_shape_text(dims)}.")
        out.append(a if a is not None else b)
    return out, None


@register("ConcatV2")
def _concat(node, arguments):
    (_, values), (_, axis) = arguments[:2]
    if _symbolic(axis) or not isinstance(axis, (int, np.integer)) or len(values) < 2:
        return None
    shapes = [_dims(v) for v in values]
    rank = next((len(s) for s in shapes if s is not None), None)
    if rank is not None and axis >= rank:
        return node.text(f"Shape must be at least rank {axis + 1} but is rank {rank}",
                         _concat_attrs(values), _concat_inputs(node, values),
                         shapes + [[]], f" and with computed input tensors: "
                         f"input[{len(values)}] = <{axis}>")
    if rank is None or not -rank <= axis < rank:
        return None
    a = axis % rank
    problem = None
    before = after = None
    for s in shapes:
        if s is None:
            continue
        if len(s) != rank:
            problem = f"Shape must be rank {rank} but is rank {len(s)}"
            break
        if before is None:
            before, after = s[:a], s[a + 1:]
            continue
        before, problem = _merge(before, s[:a])
        if problem is None:
            after, problem = _merge(after, s[a + 1:])
        if problem is not None:
            break
    if problem is None:
        return None
    tail = ("" if problem.startswith("Shape must be rank")
            else f" and with computed input tensors: input[{len(values)}] = <{axis}>")
    return node.text(problem, _concat_attrs(values), _concat_inputs(node, values),
                     shapes + [[]], tail)


def _concat_attrs(values) -> dict:
    return {"N": str(len(values)), "T": _dtype_attr(values[0]), "Tidx": "DT_INT32"}


def _concat_inputs(node, values) -> list:
    return [node.input_name(v, f"values_{i}") for i, v in enumerate(values)] + \
        [f"{node.name}/axis"]


# --- output shapes (SHAPES): what TF's shape functions give when the inputs fit ---------
_BOOL_OPS = ("Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr")


def _broadcast_dims(dx, dy):
    """BroadcastBinaryOpOutputShapeFnHelper's output: an unknown dimension against 1 stays
    unknown, against a known size > 1 is that size."""
    if dx is None or dy is None:
        return None
    rank = max(len(dx), len(dy))
    px = [1] * (rank - len(dx)) + list(dx)
    py = [1] * (rank - len(dy)) + list(dy)
    out = []
    for a, b in zip(px, py):
        if a is None or b is None:
            known = b if a is None else a
            out.append(known if known is not None and known > 1 else None)
        else:
            out.append(b if a == 1 else a)
    return out


def _binary_shape(op_type):
    def shape(arguments):
        (_, x), (_, y) = arguments[:2]
        typed = x if _symbolic(x) or not _symbolic(y) else y
        dtype = dtypes.bool_ if op_type in _BOOL_OPS else typed.dtype
        return _broadcast_dims(_dims(x), _dims(y)), dtype
    return shape


for _op in RULES:
    if RULES[_op] is _binary:
        SHAPES[_op] = _binary_shape(_op)


@register("MatMul", "BatchMatMulV2", table=SHAPES)
def _matmul_shape(arguments):
    named = dict(arguments)
    (_, a), (_, b) = arguments[:2]
    da, db = _dims(a), _dims(b)
    if da is None or db is None:
        return None, a.dtype
    ta = bool(named.get("transpose_a") or named.get("adjoint_a"))
    tb = bool(named.get("transpose_b") or named.get("adjoint_b"))
    rows, cols = da[-1] if ta else da[-2], db[-2] if tb else db[-1]
    return _broadcast_dims(da[:-2], db[:-2]) + [rows, cols], a.dtype


@register("Reshape", table=SHAPES)
def _reshape_shape(arguments):
    (_, x), (_, shape) = arguments[:2]
    try:
        target = [int(d) for d in np.asarray(getattr(shape, "numpy", lambda: shape)()).ravel()]
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return None, x.dtype
    dx = _dims(x)
    if -1 in target and dx is not None and None not in dx:
        known = int(np.prod([d for d in target if d != -1]))
        target[target.index(-1)] = int(np.prod(dx)) // known if known else 0
    return [None if d == -1 else d for d in target], x.dtype


@register("ConcatV2", table=SHAPES)
def _concat_shape(arguments):
    (_, values), (_, axis) = arguments[:2]
    shapes = [_dims(v) for v in values]
    known = [s for s in shapes if s is not None]
    if not known or not isinstance(axis, (int, np.integer)):
        return None, values[0].dtype
    a = axis % len(known[0])
    out = []
    for i in range(len(known[0])):
        dims = [s[i] for s in known]
        if i == a:
            out.append(None if None in dims or len(known) < len(shapes) else sum(dims))
        else:
            out.append(next((d for d in dims if d is not None), None))
    return out, values[0].dtype


# more RULES: the array ops', the selection and padding ops'
from simdist.framework import shape_errors_array, shape_errors_select  # noqa: E402,F401
