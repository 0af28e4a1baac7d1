"""Keras's augmentation layers that move pixels: RandomTranslation, RandomRotation, RandomZoom.

Glossary:
  transform     -- ``ImageProjectiveTransformV3`` of a batch with one 8-number row per image
                   (image_projective_ops), the output the input's size; ``fill_mode``
                   'reflect' / 'wrap' / 'constant' / 'nearest' and ``interpolation``
                   'bilinear' / 'nearest' (Keras's names, upper-cased for the op).
  matrices      -- built with float32 tensor ops in Keras's order: a translation by ``(dx,
                   dy)`` reads ``(x - dx, y - dy)``; a rotation by ``angle`` turns about the
                   image's centre; a zoom by ``(zx, zy)`` scales about it (a factor above 1
                   reads a larger area: zooms out).
  factors       -- a number ``f`` means ``[-f, f]``, a pair ``(lower, upper)``; rotation
                   factors are fractions of a full turn, translations of the height/width,
                   zooms are ``1 + factor``. One uniform draw per image from the layer's
                   generator (height first, then width).
  unbatched     -- a 3-D image is transformed as a batch of one.

Mirrors tf_keras/src/layers/preprocessing/image_preprocessing.py (RandomTranslation,
RandomRotation, RandomZoom, transform, get_translation_matrix, get_rotation_matrix,
get_zoom_matrix, check_fill_mode_and_interpolation).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import image_projective_ops, trig_ops
from simdist.framework.ops import math_ops as M
from simdist.keras.layers.preprocessing.image_preprocessing import H_AXIS, W_AXIS, convert_inputs
from simdist.keras.layers.preprocessing.random_layer import BaseRandomLayer
from simdist.keras.utils import control_flow_util


def check_fill_mode_and_interpolation(fill_mode, interpolation):
    """Keras's NotImplementedError for a fill mode or interpolation it does not know."""
    if fill_mode not in {"reflect", "wrap", "constant", "nearest"}:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Only `reflect`, `wrap`, "
                                  "`constant` and `nearest` are supported.")
    if interpolation not in {"nearest", "bilinear"}:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Only `nearest` "
                                  "and `bilinear` are supported.")


def transform(images, transforms, fill_mode="reflect", fill_value=0.0,
              interpolation="bilinear", output_shape=None):
    """``images`` (a 4-D batch) through the projective ``transforms`` (see the glossary)."""
    if output_shape is None:
        output_shape = list(images.shape[1:3])
    return image_projective_ops.image_projective_transform_v3(
        images, transforms, output_shape, fill_value, interpolation.upper(),
        fill_mode.upper())


def _column(value):
    return A.reshape(value, [-1, 1])


def _zeros(column, width=1):
    """``(rows, width)`` float32 zeros, as many rows as ``column`` (a batch that may be
    unknown while tracing)."""
    return A.zeros_like(A.concat([column] * width, axis=1) if width > 1 else column,
                        dtypes.float32)


def get_translation_matrix(translations):
    """Rows that translate each image by ``translations[i] = (dx, dy)``."""
    dx = translations[:, 0:1]
    ones, zeros = A.ones_like(dx), _zeros(dx)
    return A.concat([ones, zeros, M.negative(dx), zeros, ones,
                     M.negative(translations[:, 1:2]), _zeros(dx, 2)], axis=1)


def get_rotation_matrix(angles, image_height, image_width):
    """Rows that rotate each image by ``angles[i]`` radians about its centre."""
    cos, sin = trig_ops.cos(angles), trig_ops.sin(angles)
    w1, h1 = M.subtract(image_width, 1), M.subtract(image_height, 1)
    x_offset = M.divide(M.subtract(w1, M.subtract(M.multiply(cos, w1), M.multiply(sin, h1))),
                        2.0)
    y_offset = M.divide(M.subtract(h1, M.add(M.multiply(sin, w1), M.multiply(cos, h1))), 2.0)
    return A.concat([_column(cos), _column(M.negative(sin)), _column(x_offset), _column(sin),
                     _column(cos), _column(y_offset), _zeros(_column(cos), 2)], axis=1)


def get_zoom_matrix(zooms, image_height, image_width):
    """Rows that scale each image by ``zooms[i] = (zx, zy)`` about its centre."""
    zx, zy = zooms[:, 0:1], zooms[:, 1:2]
    x_offset = M.multiply(M.divide(M.subtract(image_width, 1.0), 2.0), M.subtract(1.0, zx))
    y_offset = M.multiply(M.divide(M.subtract(image_height, 1.0), 2.0), M.subtract(1.0, zy))
    return A.concat([zx, _zeros(zx), x_offset, _zeros(zx), zy, y_offset, _zeros(zx, 2)],
                    axis=1)


def _draw_shape(batch_size, *rest):
    """``[batch_size, *rest]``; a tensor when the batch is known only at execution."""
    if isinstance(batch_size, int):
        return [batch_size, *rest]
    return A.stack([batch_size, *rest]) if rest else A.reshape(batch_size, [1])


def _bounds(factor):
    """``(lower, upper)`` of a factor: a pair as given, a number ``f`` as ``(-f, f)``."""
    if isinstance(factor, (tuple, list)):
        return factor[0], factor[1]
    return -factor, factor


class _RandomTransform(BaseRandomLayer):
    """What the three layers share: fill and interpolation, the batch, the config."""

    _CONFIG = ()

    def __init__(self, fill_mode, interpolation, seed, fill_value, **kwargs):
        super().__init__(seed=seed, force_generator=True, **kwargs)

    def _checked(self, fill_mode, interpolation, fill_value, seed):
        check_fill_mode_and_interpolation(fill_mode, interpolation)
        self.fill_mode, self.fill_value = fill_mode, fill_value
        self.interpolation, self.seed = interpolation, seed

    def call(self, inputs, training=True):
        inputs = convert_inputs(inputs, self.compute_dtype)
        return control_flow_util.smart_cond(training, lambda: self._transformed(inputs),
                                            lambda: inputs)

    def _transformed(self, inputs):
        unbatched = inputs.ndim == 3
        batch = A.expand_dims(inputs, 0) if unbatched else inputs
        img_hd = A.cast(batch.shape[H_AXIS], dtypes.float32)
        img_wd = A.cast(batch.shape[W_AXIS], dtypes.float32)
        size = batch.shape[0]
        matrix = self._matrix(A.shape(batch)[0] if size is None else size, img_hd, img_wd)
        output = transform(batch, matrix, fill_mode=self.fill_mode, fill_value=self.fill_value,
                           interpolation=self.interpolation)
        return A.squeeze(output, [0]) if unbatched else output

    def _matrix(self, batch_size, img_hd, img_wd):
        raise NotImplementedError

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({k: getattr(self, k) for k in self._CONFIG})
        return config


class RandomTranslation(_RandomTransform):
    """Images shifted at random (``tf.keras.layers.RandomTranslation``)."""

    _CONFIG = ("height_factor", "width_factor", "fill_mode", "fill_value", "interpolation",
               "seed")

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _bounds(height_factor)
        if self.height_upper < self.height_lower:
            raise ValueError("`height_factor` cannot have upper bound less than lower bound, "
                             f"got {height_factor}")
        if abs(self.height_lower) > 1.0 or abs(self.height_upper) > 1.0:
            raise ValueError("`height_factor` argument must have values between [-1, 1]. "
                             f"Received: height_factor={height_factor}")
        self.width_lower, self.width_upper = _bounds(width_factor)
        if self.width_upper < self.width_lower:
            raise ValueError("`width_factor` cannot have upper bound less than lower bound, "
                             f"got {width_factor}")
        if abs(self.width_lower) > 1.0 or abs(self.width_upper) > 1.0:
            raise ValueError(f"`width_factor` must have values between [-1, 1], got "
                             f"{width_factor}")
        self._checked(fill_mode, interpolation, fill_value, seed)

    def _matrix(self, batch_size, img_hd, img_wd):
        draw = self._random_generator.random_uniform
        dy = M.multiply(draw(_draw_shape(batch_size, 1), self.height_lower, self.height_upper,
                             dtypes.float32), img_hd)
        dx = M.multiply(draw(_draw_shape(batch_size, 1), self.width_lower, self.width_upper,
                             dtypes.float32), img_wd)
        return get_translation_matrix(A.concat([dx, dy], axis=1))


class RandomRotation(_RandomTransform):
    """Images rotated at random (``tf.keras.layers.RandomRotation``)."""

    _CONFIG = ("factor", "fill_mode", "fill_value", "interpolation", "seed")

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.factor = factor
        self.lower, self.upper = _bounds(factor)
        if self.upper < self.lower:
            raise ValueError("`factor` argument cannot have a negative value. Received: "
                             f"factor={factor}")
        self._checked(fill_mode, interpolation, fill_value, seed)

    def _matrix(self, batch_size, img_hd, img_wd):
        angles = self._random_generator.random_uniform(
            _draw_shape(batch_size), self.lower * 2.0 * np.pi, self.upper * 2.0 * np.pi)
        return get_rotation_matrix(angles, img_hd, img_wd)


class RandomZoom(_RandomTransform):
    """Images zoomed in or out at random (``tf.keras.layers.RandomZoom``)."""

    _CONFIG = ("height_factor", "width_factor", "fill_mode", "fill_value", "interpolation",
               "seed")

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _bounds(height_factor)
        if abs(self.height_lower) > 1.0 or abs(self.height_upper) > 1.0:
            raise ValueError("`height_factor` argument must have values between [-1, 1]. "
                             f"Received: height_factor={height_factor}")
        if width_factor is not None:
            self.width_lower, self.width_upper = _bounds(width_factor)
            if self.width_lower < -1.0 or self.width_upper < -1.0:
                raise ValueError("`width_factor` argument must have values larger than -1. "
                                 f"Received: width_factor={width_factor}")
        self._checked(fill_mode, interpolation, fill_value, seed)

    def _matrix(self, batch_size, img_hd, img_wd):
        draw = self._random_generator.random_uniform
        zy = draw(_draw_shape(batch_size, 1), 1.0 + self.height_lower, 1.0 + self.height_upper)
        zx = zy if self.width_factor is None else \
            draw(_draw_shape(batch_size, 1), 1.0 + self.width_lower, 1.0 + self.width_upper)
        return get_zoom_matrix(A.concat([zx, zy], axis=1), img_hd, img_wd)
