"""Activation functions, looked up by name in one table (``ACTIVATIONS``).

Glossary:
  get(identifier) -- None -> linear, a name -> the table's function, a callable -> itself.
  sigmoid/softmax -- remember their logits (backend.set_keras_logits), so a crossentropy
                     on their output is computed from the logits, exactly as Keras does.

Mirrors keras/src/activations.py.
"""

from __future__ import annotations

from simdist.framework.ops import math_ops as M
from simdist.framework.ops import nn_ops
from simdist.keras import backend


def linear(x):
    return x


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    out = nn_ops.relu(x)
    if max_value is not None:
        out = M.minimum(out, max_value)
    return out


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


ACTIVATIONS = {
    "linear": linear, "relu": relu, "sigmoid": sigmoid, "softmax": softmax, "tanh": tanh,
    "softplus": softplus, "exponential": exponential,
}


def get(identifier):
    """The activation function for ``identifier`` (None, a name, or a callable)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        try:
            return ACTIVATIONS[identifier]
        except KeyError:
            raise ValueError(f"Unknown activation function: '{identifier}'. Please ensure "
                             "you are using a `keras.utils.custom_object_scope` and that "
                             "this object is included in the scope.") from None
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier}")


def serialize(fn) -> str:
    for k, v in ACTIVATIONS.items():
        if v is fn:
            return k
    return getattr(fn, "__name__", str(fn))
