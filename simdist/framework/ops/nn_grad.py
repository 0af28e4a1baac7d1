"""Gradient rules of the nn ops (activations, softmax, cross-entropies).

Glossary:
  softmax gradient   -- ``(g - sum(g * y)) * y`` along the softmax axis.
  bias gradient      -- BiasAddGrad: summed over all but the channel axis, in float32 for
                        float16 (so a Dense's bias gradient is TF's to the last bit).
  cross-entropy      -- w.r.t. logits, TF's kernel gives ``softmax(logits) - labels``
                        scaled by the loss gradient (the exact derivative when each row of
                        labels sums to 1); w.r.t. labels, ``-log_softmax(logits)``.

Mirrors tensorflow/python/ops/nn_grad.py.
"""

from __future__ import annotations

from simdist.framework import execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_grad
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops as N


@execute.RegisterGradient("BiasAdd")
def _bias_add_grad(op, grad):
    return grad, N.bias_add_grad(grad, op.attrs["axis"])


@execute.RegisterGradient("BiasAddGrad")
def _bias_add_grad_grad(op, grad):
    # Each channel's sum spreads its gradient back over every element of that channel.
    g = op.inputs[0]
    shape = [1] * g.ndim
    shape[op.attrs["axis"]] = -1
    return A.broadcast_to(A.reshape(grad, shape), A.shape(g))


# One-expression activation rules as table rows (see math_grad.UNARY_RULES): ``g`` is the
# output's gradient, ``x`` the input, ``y`` the output. Relu6 is 0 at both kinks, as TF's
# Relu6Grad. Elu and Selu use the negative side's rule where the output is < 0 (TF's EluGrad
# and SeluGrad), so at 0 the positive side's slope wins and the second derivative is 0.
UNARY_RULES = {
    "Relu": lambda g, x, y: M.multiply(g, A.cast(M.greater(y, 0), g.dtype)),
    "Relu6": lambda g, x, y: M.multiply(
        g, A.cast(M.logical_and(M.greater(x, 0), M.less(x, 6)), g.dtype)),
    # d/dx (exp(x) - 1) = y + 1 on the negative side
    "Elu": lambda g, x, y: A.where(M.less(y, 0), M.multiply(g, M.add(y, 1)), g),
}
math_grad.register_unary_rules(UNARY_RULES)


@execute.RegisterGradient("L2Loss")
def _l2_loss_grad(op, grad):
    return op.inputs[0] * grad


@execute.RegisterGradient("Selu")
def _selu_grad(op, grad):
    y = op.outputs[0]
    scale = A.constant(N.SELU_SCALE, dtype=grad.dtype)
    scale_alpha = A.constant(N.SELU_SCALE_ALPHA, dtype=grad.dtype)
    return A.where(M.less(y, 0), M.multiply(grad, M.add(y, scale_alpha)),
                   M.multiply(grad, scale))


@execute.RegisterGradient("Softmax")
def _softmax_grad(op, grad):
    y = op.outputs[0]
    a = op.attrs["axis"]
    return M.multiply(M.subtract(grad, M.reduce_sum(M.multiply(grad, y), a, keepdims=True)), y)


@execute.RegisterGradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    y = op.outputs[0]
    a = op.attrs["axis"]
    return M.subtract(grad, M.multiply(M.reduce_sum(grad, a, keepdims=True), M.exp(y)))


@execute.RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _softmax_xent_grad(op, grad):
    logits, labels = op.inputs
    a = op.attrs["axis"]
    g = A.expand_dims(grad, a)
    g_logits = g_labels = None
    if op.needs_grad(0):
        lab = A.broadcast_to(labels, list(logits.shape))
        g_logits = M.multiply(g, M.subtract(N.xent_softmax(logits, a), lab))
    if op.needs_grad(1):
        from simdist.framework.ops.math_grad import unbroadcast

        g_labels = unbroadcast(M.multiply(g, M.negative(N.log_softmax(logits, a))),
                               labels.shape)
    return g_logits, g_labels


@execute.RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_softmax_xent_grad(op, grad):
    logits, labels = op.inputs
    hot = A.one_hot(labels, logits.shape[-1], dtype=logits.dtype)
    return M.multiply(A.expand_dims(grad, -1), M.subtract(N.xent_softmax(logits), hot)), None
