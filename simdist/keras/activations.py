"""Activation functions, looked up by name in one table (``ACTIVATIONS``).

Glossary:
  get(identifier) -- None -> linear, a name -> the table's function, a callable -> itself.
  sigmoid/softmax -- remember their logits (backend.set_keras_logits), so a crossentropy
                     on their output is computed from the logits, exactly as Keras does.

Mirrors keras/src/activations.py.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops
from simdist.keras import backend


def linear(x):
    return x


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """``max(x, 0)``; ``alpha`` is the slope below ``threshold``, ``max_value`` a ceiling."""
    x = A._t(x)
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn_ops.leaky_relu(x, alpha=alpha)
        negative_part = nn_ops.relu(M.add(M.negative(x), threshold) if threshold != 0
                                    else M.negative(x))
    if threshold != 0:  # x where x > threshold, else 0
        out = M.multiply(x, A.cast(M.greater(x, threshold), x.dtype))
    else:
        out = nn_ops.relu(x)
    if max_value is not None:
        out = M.clip_by_value(out, 0, max_value)
    if alpha != 0.0:
        out = M.subtract(out, M.multiply(negative_part, alpha))
    return out


def elu(x, alpha=1.0):
    out = nn_ops.elu(x)
    return out if alpha == 1 else A.where(M.greater(A._t(x), 0), out, M.multiply(out, alpha))


def selu(x):
    return nn_ops.selu(x)


def gelu(x, approximate=False):
    return nn_ops.gelu(x, approximate=approximate)


def hard_sigmoid(x):
    """``clip(0.2 * x + 0.5, 0, 1)`` (Keras 2's piecewise-linear sigmoid)."""
    return M.clip_by_value(M.add(M.multiply(A._t(x), 0.2), 0.5), 0.0, 1.0)


def mish(x):
    """``x * tanh(softplus(x))``."""
    return M.multiply(x, M.tanh(M.softplus(x)))


def sigmoid(x):
    out = nn_ops.sigmoid(x)
    backend.set_keras_logits(out, x)
    return out


def softmax(x, axis=-1):
    if x.shape.rank is not None and x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    out = nn_ops.softmax(x, axis=axis)
    backend.set_keras_logits(out, x)
    return out


def tanh(x):
    return nn_ops.tanh(x)


def softplus(x):
    return M.softplus(x)


def exponential(x):
    return M.exp(x)


swish = nn_ops.silu
softsign = nn_ops.softsign

ACTIVATIONS = {
    "linear": linear, "relu": relu, "sigmoid": sigmoid, "softmax": softmax, "tanh": tanh,
    "softplus": softplus, "exponential": exponential, "elu": elu, "selu": selu,
    "gelu": gelu, "hard_sigmoid": hard_sigmoid, "mish": mish, "swish": swish,
    "softsign": softsign, "silu": nn_ops.silu, "relu6": nn_ops.relu6,
    "leaky_relu": nn_ops.leaky_relu, "log_softmax": nn_ops.log_softmax,
}


def get(identifier):
    """The activation function for ``identifier`` (None, a name, or a callable)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        try:
            return ACTIVATIONS[identifier]
        except KeyError:
            raise ValueError(f"Unknown activation function '{identifier}' cannot be "
                             "deserialized.") from None
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier}")


def serialize(fn) -> str:
    for k, v in ACTIVATIONS.items():
        if v is fn:
            return k
    return getattr(fn, "__name__", str(fn))
