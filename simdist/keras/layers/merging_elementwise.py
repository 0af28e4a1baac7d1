"""Element-wise merge layers besides ``Add``: ``Subtract``, ``Multiply``, ``Average``,
``Maximum``, ``Minimum`` and their functional forms (``tf.keras.layers.average([...])``).

Glossary:
  merge -- as ``Add`` (merging.py): one batch size, the rest broadcast; the inputs combined
           left to right (``Average`` sums them, then divides by their count).

Mirrors tf_keras/src/layers/merging/subtract.py, multiply.py, average.py, maximum.py and
minimum.py.
"""

from __future__ import annotations

from simdist.framework.ops import math_ops as M
from simdist.keras.layers.merging import _Merge


def _fold(op, inputs):
    out = inputs[0]
    for x in inputs[1:]:
        out = op(out, x)
    return out


class Subtract(_Merge):
    """The first input minus the second (``tf.keras.layers.Subtract``)."""

    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: input_shape={input_shape}")

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return inputs[0] - inputs[1]


class Multiply(_Merge):
    """The product of its inputs (``tf.keras.layers.Multiply``)."""

    def _merge_function(self, inputs):
        return _fold(lambda a, b: a * b, inputs)


class Average(_Merge):
    """The mean of its inputs (``tf.keras.layers.Average``)."""

    def _merge_function(self, inputs):
        return _fold(lambda a, b: a + b, inputs) / len(inputs)


class Maximum(_Merge):
    """The element-wise maximum of its inputs (``tf.keras.layers.Maximum``)."""

    def _merge_function(self, inputs):
        return _fold(M.maximum, inputs)


class Minimum(_Merge):
    """The element-wise minimum of its inputs (``tf.keras.layers.Minimum``)."""

    def _merge_function(self, inputs):
        return _fold(M.minimum, inputs)


def subtract(inputs, **kwargs):
    """``Subtract()(inputs)`` (``tf.keras.layers.subtract``)."""
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """``Multiply()(inputs)`` (``tf.keras.layers.multiply``)."""
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """``Average()(inputs)`` (``tf.keras.layers.average``)."""
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """``Maximum()(inputs)`` (``tf.keras.layers.maximum``)."""
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """``Minimum()(inputs)`` (``tf.keras.layers.minimum``)."""
    return Minimum(**kwargs)(inputs)
