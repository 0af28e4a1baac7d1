"""Gradient rules of the convolution and pooling ops.

Glossary:
  Conv2D family    -- Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter are bilinear,
                      so each one's gradient is made of the other two (TF's nn_grad.py).
  MaxPool family   -- MaxPool -> MaxPoolGrad -> MaxPoolGradGrad -> MaxPoolGrad ...; the
                      argmax positions are piecewise constant, so the original input and
                      output get zero gradients from the grad ops.
  AvgPool family   -- AvgPool and AvgPoolGrad are linear and each other's adjoint.

Mirrors tensorflow/python/ops/nn_grad.py.
"""

from __future__ import annotations

from simdist.framework import execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import conv_ops as C
from simdist.framework.ops import pooling_ops as P


@execute.RegisterGradient("Conv2D")
def _conv2d_grad(op, grad):
    x, f = op.inputs
    return (C.conv2d_backprop_input(f, grad, op.attrs) if op.needs_grad(0) else None,
            C.conv2d_backprop_filter(x, grad, op.attrs) if op.needs_grad(1) else None)


@execute.RegisterGradient("Conv2DBackpropInput")
def _conv2d_backprop_input_grad(op, grad):
    f, g = op.inputs  # output = backprop_input(f, g); grad is input-shaped
    return (C.conv2d_backprop_filter(grad, g, op.attrs) if op.needs_grad(0) else None,
            C.conv_from_attrs(grad, f, op.attrs) if op.needs_grad(1) else None)


@execute.RegisterGradient("Conv2DBackpropFilter")
def _conv2d_backprop_filter_grad(op, grad):
    x, g = op.inputs  # output = backprop_filter(x, g); grad is filter-shaped
    return (C.conv2d_backprop_input(grad, g, op.attrs) if op.needs_grad(0) else None,
            C.conv_from_attrs(x, grad, op.attrs) if op.needs_grad(1) else None)


@execute.RegisterGradient("MaxPool")
def _max_pool_grad(op, grad):
    return P.max_pool_grad(op.inputs[0], op.outputs[0], grad, op.attrs)


@execute.RegisterGradient("MaxPoolGrad")
def _max_pool_grad_grad(op, grad):
    x, y, _ = op.inputs
    return A.zeros_like(x), A.zeros_like(y), P.max_pool_grad_grad(x, y, grad, op.attrs)


@execute.RegisterGradient("MaxPoolGradGrad")
def _max_pool_grad_grad_grad(op, grad):
    x, y, _ = op.inputs
    return A.zeros_like(x), A.zeros_like(y), P.max_pool_grad(x, y, grad, op.attrs)


@execute.RegisterGradient("AvgPool")
def _avg_pool_grad(op, grad):
    return P.avg_pool_grad(grad, op.attrs)


@execute.RegisterGradient("AvgPoolGrad")
def _avg_pool_grad_grad(op, grad):
    return P.avg_pool_from_attrs(grad, op.attrs)
