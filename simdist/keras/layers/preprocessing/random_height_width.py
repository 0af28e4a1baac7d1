"""``tf.keras.layers.RandomHeight`` and ``RandomWidth``: images resized along one side by a
random factor.

Glossary:
  factor  -- a number ``f`` is ``(-f, f)``, a pair ``(lower, upper)``; the side is scaled
             by one ``generator.uniform([], 1 + lower, 1 + upper)`` draw per call (the same
             for every image of a batch) and truncated to an int32 size.
  side    -- the height (axis -3) for RandomHeight, the width (axis -2) for RandomWidth; the
             other side keeps its size, and the output's static size of the side is None.

Mirrors tf_keras/src/layers/preprocessing/image_preprocessing.py (RandomHeight,
RandomWidth).
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import image_resize_ops
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor_shape import TensorShape
from simdist.keras.layers.preprocessing.image_preprocessing import convert_inputs
from simdist.keras.layers.preprocessing.random_layer import BaseRandomLayer
from simdist.keras.utils import image_utils


class _RandomSide(BaseRandomLayer):
    """One side of the images resized by a random factor (see the glossary)."""

    _AXIS = -3
    _LESS = "lesser"   # Keras's word in the bounds error (RandomWidth's is "less")

    def __init__(self, factor, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(seed=seed, force_generator=True, **kwargs)
        self.factor = factor
        if isinstance(factor, (tuple, list)):
            self.lower, self.upper = factor[0], factor[1]
        else:
            self.lower, self.upper = -factor, factor
        if self.upper < self.lower:
            raise ValueError(f"`factor` argument cannot have an upper bound {self._LESS} than "
                             f"the lower bound. Received: factor={factor}")
        if self.lower < -1.0 or self.upper < -1.0:
            raise ValueError("`factor` argument must have values larger than -1. "
                             f"Received: factor={factor}")
        self.interpolation = interpolation
        self._interpolation_method = image_utils.get_interpolation(interpolation)
        self.seed = seed

    def call(self, inputs, training=True):
        inputs = convert_inputs(inputs)
        return self._resized(inputs) if training else inputs

    def _resized(self, inputs):
        shape = A.shape(inputs)
        sizes = [shape[-3], shape[-2]]
        side = 0 if self._AXIS == -3 else 1
        scale = self._random_generator.random_uniform([], 1.0 + self.lower, 1.0 + self.upper)
        sizes[side] = A.cast(M.multiply(scale, A.cast(sizes[side], dtypes.float32)),
                             dtypes.int32)
        output = A.cast(image_resize_ops.resize(inputs, A.stack(sizes),
                                                method=self._interpolation_method),
                        self.compute_dtype)
        dims = inputs.shape.as_list()
        dims[self._AXIS] = None
        output.set_shape(dims)   # the other side's static size kept
        return output

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        dims[self._AXIS] = None
        return TensorShape(dims)

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, interpolation=self.interpolation, seed=self.seed)
        return config


class RandomHeight(_RandomSide):
    """Each call's images resized to a random height (``tf.keras.layers.RandomHeight``)."""


class RandomWidth(_RandomSide):
    """Each call's images resized to a random width (``tf.keras.layers.RandomWidth``)."""

    _AXIS = -2
    _LESS = "less"
