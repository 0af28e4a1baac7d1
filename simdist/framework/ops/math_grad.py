"""Gradient rules of the math ops, written with simdist ops so outer tapes record them.

Glossary:
  UNARY_RULES, BINARY_RULES -- the rules that are one expression, as table rows (autograd's
                  numpy_vjps style); the few that need more (Mul, RealDiv and Pow compute
                  only the gradients asked for; reductions, MatMul) stay functions.
  unbroadcast  -- the gradient of a broadcast input is the output gradient summed over the
                  dimensions the input was broadcast along, reshaped to the input's shape.
  kept shape   -- the output shape of a reduction with ``keepdims=True``; a reduction's
                  gradient is reshaped to it and broadcast back to the input's shape.

Mirrors tensorflow/python/ops/math_grad.py.
"""

from __future__ import annotations

import math

import numpy as np

from simdist.framework import execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import grappler_arithmetic, scan_ops
from simdist.framework.ops import math_ops as M

for _op in ("Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd",
            "LogicalOr", "LogicalNot", "IsFinite", "IsNan", "IsInf", "ArgMax", "ArgMin",
            "All", "Any", "FloorDiv", "Round", "Floor"):
    execute.NotDifferentiable(_op)


def unbroadcast(grad, shape):
    """Sum ``grad`` over the dimensions along which an input of ``shape`` was broadcast."""
    shape = tuple(shape)
    gshape = tuple(grad.shape)
    if gshape == shape:
        return grad
    lead = len(gshape) - len(shape)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape)
                                if d == 1 and gshape[lead + i] != 1]
    if axes:
        grad = M.reduce_sum(grad, axes, keepdims=True)
    return A.reshape(grad, list(shape))


def _pair(op, gx, gy):
    x, y = op.inputs
    return (unbroadcast(gx, x.shape) if gx is not None and op.needs_grad(0) else None,
            unbroadcast(gy, y.shape) if gy is not None and op.needs_grad(1) else None)


@execute.RegisterGradient("Mul")
def _mul_grad(op, grad):
    x, y = op.inputs
    return _pair(op, M.multiply(grad, y) if op.needs_grad(0) else None,
                 M.multiply(grad, x) if op.needs_grad(1) else None)


@execute.RegisterGradient("RealDiv")
def _realdiv_grad(op, grad):
    x, y = op.inputs
    constant = bool(op.attrs.get("constant"))   # Grappler's x * (1 / y) in a function
    gx = M._realdiv(grad, y, constant) if op.needs_grad(0) else None
    gy = (M.multiply(grad, M._realdiv(M._realdiv(M.negative(x), y, constant), y, constant))
          if op.needs_grad(1) else None)
    return _pair(op, gx, gy)


@execute.RegisterGradient("Pow")
def _pow_grad(op, grad):
    x, y = op.inputs
    z = op.outputs[0]
    gx = gy = None
    if op.needs_grad(0):   # TF's grad * y * pow(x, y - 1), or Grappler's in a function
        gx = grappler_arithmetic.pow_gradient(op, grad)
    if op.needs_grad(1):
        # log(x) only where x > 0; TF defines the exponent's gradient as 0 elsewhere.
        mask = M.greater(x, 0)
        safe = A.where(mask, x, A.ones_like(x))
        log_x = A.where(mask, M.log(safe), A.zeros_like(x))
        gy = M.multiply(grad, M.multiply(z, log_x))
    return _pair(op, gx, gy)


def _select(grad, x_wins):
    """The gradient to x where it won, to y elsewhere (ties go to x, as TF's kernels)."""
    zeros = A.zeros_like(grad)
    return A.where(x_wins, grad, zeros), A.where(x_wins, zeros, grad)


# Binary rules that are one expression: op type -> (grad to x, grad to y) before each is
# summed back to its input's shape (``unbroadcast``). ``g`` is the output's gradient.
BINARY_RULES = {
    "AddV2": lambda g, x, y: (g, g),
    "Sub": lambda g, x, y: (g, M.negative(g)),
    "FloorMod": lambda g, x, y: (g, M.multiply(M.negative(g), M.floordiv(x, y))),
    "Maximum": lambda g, x, y: _select(g, M.greater_equal(x, y)),
    "Minimum": lambda g, x, y: _select(g, M.less_equal(x, y)),
}


def _binary(rule):
    def grad_fn(op, grad):
        return _pair(op, *rule(grad, *op.inputs))
    return grad_fn


for _op_type, _rule in BINARY_RULES.items():
    execute.RegisterGradient(_op_type)(_binary(_rule))


@execute.RegisterGradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op.inputs
    g = M.multiply(grad, M.multiply(M.subtract(x, y), 2))
    return _pair(op, g, M.negative(g))


@execute.RegisterGradient("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op.inputs)


# --- unary -------------------------------------------------------------------------------
def _zero_where_grad_is_zero(grad, value):
    """TF's SqrtGrad/RsqrtGrad kernels give 0 where the incoming gradient is 0, even where
    the local derivative is infinite (``tf.where(x > 0, tf.sqrt(x), 0.)`` at x = 0)."""
    return A.where(M.equal(grad, 0), A.zeros_like(value), value)


def _gauss_grad(scale):
    """TF's _ErfGrad (``scale`` 2/sqrt(pi)) and _ErfcGrad (-2/sqrt(pi)): ``grad * scale *
    exp(-x**2)``, multiplied left to right."""
    def rule(g, x, y):
        factor = A.constant(scale, dtype=g.dtype)
        return M.multiply(M.multiply(g, factor), M.exp(M.negative(M.square(x))))
    return rule


# Unary rules, one row each (autograd's numpy_vjps style): op type -> the input's gradient
# from ``g`` (the output's gradient), ``x`` (the input) and ``y`` (the output). Rules that
# reuse the output (Exp, Sqrt, Sigmoid, Tanh ...) read ``y`` instead of recomputing it.
UNARY_RULES = {
    "Neg": lambda g, x, y: M.negative(g),
    "Square": lambda g, x, y: M.multiply(g, M.multiply(x, 2)),
    "Sqrt": lambda g, x, y: _zero_where_grad_is_zero(g, M.realdiv(M.multiply(g, 0.5), y)),
    "Rsqrt": lambda g, x, y: _zero_where_grad_is_zero(
        g, M.multiply(M.multiply(g, -0.5), M.multiply(y, M.square(y)))),
    "Reciprocal": lambda g, x, y: M.negative(M.multiply(g, M.square(y))),
    "Exp": lambda g, x, y: M.multiply(g, y),
    "Log": lambda g, x, y: M.multiply(g, M.reciprocal(x)),
    "Log1p": lambda g, x, y: M.multiply(g, M.reciprocal(M.add(x, 1))),
    "Abs": lambda g, x, y: M.multiply(g, M.sign(x)),
    "Sign": lambda g, x, y: A.zeros_like(x),
    "Sigmoid": lambda g, x, y: M.multiply(g, M.multiply(y, M.subtract(1, y))),
    "Tanh": lambda g, x, y: M.multiply(g, M.subtract(1, M.square(y))),
    "Erf": _gauss_grad(2 / math.sqrt(math.pi)),
    "Erfc": _gauss_grad(-2 / math.sqrt(math.pi)),
    "Softplus": lambda g, x, y: M.multiply(g, M.sigmoid(x)),
}


def register_unary_rules(rules: dict) -> None:
    """Register each row ``op type -> rule(g, x, y)`` as the op's gradient function."""
    for op_type, rule in rules.items():
        execute.RegisterGradient(op_type)(
            lambda op, grad, rule=rule: rule(grad, op.inputs[0], op.outputs[0]))


register_unary_rules(UNARY_RULES)


# --- reductions --------------------------------------------------------------------------
def _kept_shape(op):
    shape = list(op.inputs[0].shape)
    return [1 if i in op.attrs["axes"] else d for i, d in enumerate(shape)]


def _spread(op, grad):
    """``grad`` of a reduction broadcast back to the input's shape."""
    return A.broadcast_to(A.reshape(grad, _kept_shape(op)), list(op.inputs[0].shape))


@execute.RegisterGradient("Sum")
def _sum_grad(op, grad):
    return _spread(op, grad)


@execute.RegisterGradient("Mean")
def _mean_grad(op, grad):
    shape = list(op.inputs[0].shape)
    n = 1
    for a in op.attrs["axes"]:
        n *= shape[a]
    return M.realdiv(_spread(op, grad), max(n, 1))


def _extreme_grad(op, grad):
    # The gradient is shared equally between the elements that tie for the extreme.
    x = op.inputs[0]
    kshape = _kept_shape(op)
    y = A.reshape(op.outputs[0], kshape)
    ind = A.cast(M.equal(x, y), grad.dtype)
    num = M.reduce_sum(ind, list(op.attrs["axes"]), keepdims=True)
    return M.multiply(M.realdiv(ind, num), A.reshape(grad, kshape))


execute.RegisterGradient("Max")(_extreme_grad)
execute.RegisterGradient("Min")(_extreme_grad)


@execute.RegisterGradient("Prod")
def _prod_grad(op, grad):
    # d prod / d x_i = the product of the other elements. Without zeros that is prod / x_i
    # (differentiable again); with zeros, exclusive products from both sides, as TF's
    # _ProdGrad computes them, so a zero gives exact values instead of 0/0.
    x = op.inputs[0]
    v = x.numpy()
    if (v != 0).all():
        y = A.reshape(op.outputs[0], _kept_shape(op))
        return M.multiply(_spread(op, grad), M.realdiv(y, x))
    others = A.constant(_product_of_others(v, op.attrs["axes"]), dtype=x.dtype)
    return M.multiply(_spread(op, grad), others)


def _product_of_others(v, axes):
    """For every element, the product of the other elements of its reduction group."""
    moved = np.moveaxis(v, axes, range(len(axes)))
    flat = moved.reshape((-1,) + moved.shape[len(axes):])
    left = np.cumprod(np.concatenate([np.ones_like(flat[:1]), flat[:-1]]), axis=0)
    right = np.cumprod(np.concatenate([np.ones_like(flat[:1]), flat[::-1][:-1]]),
                       axis=0)[::-1]
    out = (left * right).reshape(moved.shape)
    return np.moveaxis(out, range(len(axes)), axes)


# --- matrix product ----------------------------------------------------------------------
def _matmul_grad(op, grad):
    x, y = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]
    mm = M.matmul
    if not ta and not tb:
        gx = mm(grad, y, transpose_b=True) if op.needs_grad(0) else None
        gy = mm(x, grad, transpose_a=True) if op.needs_grad(1) else None
    elif not ta and tb:
        gx = mm(grad, y) if op.needs_grad(0) else None
        gy = mm(grad, x, transpose_a=True) if op.needs_grad(1) else None
    elif ta and not tb:
        gx = mm(y, grad, transpose_b=True) if op.needs_grad(0) else None
        gy = mm(x, grad) if op.needs_grad(1) else None
    else:
        gx = mm(y, grad, transpose_a=True, transpose_b=True) if op.needs_grad(0) else None
        gy = mm(grad, x, transpose_a=True, transpose_b=True) if op.needs_grad(1) else None
    return _pair(op, gx, gy)


execute.RegisterGradient("MatMul")(_matmul_grad)
execute.RegisterGradient("BatchMatMulV2")(_matmul_grad)


@execute.RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
    return A.gather(grad, op.inputs[1]), None


# --- scans (tensorflow/python/ops/math_grad.py: _CumsumGrad, _CumprodGrad ...) -----------
def _scan_args(op, reverse=None):
    """The op's axis and exclusive, and ``reverse`` flipped: a scan's gradient runs the other
    way."""
    return dict(axis=op.attrs["axis"], exclusive=op.attrs["exclusive"],
                reverse=not op.attrs["reverse"] if reverse is None else reverse)


@execute.RegisterGradient("Cumsum")
def _cumsum_grad(op, grad):
    return scan_ops.cumsum(grad, **_scan_args(op))


@execute.RegisterGradient("Cumprod")
def _cumprod_grad(op, grad):
    x = op.inputs[0]
    prod = scan_ops.cumprod(x, **_scan_args(op, reverse=op.attrs["reverse"]))
    out = scan_ops.cumsum(M.multiply(prod, grad), **_scan_args(op))
    return M.divide_no_nan(out, x)


@execute.RegisterGradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, grad):
    x, out = op.inputs[0], op.outputs[0]
    lowest = A.constant(grad.dtype.min, dtype=grad.dtype)
    # the gradient split into its positive and negative parts, whose logs exist
    log_pos = A.where(M.greater(grad, 0), M.log(grad), lowest)
    log_neg = A.where(M.less(grad, 0), M.log(M.negative(grad)), lowest)

    def part(log_part):
        summed = scan_ops.cumulative_logsumexp(M.subtract(log_part, out), **_scan_args(op))
        return M.exp(M.add(summed, x))

    return M.subtract(part(log_pos), part(log_neg))
