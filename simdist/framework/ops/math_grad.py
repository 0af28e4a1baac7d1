"""Gradient rules of the math ops, written with simdist ops so outer tapes record them.

Glossary:
  unbroadcast  -- the gradient of a broadcast input is the output gradient summed over the
                  dimensions the input was broadcast along, reshaped to the input's shape.
  kept shape   -- the output shape of a reduction with ``keepdims=True``; a reduction's
                  gradient is reshaped to it and broadcast back to the input's shape.

Mirrors tensorflow/python/ops/math_grad.py.
"""

from __future__ import annotations

import math

import numpy as np

from simdist.framework import op_def
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M

for _op in ("Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual", "LogicalAnd",
            "LogicalOr", "LogicalNot", "IsFinite", "IsNan", "IsInf", "ArgMax", "ArgMin",
            "All", "Any", "FloorDiv", "Round", "Floor"):
    op_def.NotDifferentiable(_op)


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


@op_def.RegisterGradient("AddV2")
def _add_grad(op, grad):
    return _pair(op, grad, grad)


@op_def.RegisterGradient("Sub")
def _sub_grad(op, grad):
    return _pair(op, grad, M.negative(grad))


@op_def.RegisterGradient("Mul")
def _mul_grad(op, grad):
    x, y = op.inputs
    return _pair(op, M.multiply(grad, y) if op.needs_grad(0) else None,
                 M.multiply(grad, x) if op.needs_grad(1) else None)


@op_def.RegisterGradient("RealDiv")
def _realdiv_grad(op, grad):
    x, y = op.inputs
    gx = M.realdiv(grad, y) if op.needs_grad(0) else None
    gy = (M.multiply(grad, M.realdiv(M.realdiv(M.negative(x), y), y))
          if op.needs_grad(1) else None)
    return _pair(op, gx, gy)


@op_def.RegisterGradient("FloorMod")
def _floormod_grad(op, grad):
    x, y = op.inputs
    return _pair(op, grad, M.multiply(M.negative(grad), M.floordiv(x, y)))


@op_def.RegisterGradient("Pow")
def _pow_grad(op, grad):
    x, y = op.inputs
    z = op.outputs[0]
    gx = gy = None
    if op.needs_grad(0):
        gx = M.multiply(grad, M.multiply(y, M.pow(x, M.subtract(y, 1))))
    if op.needs_grad(1):
        # log(x) only where x > 0; TF defines the exponent's gradient as 0 elsewhere.
        mask = M.greater(x, 0)
        safe = A.where(mask, x, A.ones_like(x))
        log_x = A.where(mask, M.log(safe), A.zeros_like(x))
        gy = M.multiply(grad, M.multiply(z, log_x))
    return _pair(op, gx, gy)


def _select_pair(op, grad, x_wins):
    zeros = A.zeros_like(grad)
    return _pair(op, A.where(x_wins, grad, zeros), A.where(x_wins, zeros, grad))


@op_def.RegisterGradient("Maximum")
def _maximum_grad(op, grad):
    x, y = op.inputs
    return _select_pair(op, grad, M.greater_equal(x, y))


@op_def.RegisterGradient("Minimum")
def _minimum_grad(op, grad):
    x, y = op.inputs
    return _select_pair(op, grad, M.less_equal(x, y))


@op_def.RegisterGradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op.inputs
    g = M.multiply(grad, M.multiply(M.subtract(x, y), 2))
    return _pair(op, g, M.negative(g))


@op_def.RegisterGradient("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op.inputs)


# --- unary -------------------------------------------------------------------------------
@op_def.RegisterGradient("Neg")
def _neg_grad(op, grad):
    return M.negative(grad)


@op_def.RegisterGradient("Square")
def _square_grad(op, grad):
    return M.multiply(grad, M.multiply(op.inputs[0], 2))


def _zero_where_grad_is_zero(grad, value):
    """TF's SqrtGrad/RsqrtGrad kernels give 0 where the incoming gradient is 0, even where
    the local derivative is infinite (``tf.where(x > 0, tf.sqrt(x), 0.)`` at x = 0)."""
    return A.where(M.equal(grad, 0), A.zeros_like(value), value)


@op_def.RegisterGradient("Sqrt")
def _sqrt_grad(op, grad):
    return _zero_where_grad_is_zero(grad, M.realdiv(M.multiply(grad, 0.5), op.outputs[0]))


@op_def.RegisterGradient("Rsqrt")
def _rsqrt_grad(op, grad):
    y = op.outputs[0]
    return _zero_where_grad_is_zero(
        grad, M.multiply(M.multiply(grad, -0.5), M.multiply(y, M.square(y))))


@op_def.RegisterGradient("Reciprocal")
def _reciprocal_grad(op, grad):
    y = op.outputs[0]
    return M.negative(M.multiply(grad, M.square(y)))


@op_def.RegisterGradient("Exp")
def _exp_grad(op, grad):
    return M.multiply(grad, op.outputs[0])


@op_def.RegisterGradient("Log")
def _log_grad(op, grad):
    return M.multiply(grad, M.reciprocal(op.inputs[0]))


@op_def.RegisterGradient("Log1p")
def _log1p_grad(op, grad):
    return M.multiply(grad, M.reciprocal(M.add(op.inputs[0], 1)))


@op_def.RegisterGradient("Abs")
def _abs_grad(op, grad):
    return M.multiply(grad, M.sign(op.inputs[0]))


@op_def.RegisterGradient("Sign")
def _sign_grad(op, grad):
    return A.zeros_like(op.inputs[0])


@op_def.RegisterGradient("Sigmoid")
def _sigmoid_grad(op, grad):
    y = op.outputs[0]
    return M.multiply(grad, M.multiply(y, M.subtract(1, y)))


@op_def.RegisterGradient("Tanh")
def _tanh_grad(op, grad):
    y = op.outputs[0]
    return M.multiply(grad, M.subtract(1, M.square(y)))


@op_def.RegisterGradient("Erf")
def _erf_grad(op, grad):
    x = op.inputs[0]
    two_over_root_pi = A.constant(2 / math.sqrt(math.pi), dtype=grad.dtype)
    return M.multiply(grad, M.multiply(two_over_root_pi, M.exp(M.negative(M.square(x)))))


@op_def.RegisterGradient("Softplus")
def _softplus_grad(op, grad):
    return M.multiply(grad, M.sigmoid(op.inputs[0]))


# --- reductions --------------------------------------------------------------------------
def _kept_shape(op):
    shape = list(op.inputs[0].shape)
    return [1 if i in op.attrs["axes"] else d for i, d in enumerate(shape)]


def _spread(op, grad):
    """``grad`` of a reduction broadcast back to the input's shape."""
    return A.broadcast_to(A.reshape(grad, _kept_shape(op)), list(op.inputs[0].shape))


@op_def.RegisterGradient("Sum")
def _sum_grad(op, grad):
    return _spread(op, grad)


@op_def.RegisterGradient("Mean")
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


op_def.RegisterGradient("Max")(_extreme_grad)
op_def.RegisterGradient("Min")(_extreme_grad)


@op_def.RegisterGradient("Prod")
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


op_def.RegisterGradient("MatMul")(_matmul_grad)
op_def.RegisterGradient("BatchMatMulV2")(_matmul_grad)


@op_def.RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
    return A.gather(grad, op.inputs[1]), None
