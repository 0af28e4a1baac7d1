"""``tf.keras.layers.RandomBrightness``: a random delta added to the pixel values.

Glossary:
  factor      -- the delta's range as a fraction of the value range: a number ``f`` is
                 ``[-|f|, |f|]``, a pair is sorted; each within ``[-1, 1]``.
  value_range -- the images' ``(low, high)`` (default ``(0, 255)``), sorted: the drawn
                 fraction is scaled by ``high - low`` and the result clipped to the range.
  draw        -- one ``generator.uniform`` per image (shape ``(1, 1, 1)`` for one image,
                 ``[batch, 1, 1, 1]`` for a batch), the same delta for every channel.

Mirrors tf_keras/src/layers/preprocessing/image_preprocessing.py (RandomBrightness).
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.layers.preprocessing.image_preprocessing import convert_inputs
from simdist.keras.layers.preprocessing.random_layer import BaseRandomLayer

_FACTOR_ERROR = ("The `factor` argument should be a number (or a list of two numbers) in the "
                 "range [-1.0, 1.0]. ")
_VALUE_RANGE_ERROR = "The `value_range` argument should be a list of two numbers. "


def _in_range(number):
    if number > 1.0 or number < -1.0:
        raise ValueError(_FACTOR_ERROR + f"Got {number}")


class RandomBrightness(BaseRandomLayer):
    """Each image's pixels moved by a random delta (see the glossary).

    Raises:
      ValueError: Keras's, for a factor or value range of the wrong form or out of range.
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(seed=seed, force_generator=True, **kwargs)
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2:
                raise ValueError(_FACTOR_ERROR + f"Got {factor}")
            _in_range(factor[0])
            _in_range(factor[1])
            self._factor = sorted(factor)
        elif isinstance(factor, (int, float)):
            _in_range(factor)
            self._factor = [-abs(factor), abs(factor)]
        else:
            raise ValueError(_FACTOR_ERROR + f"Got {factor}")
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError(_VALUE_RANGE_ERROR + f"Got {value_range}")
        self._value_range = sorted(value_range)
        self._seed = seed

    def call(self, inputs, training=True):
        inputs = convert_inputs(inputs, dtype=self.compute_dtype)
        return self._brightness_adjust(inputs) if training else inputs

    def _brightness_adjust(self, images):
        rank = images.shape.rank
        if rank == 3:
            delta_shape = (1, 1, 1)
        elif rank == 4:
            delta_shape = [A.shape(images)[0], 1, 1, 1]
        else:
            raise ValueError("Expected the input image to be rank 3 or 4. Got "
                             f"inputs.shape = {images.shape}")
        low, high = self._value_range
        delta = self._random_generator.random_uniform(delta_shape, self._factor[0],
                                                      self._factor[1])
        delta = A.cast(M.multiply(delta, high - low), images.dtype)
        return M.clip_by_value(M.add(images, delta), low, high)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(factor=self._factor, value_range=self._value_range, seed=self._seed)
        return config
