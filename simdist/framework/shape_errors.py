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


def register(*op_types):
    """Make ``rule(node, arguments)`` the shape function of ``op_types``."""
    def wrap(rule):
        for op_type in op_types:
            RULES[op_type] = rule
        return rule
    return wrap


def at_trace(error, fn, op_name, args, kwargs):
    """TF's ValueError for the kernel ``error`` an op raised on placeholders while being
    traced as node ``op_name``, or None when TF's shape function would not raise."""
    found = re.search(r"\[Op:(\w+)\]", str(error))
    rule = RULES.get(found.group(1)) if found else None
    if rule is None:
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
    text = rule(_Node(op_name, found.group(1)), arguments)
    return None if text is None else ValueError(text)


class _Node:
    """The node being traced: its name and op type."""

    def __init__(self, name, op_type):
        self.name, self.op_type = name, op_type

    def input_name(self, value, fallback):
        """TF's name of an input: a graph tensor's (``add`` for ``add:0``), or the
        constant TF makes of a Python value inside the op's name scope (``add/y``)."""
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
    names = [node.input_name(v, f"values_{i}") for i, v in enumerate(values)]
    tail = ("" if problem.startswith("Shape must be rank")
            else f" and with computed input tensors: input[{len(values)}] = <{axis}>")
    attrs = {"N": str(len(values)), "T": _dtype_attr(values[0]), "Tidx": "DT_INT32"}
    return node.text(problem, attrs, names + [f"{node.name}/axis"], shapes + [[]], tail)
