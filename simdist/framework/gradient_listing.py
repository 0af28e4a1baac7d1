"""The operations TF's graph lists for ``tape.gradient`` in a trace (``get_operations``).

Glossary:
  tape's ops     -- the ops listed between the tape's enter and exit that read a watched
                    tensor (a trainable variable's ReadVariableOp, a watched or source
                    tensor, an output of such an op): TF's tape records only those.
  skipped input  -- an input of a taped op that was not watched when the op ran; TF's
                    gradient functions leave its gradient out (``skip_input_indices``).
  backward order -- TF's C++ tape (tensorflow/c/eager/tape.h, ComputeGradient): the ops
                    on a path to the target, each run when every output's gradient is in;
                    a stack: the op whose inputs were last found ready runs first.
  ones           -- the target's gradient, a Const ``ones`` in the scope around the call.
  forward scope  -- the name scope the forward op was made in: its own name for the ops
                    TF's wrapper scopes (``x + y``: ``add/``; tf.matmul: ``MatMul/``),
                    else the scope around it; its gradient's ops are named under
                    ``gradient_tape/<forward scope>``.
  AddN           -- the sum of a tensor's gradients when several ops use it.
  not listed     -- an op without a gradient listing here (or shapes not fully known):
                    the whole ``tape.gradient`` is listed as one node, as before.

Mirrors tensorflow/python/eager/backprop.py (``_gradient_function``, ``_ones``),
tensorflow/c/eager/tape.h and the gradient functions of python/ops/math_grad.py and
nn_grad.py for fully known shapes.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes

_INT32 = dtypes.int32


class NotListed(Exception):
    """An op whose gradient has no listing here: the gradient stays one node."""


class Scope:
    """Ops made by one gradient function, under ``gradient_tape/<forward scope>``."""

    def __init__(self, builder, scope):
        self.b = builder
        self.scope = scope

    def name(self, base):
        return self.b.unique(self.scope + base)

    def op(self, base, op_type, inputs, like=None, dtype=None, shape=None, name=None):
        """An op of ``inputs`` (GraphTensors, or (input name, value) for a Const TF makes
        when converting a Python value); its output has ``like``'s dtype and shape."""
        name = name or self.name(base)
        made = []
        for x in inputs:
            if isinstance(x, tuple):
                label, value = x
                if isinstance(value, list) and not value:   # op_def_library converts []
                    self.b.const(self.b.unique(f"{name}/{label}"),   # twice: float32
                                 np.zeros(0, np.float32))
                x = self.b.const(self.b.unique(f"{name}/{label}"), None)   # first, refused
                x.value = np.asarray(value)
            made.append(x)
        if like is not None:
            dtype = like.dtype if dtype is None else dtype
            shape = tuple(like.shape.as_list()) if shape is None and like.shape.rank is not \
                None else shape
        return self.b.add(name, op_type, made, [(dtype, shape)]).outputs[0]

    def const(self, base, value, dtype=_INT32):
        out = self.op(base, "Const", (), dtype=dtype, shape=np.shape(value))
        out.value = np.asarray(value)
        return out


def _shape(t):
    return tuple(t.shape.as_list()) if t.shape.rank is not None else None


def _known(t) -> bool:
    s = _shape(t)
    return s is not None and None not in s


def _equal_shapes(x, y, grad) -> bool:   # math_grad._ShapesFullySpecifiedAndEqual
    return _known(x) and _shape(x) == _shape(y) == _shape(grad)


def _reduce_args(s, x, y, gx, gy):
    """math_grad._ReduceGradientArgs for known shapes: the Shapes fold to Consts; an
    argument that was broadcast sums its gradient over the broadcast axes."""
    if gx is None and gy is None:
        return gx, gy
    if not (_known(x) and _known(y)):
        raise NotListed("broadcast of unknown shapes")
    shapes = [s.const("Shape", _shape(x)), s.const("Shape", _shape(y))]
    xs, ys = list(_shape(x)), list(_shape(y))
    rank = max(len(xs), len(ys))
    xs, ys = [1] * (rank - len(xs)) + xs, [1] * (rank - len(ys)) + ys
    axes = ([a for a in range(rank) if xs[a] == 1 and ys[a] != 1],
            [a for a in range(rank) if ys[a] == 1 and xs[a] != 1])
    out = []
    for i, g in enumerate((gx, gy)):
        must = axes[i] or len(_shape((x, y)[i])) < rank
        if g is not None and must:
            g = _kept_sum(s, g, axes[i])
            g = s.op("Reshape", "Reshape", [g, shapes[i]], like=(x, y)[i])
        out.append(g)
    return out[0], out[1]


def _kept_sum(s, grad, axes):
    """``reduce_sum(grad, axes, keepdims=True)`` (TF's gradient functions keep the dims:
    the NodeDef's ``keep_dims: true``, a shape of the input's rank)."""
    out = s.op("Sum", "Sum", [grad, ("reduction_indices", axes)], dtype=grad.dtype)
    out.op._given = {"keep_dims": True}
    return out


def _reshape(s, grad, shape, like_shape):
    """array_ops.reshape(grad, Python list): a Const ``Reshape/shape``."""
    return s.op("Reshape", "Reshape", [grad, ("shape", list(shape))], like=grad,
                shape=tuple(like_shape))


def _sum(s, op, grad, skip=()):
    """math_grad._SumGrad for a fully known input shape and constant axes."""
    x, axes_t = op.inputs[0], op.inputs[1]
    axes = getattr(axes_t, "value", None)
    if not _known(x) or axes is None:
        raise NotListed("reduction of an unknown shape or axes")
    shape = _shape(x)
    rank = len(shape)
    if np.array_equal(axes, np.arange(rank)):   # all axes: Reshape to ones, Tile
        grad = _reshape(s, grad, [1] * rank, [1] * rank)
        multiples = s.const("Const", list(shape))
        return [s.op("Tile", "Tile", [grad, multiples], like=x), None]
    axes = tuple(int(a) % rank for a in np.reshape(axes, -1))
    kept = tuple(1 if i in axes else d for i, d in enumerate(shape))
    cache = s.b.reduced_shapes
    if (shape, axes) not in cache:   # TF's graph._reduced_shape_cache: _SafeShapeDiv once
        cache[(shape, axes)] = kept
        biggest = s.op("Maximum", "Maximum", [("x", list(kept)), ("y", 1)], dtype=_INT32)
        s.op("floordiv", "FloorDiv", [("x", list(shape)), biggest], dtype=_INT32)
    grad = s.op("Reshape", "Reshape", [grad, ("shape", list(kept))], like=grad, shape=kept)
    tile = [d // max(k, 1) for d, k in zip(shape, kept)]
    return [s.op("Tile", "Tile", [grad, ("multiples", tile)], like=x), None]


def _mean(s, op, grad, skip=()):
    summed = _sum(s, op, grad)[0]
    x, out = op.inputs[0], op.outputs[0]
    if not (_known(x) and _known(out)):
        raise NotListed("mean of an unknown shape")
    factor = s.const("Const", int(np.prod(_shape(x))) // max(int(np.prod(_shape(out))), 1),
                     dtype=summed.dtype)
    return [s.op("truediv", "RealDiv", [summed, factor], like=summed), None]


def _add(s, op, grad, skip=(), negate=False):
    x, y = op.inputs[:2]
    if 1 in skip and _shape(y) == ():
        return [grad, None]
    if _equal_shapes(x, y, grad):
        return [grad, s.op("Neg", "Neg", [grad], like=grad) if negate else grad]
    gy = None if 1 in skip else s.op("Neg", "Neg", [grad], like=grad) if negate else grad
    return list(_reduce_args(s, x, y, None if 0 in skip else grad, gy))


def _mul(s, op, grad, skip=()):
    x, y = op.inputs[:2]
    if 1 in skip and _shape(y) == ():
        return [s.op("Mul", "Mul", [grad, y], like=grad), None]
    if _equal_shapes(x, y, grad) and grad.dtype in (dtypes.float32, dtypes.int32):
        return [s.op("Mul", "Mul", [grad, y], like=grad), s.op("Mul", "Mul", [grad, x],
                                                                 like=grad)]
    gx = None if 0 in skip else s.op("Mul", "Mul", [grad, y], like=grad)
    gy = None if 1 in skip else s.op("Mul", "Mul", [x, grad], like=grad)
    return list(_reduce_args(s, x, y, gx, gy))


def _div(s, op, grad, skip=(), kind="RealDiv"):
    """RealDiv (``truediv``... as math_ops.realdiv names it) and DivNoNan."""
    x, y = op.inputs[:2]
    base = "div_no_nan" if kind == "DivNoNan" else "RealDiv"
    gx = s.op(base, kind, [grad, y], like=grad)
    neg = s.op("Neg", "Neg", [x], like=x)
    inner = s.op(base, kind, [neg, y], like=neg)
    gy = s.op("mul", "Mul", [grad, s.op(base, kind, [inner, y], like=inner)], like=grad)
    return list(_reduce_args(s, x, y, gx, gy))


def _squared_difference(s, op, grad, skip=()):
    x, y = op.inputs[:2]
    scaled = s.op("Mul", "Mul", [s.const("scalar", 2.0, grad.dtype), grad], like=grad)
    x_grad = s.op("mul", "Mul", [scaled, s.op("sub", "Sub", [x, y], like=x)], like=grad)
    if _equal_shapes(x, y, grad):
        return [x_grad, s.op("Neg", "Neg", [x_grad], like=x_grad)]
    gy = None if 1 in skip else s.op("Neg", "Neg", [x_grad], like=x_grad)
    return list(_reduce_args(s, x, y, None if 0 in skip else x_grad, gy))


def _square(s, op, grad, skip=()):
    two = s.const("Const", 2.0, op.inputs[0].dtype)
    twice = s.op("Mul", "Mul", [op.inputs[0], two], like=op.inputs[0])
    return [s.op("Mul", "Mul", [grad, twice], like=grad)]


def _matmul(s, op, grad, skip=()):
    a, b = op.inputs[:2]
    t_a, t_b = (op.attrs.get(k, False) for k in ("transpose_a", "transpose_b"))
    # (grad_a's operands, grad_b's operands) for each transposition, as _MatMulGrad
    pairs = {(False, False): ((grad, b), (a, grad)), (False, True): ((grad, b), (grad, a)),
             (True, False): ((b, grad), (a, grad)), (True, True): ((b, grad), (grad, a))}
    ga, gb = pairs[(bool(t_a), bool(t_b))]
    out = [None, None]
    for i, operands in enumerate((ga, gb)):
        if i not in skip:
            out[i] = s.op("MatMul", "MatMul", list(operands), like=op.inputs[i])
    return out


def _bias_add(s, op, grad, skip=()):
    return [grad, s.op("BiasAddGrad", "BiasAddGrad", [grad], like=op.inputs[1])]


def _relu(s, op, grad, skip=()):
    return [s.op("ReluGrad", "ReluGrad", [grad, op.outputs[0]], like=grad)]


def _times(kind):
    """``grad * <kind>(x)``: Abs's (Sign), Log's (Reciprocal)."""
    def rule(s, op, grad, skip=()):
        factor = s.op(kind, kind, [op.inputs[0]], like=op.inputs[0])
        return [s.op("mul", "Mul", [grad, factor], like=grad)]
    return rule


def _reshape_grad(s, op, grad, skip=()):
    """array_ops._ReshapeGrad: back to the input's shape (a folded Shape)."""
    x = op.inputs[0]
    if not _known(x):
        raise NotListed("reshape of an unknown shape")
    return [s.op("Reshape", "Reshape", [grad, s.const("Shape", list(_shape(x)))], like=x),
            None]


def _output_grad(kind):
    """SigmoidGrad / TanhGrad / SqrtGrad / Relu6... of the op's output and the gradient."""
    def rule(s, op, grad, skip=()):
        return [s.op(kind, kind, [op.outputs[0], grad], like=grad)]
    return rule


def _exp(s, op, grad, skip=()):
    return [s.op("mul", "Mul", [grad, op.outputs[0]], like=grad)]


def _softmax(s, op, grad, skip=()):
    """nn_grad._SoftmaxGrad: (grad - sum(grad * softmax, -1, keepdims)) * softmax."""
    y = op.outputs[0]
    summed = _kept_sum(s, s.op("mul", "Mul", [grad, y], like=grad), -1)
    return [s.op("mul", "Mul", [s.op("sub", "Sub", [grad, summed], like=grad), y],
                 like=grad)]


def _passed(s, op, grad, skip=()):
    return [grad] + [None] * (len(op.inputs) - 1)


def _maximum_minimum(selector):
    """math_grad._MaximumMinimumGradInputOnly: the gradient of ``x`` where ``selector(x,
    y)`` holds, else 0 (``zeros_like``, folded); only for a scalar ``y`` whose gradient
    is not needed (clip_by_value's bounds), else not listed."""
    def rule(s, op, grad, skip=()):
        x, y = op.inputs
        if 1 not in skip or _shape(y) != () or not _known(grad):
            raise NotListed(f"{op.type}'s gradient of both inputs")
        zeros = s.const("zeros_like", np.zeros(_shape(grad), np.float32), grad.dtype)
        mask = s.op(selector, selector, [x, y], like=x, dtype=dtypes.bool_)
        return [s.op("SelectV2", "SelectV2", [mask, grad, zeros], like=grad), None]
    return rule


def _select(s, op, grad, skip=()):
    """math_grad._SelectGrad: ``select(c, grad, 0)`` and ``select(c, 0, grad)`` (its
    ``zeros_like`` folded), both made."""
    if not _known(grad):
        raise NotListed("Select of an unknown shape")
    c = op.inputs[0]
    zeros = s.const("zeros_like", np.zeros(_shape(grad), np.float32), grad.dtype)
    return [None, s.op("Select", "Select", [c, grad, zeros], like=grad),
            s.op("Select", "Select", [c, zeros, grad], like=grad)]


def _log1p(s, op, grad, skip=()):
    """math_grad._Log1pGrad: ``grad * reciprocal(1 + x)``."""
    x = op.inputs[0]
    one = s.op("add", "AddV2", [("x", np.float32(1)), x], like=x)
    return [s.op("mul", "Mul", [grad, s.op("Reciprocal", "Reciprocal", [one], like=x)],
                 like=grad)]


def _l2_loss(s, op, grad, skip=()):
    """nn_grad._L2LossGrad: ``x * grad``."""
    return [s.op("mul", "Mul", [op.inputs[0], grad], like=op.inputs[0])]


def _neg(s, op, grad, skip=()):
    return [s.op("Neg", "Neg", [grad], like=grad)]


def _cast(s, op, grad, skip=()):
    src = op.inputs[0].dtype
    if not (getattr(src, "is_floating", False) and getattr(grad.dtype, "is_floating", False)):
        return [None]
    if src == grad.dtype:
        return [grad]
    return [s.op("Cast", "Cast", [grad], like=grad, dtype=src)]


def _broadcast_mul(s, grad, x):
    """nn_grad._BroadcastMul: ``expand_dims(grad, -1) * x``."""
    expanded = s.op("ExpandDims", "ExpandDims", [grad, ("dim", -1)], like=grad,
                    shape=_shape(grad) + (1,) if _known(grad) else None)
    return s.op("mul", "Mul", [expanded, x], like=x)


def _sparse_xent(s, op, grad, skip=()):
    """nn_grad._SparseSoftmaxCrossEntropyWithLogitsGrad with no gradient for the backprop
    output: the loss's gradient times the softmax gradient (its output 1)."""
    return [_broadcast_mul(s, grad, op.outputs[1]), None]


def _softmax_xent(s, op, grad, skip=()):
    """nn_grad._SoftmaxCrossEntropyWithLogitsGrad with no gradient for the backprop output:
    the logits' (the loss's gradient times output 1) and the labels' (times
    ``-log_softmax(logits)``), both made."""
    logits = op.inputs[0]
    to_logits = _broadcast_mul(s, grad, op.outputs[1])
    negated = s.op("Neg", "Neg", [s.op("LogSoftmax", "LogSoftmax", [logits], like=logits)],
                   like=logits)
    return [to_logits, _broadcast_mul(s, grad, negated)]


# TF op type -> its gradient's listing (the gradient functions of math_grad / nn_grad)
GRADIENTS = {
    "ReadVariableOp": _passed, "Identity": _passed, "Sum": _sum, "Mean": _mean,
    "AddV2": _add, "Sub": lambda s, op, g, skip=(): _add(s, op, g, skip, negate=True),
    "Mul": _mul, "RealDiv": _div,
    "DivNoNan": lambda s, op, g, skip=(): _div(s, op, g, skip, "DivNoNan"),
    "SquaredDifference": _squared_difference, "Square": _square, "MatMul": _matmul,
    "BiasAdd": _bias_add, "Relu": _relu, "Neg": _neg, "Cast": _cast, "Abs": _times("Sign"),
    "Reshape": _reshape_grad, "Sigmoid": _output_grad("SigmoidGrad"),
    "Tanh": _output_grad("TanhGrad"), "Sqrt": _output_grad("SqrtGrad"), "Exp": _exp,
    "Log": _times("Reciprocal"), "Softmax": _softmax,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_xent, "L2Loss": _l2_loss,
    "Maximum": _maximum_minimum("GreaterEqual"), "Minimum": _maximum_minimum("LessEqual"),
    "Select": _select, "Log1p": _log1p, "SoftmaxCrossEntropyWithLogits": _softmax_xent,
    # comparisons: no gradient (ops.NotDifferentiable), nothing listed
    **{kind: lambda s, op, grad, skip=(): [None] * len(op.inputs)
       for kind in ("Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual")},
}


def _taped(builder, tape, sources):
    """The tape's ops (in order) with the inputs each skipped, and the watched tensors."""
    start, end, watched = builder.tapes.get(tape, (None, None, []))
    if start is None:
        raise NotListed("no tape enter listed")
    watched = {id(t) for t in watched} | {id(t) for t in sources}
    taped = []
    for op in builder.ops[start:end]:
        variable = getattr(op.outputs[0], "variable", None) if op.outputs else None
        if op.type == "ReadVariableOp" and variable is not None:
            if not getattr(variable, "trainable", True) and id(op.inputs[0]) not in watched:
                continue
            watched.add(id(op.inputs[0]))
        skip = {i for i, t in enumerate(op.inputs) if id(t) not in watched}
        if len(skip) == len(op.inputs):
            continue
        taped.append((op, skip))
        watched.update(id(t) for t in op.outputs
                       if getattr(t.dtype, "is_floating", True))
    return taped


def _backward_order(taped, target, sources):
    """TF's tape.h ComputeGradient: yields (op, skip) in the order their gradient runs,
    with ``ready`` telling which inputs' gradients are complete."""
    producer = {id(t): (op, skip) for op, skip in taped for t in op.outputs}
    source_ids = {id(t) for t in sources}
    usage, chosen, stack = {}, {}, [target]
    while stack:   # PrepareBackprop: the ops on a path to the target
        t = stack.pop()
        entry = producer.get(id(t))
        if entry is None or id(entry[0]) in chosen:
            continue
        chosen[id(entry[0])] = entry
        for x in entry[0].inputs:
            if id(x) in usage:
                usage[id(x)] += 1
            else:
                usage[id(x)] = 1
                if id(x) not in source_ids and id(x) in producer:
                    stack.append(x)
    missing = {}
    for tid in usage:
        if tid in producer:
            op = producer[tid][0]
            missing[id(op)] = missing.get(id(op), 0) + 1
    return chosen, usage, missing, producer


def list_gradient(builder, tape, target, sources, scope=""):
    """List ``tape.gradient(target, sources)`` (``tape``: the tape's key in
    ``builder.tapes``)'s ops on ``builder``
    (graph_operations._Builder); returns each source's gradient (GraphTensor or None).
    Raises NotListed where the gradient is listed as one node instead."""
    if target is None or not _known(target):
        raise NotListed("target of unknown shape")
    taped = _taped(builder, tape, sources)
    chosen, usage, missing, producer = _backward_order(taped, target, sources)
    stack = [e for key, e in chosen.items() if key not in missing]
    if len(stack) > 1:
        raise NotListed("several ops start the backward pass (TF's order is a hash's)")
    grads = {}
    if stack:
        ones = builder.const(builder.unique(scope + "ones"), None)
        ones.dtype, ones.shape = target.dtype, target.shape
        grads[id(target)] = [ones]
    while stack:
        op, skip = stack.pop()
        chosen.pop(id(op), None)
        out_grads = [_aggregate(builder, grads.pop(id(t), None), scope) for t in op.outputs]
        rule = GRADIENTS.get(op.type)
        if rule is None:
            raise NotListed(f"no gradient listing for {op.type}")
        if out_grads[0] is None:
            in_grads = [None] * len(op.inputs)
        else:
            s = Scope(builder, "gradient_tape/" + getattr(op, "forward_scope", ""))
            in_grads = rule(s, op, out_grads[0], skip)
        for x, g in zip(op.inputs, in_grads):
            if g is not None:
                grads.setdefault(id(x), []).append(g)
            if id(x) not in usage:
                continue
            usage[id(x)] -= 1
            if usage[id(x)] > 0 or id(x) not in producer:
                continue
            entry = producer[id(x)]
            missing[id(entry[0])] -= 1
            if missing[id(entry[0])] == 0:
                stack.insert(0, entry)   # tape.h: op_stack.insert(begin)
    return [_aggregate(builder, grads.get(id(t)), scope) for t in sources]


def _aggregate(builder, found, scope):
    """A tensor's gradients summed (backprop._aggregate_grads: AddN)."""
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    return builder.add(builder.unique(scope + "AddN"), "AddN", found,
                       [(found[0].dtype, _shape(found[0]))]).outputs[0]
