"""``UpSampling2D``: each image's rows and columns repeated.

Glossary:
  size          -- (rows, columns) factors; each pixel becomes a size[0] x size[1] block.
  interpolation -- how new pixels are made: Keras resizes with tf.image.resize; simdist has
                   "nearest" (which for whole factors copies each pixel into its block, as
                   ResizeNearestNeighbor with half-pixel centres does) and "bilinear"
                   (tf.image.resize's ResizeBilinear, channels moved last and back for
                   channels_first, as Keras's backend.resize_images); the other methods
                   Keras accepts raise NotImplementedError here, unknown ones as in Keras.

Mirrors tf_keras/src/layers/reshaping/up_sampling2d.py and backend.resize_images.
"""

from __future__ import annotations

from simdist.framework.ops import array_ops as A
from simdist.framework.ops import image_resize_ops
from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.utils import conv_utils

# Keras's image_utils._TF_INTERPOLATION_METHODS, by name.
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                   "gaussian", "mitchellcubic")


def _interpolation(interpolation):
    interpolation = interpolation.lower()
    if interpolation not in _INTERPOLATIONS:
        keys = "dict_keys([" + ", ".join(repr(k) for k in _INTERPOLATIONS) + "])"
        raise NotImplementedError(f"Value not recognized for `interpolation`: {interpolation}."
                                  f" Supported values are: {keys}")
    if interpolation not in ("nearest", "bilinear"):
        raise NotImplementedError(f'simdist resizes images only with "nearest" or "bilinear" '
                                  f'interpolation (got "{interpolation}").')
    return interpolation


class UpSampling2D(Layer):
    """Repeat each image's rows ``size[0]`` and columns ``size[1]`` times
    (``tf.keras.layers.UpSampling2D``)."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.size = conv_utils.normalize_tuple(size, 2, "size")
        self.interpolation = _interpolation(interpolation)
        self.input_spec = InputSpec(ndim=4)

    def _spatial_axes(self):
        return (2, 3) if self.data_format == "channels_first" else (1, 2)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        for axis, factor in zip(self._spatial_axes(), self.size):
            shape[axis] = None if shape[axis] is None else shape[axis] * factor
        return tuple(shape)

    def _symbolic_output_shapes(self, inputs, args, kwargs):
        """A functional call's output as TF's graph infers it: resize_images takes the new
        size from tf.shape when a spatial size is unknown, so both are then unknown."""
        shape = self.compute_output_shape(tuple(inputs.shape.as_list()))
        rows, cols = self._spatial_axes()
        if shape[rows] is None or shape[cols] is None:
            shape = list(shape)
            shape[rows] = shape[cols] = None
        return tuple(shape)

    def call(self, inputs):
        if self.interpolation == "bilinear":
            return self._bilinear(inputs)
        # Nearest-neighbour resizing by whole factors: each pixel copied into its block,
        # by a new axis after each spatial one, tiled, and merged back.
        shape = A.shape(inputs)
        rows, cols = self._spatial_axes()
        x = A.expand_dims(A.expand_dims(inputs, cols + 1), rows + 1)
        multiples = [1] * 6
        multiples[rows + 1], multiples[cols + 2] = self.size
        x = A.tile(x, multiples)
        out = [shape[i] for i in range(4)]
        out[rows] = shape[rows] * self.size[0]
        out[cols] = shape[cols] * self.size[1]
        return A.reshape(x, A.stack(out))

    def get_config(self):
        config = {"size": self.size, "data_format": self.data_format,
                  "interpolation": self.interpolation}
        return {**super().get_config(), **config}

    def _bilinear(self, inputs):
        """backend.resize_images with "bilinear": tf.image.resize to the spatial size times
        ``size``, on channels-last images."""
        first = self.data_format == "channels_first"
        x = A.transpose(inputs, [0, 2, 3, 1]) if first else inputs
        shape = A.shape(x)
        new_size = A.stack([shape[1] * self.size[0], shape[2] * self.size[1]])
        out = image_resize_ops.resize(x, new_size, method="bilinear")
        return A.transpose(out, [0, 3, 1, 2]) if first else out
