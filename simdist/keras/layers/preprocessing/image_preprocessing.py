"""Keras's image preprocessing layers that resize, crop, rescale, flip and change contrast.

Glossary:
  images        -- ``(..., height, width, channels)``: one image or a batch.
  convert_inputs -- the input as a tensor of the layer's compute dtype (a dict refused).
  Rescaling     -- ``x * scale + offset`` in the compute dtype.
  Resizing      -- ``tf.image.resize`` (bilinear in float32, then cast back);
                   ``crop_to_aspect_ratio`` resizes the largest centred crop of the target's
                   aspect ratio (image_utils.smart_resize).
  CenterCrop    -- the centred window of the target size; an image smaller than the target
                   is smart-resized up instead.
  RandomCrop    -- training: a window at a random offset (two int32 draws modulo the room
                   left); inference, or an image smaller than the target: smart-resized.
  RandomFlip    -- training: ``stateless_random_flip_left_right`` / ``_up_down`` per image
                   with a new seed from the layer's generator for each direction.
  RandomContrast -- training: ``stateless_random_contrast`` in ``[1 - lower, 1 + upper]``,
                   clipped to ``[0, 255]``.
Every random layer returns its inputs unchanged with ``training=False``.

Mirrors tf_keras/src/layers/preprocessing/image_preprocessing.py (Resizing, CenterCrop,
RandomCrop, Rescaling, RandomFlip, RandomContrast, convert_inputs).
"""

from __future__ import annotations

from simdist.framework import dtypes, execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import image_geometry_ops, image_ops, image_resize_ops
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor
from simdist.keras.engine.base_layer import Layer
from simdist.keras.layers.preprocessing.random_layer import BaseRandomLayer
from simdist.keras.utils import control_flow_util, image_utils

H_AXIS, W_AXIS = -3, -2
HORIZONTAL, VERTICAL = "horizontal", "vertical"
HORIZONTAL_AND_VERTICAL = "horizontal_and_vertical"


def convert_inputs(inputs, dtype=None):
    """``inputs`` as a tensor of ``dtype`` (Keras's ensure_tensor).

    Raises:
      ValueError: a dict (Keras points to keras_cv for images with boxes).
    """
    if isinstance(inputs, dict):
        raise ValueError(
            "This layer can only process a tensor representing an image or a batch of "
            f"images. Received: type(inputs)={type(inputs)}.If you need to pass a dict "
            "containing images, labels, and bounding boxes, you should instead use the "
            "preprocessing and augmentation layers from `keras_cv.layers`. See docs at "
            "https://keras.io/api/keras_cv/layers/")
    if not isinstance(inputs, Tensor):
        inputs = execute.convert_to_tensor(inputs, dtype)
    if dtype is not None and inputs.dtype != dtypes.as_dtype(dtype):
        inputs = A.cast(inputs, dtype)
    return inputs


def _hw_shape(layer, input_shape):
    shape = list(input_shape)
    shape[H_AXIS], shape[W_AXIS] = layer.height, layer.width
    return tuple(shape)


class Rescaling(Layer):
    """``inputs * scale + offset`` (``tf.keras.layers.Rescaling``)."""

    def __init__(self, scale, offset=0.0, **kwargs):
        self.scale, self.offset = scale, offset
        super().__init__(**kwargs)

    def call(self, inputs):
        dtype = self.compute_dtype
        inputs = convert_inputs(inputs, dtype)
        scale = A.cast(self.scale, dtype)
        offset = A.cast(self.offset, dtype)
        return M.add(M.multiply(inputs, scale), offset)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(scale=self.scale, offset=self.offset)
        return config


class Resizing(Layer):
    """Images resized to ``(height, width)`` (``tf.keras.layers.Resizing``)."""

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 **kwargs):
        self.height, self.width = height, width
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self._interpolation_method = image_utils.get_interpolation(interpolation)
        super().__init__(**kwargs)

    def call(self, inputs):
        dtype = self.compute_dtype if self.interpolation == "nearest" else dtypes.float32
        inputs = convert_inputs(inputs, dtype)
        size = [self.height, self.width]
        if self.crop_to_aspect_ratio:
            outputs = image_utils.smart_resize(inputs, size, self._interpolation_method)
        else:
            outputs = image_resize_ops.resize(inputs, size, self._interpolation_method)
        return A.cast(outputs, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return _hw_shape(self, input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width, interpolation=self.interpolation,
                      crop_to_aspect_ratio=self.crop_to_aspect_ratio)
        return config


class CenterCrop(Layer):
    """The centred ``(height, width)`` window (``tf.keras.layers.CenterCrop``)."""

    def __init__(self, height, width, **kwargs):
        self.height, self.width = height, width
        super().__init__(**kwargs, autocast=False)

    def call(self, inputs):
        inputs = convert_inputs(inputs, self.compute_dtype)
        h_diff = inputs.shape[H_AXIS] - self.height
        w_diff = inputs.shape[W_AXIS] - self.width
        if h_diff >= 0 and w_diff >= 0:
            return image_geometry_ops.crop_to_bounding_box(
                inputs, int(h_diff / 2), int(w_diff / 2), self.height, self.width)
        return A.cast(image_utils.smart_resize(inputs, [self.height, self.width]),
                      self.compute_dtype)

    def compute_output_shape(self, input_shape):
        return _hw_shape(self, input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width)
        return config


class RandomCrop(BaseRandomLayer):
    """A ``(height, width)`` window at a random place (``tf.keras.layers.RandomCrop``)."""

    def __init__(self, height, width, seed=None, **kwargs):
        super().__init__(**kwargs, autocast=False, seed=seed, force_generator=True)
        self.height, self.width, self.seed = height, width, seed

    def call(self, inputs, training=True):
        inputs = convert_inputs(inputs, self.compute_dtype)
        h_diff = inputs.shape[H_AXIS] - self.height
        w_diff = inputs.shape[W_AXIS] - self.width

        def random_crop():
            rands = self._random_generator.random_uniform([2], 0, dtypes.int32.max,
                                                          dtypes.int32)
            h_start = M.floormod(rands[0], h_diff + 1)
            w_start = M.floormod(rands[1], w_diff + 1)
            return image_geometry_ops.crop_to_bounding_box(inputs, h_start, w_start,
                                                           self.height, self.width)

        def resize():
            outputs = image_utils.smart_resize(inputs, [self.height, self.width])
            return A.cast(outputs, self.compute_dtype)

        if h_diff < 0 or w_diff < 0:
            return resize()
        return control_flow_util.smart_cond(training, random_crop, resize)

    def compute_output_shape(self, input_shape):
        return _hw_shape(self, input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width, seed=self.seed)
        return config


class RandomFlip(BaseRandomLayer):
    """Images flipped at random (``tf.keras.layers.RandomFlip``)."""

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None, **kwargs):
        super().__init__(seed=seed, force_generator=True, **kwargs)
        self.mode = mode
        if mode not in (HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode "
                             f"argument {mode}")
        self.horizontal = mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL)
        self.vertical = mode in (VERTICAL, HORIZONTAL_AND_VERTICAL)
        self.seed = seed

    def call(self, inputs, training=True):
        inputs = convert_inputs(inputs, self.compute_dtype)

        def random_flipped_inputs():
            flipped = inputs
            if self.horizontal:
                flipped = image_geometry_ops.stateless_random_flip_left_right(
                    flipped, self._random_generator.make_seed_for_stateless_op())
            if self.vertical:
                flipped = image_geometry_ops.stateless_random_flip_up_down(
                    flipped, self._random_generator.make_seed_for_stateless_op())
            return flipped

        return control_flow_util.smart_cond(training, random_flipped_inputs, lambda: inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(mode=self.mode, seed=self.seed)
        return config


class RandomContrast(BaseRandomLayer):
    """Each call's contrast scaled by a random factor (``tf.keras.layers.RandomContrast``)."""

    def __init__(self, factor, seed=None, **kwargs):
        super().__init__(seed=seed, force_generator=True, **kwargs)
        self.factor = factor
        if isinstance(factor, (tuple, list)):
            self.lower, self.upper = factor[0], factor[1]
        else:
            self.lower = self.upper = factor
        if self.lower < 0.0 or self.upper < 0.0 or self.lower > 1.0:
            raise ValueError("`factor` argument cannot have negative values or values "
                             f"greater than 1.Received: factor={factor}")
        self.seed = seed

    def call(self, inputs, training=True):
        inputs = convert_inputs(inputs, self.compute_dtype)

        def random_contrasted_inputs():
            output = image_ops.stateless_random_contrast(
                inputs, 1.0 - self.lower, 1.0 + self.upper,
                self._random_generator.make_seed_for_stateless_op())
            return M.clip_by_value(output, 0, 255)

        return control_flow_util.smart_cond(training, random_contrasted_inputs,
                                            lambda: inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, seed=self.seed)
        return config
