"""Keras's image helpers: interpolation names and ``smart_resize``.

Glossary:
  interpolation -- Keras's names for tf.image.resize's methods ('bilinear', 'nearest',
                   'bicubic', 'area', 'lanczos3', 'lanczos5', 'gaussian', 'mitchellcubic';
                   simdist resizes with the first two).
  smart_resize  -- the largest centred crop of the target's aspect ratio (sizes computed
                   in float32 and truncated, as Keras), resized to the target.

Mirrors tf_keras/src/utils/image_utils.py (smart_resize, get_interpolation).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute, func_graph
from simdist.framework.ops import image_resize_ops, selection_ops

_TF_INTERPOLATION_METHODS = {m: m for m in (
    "bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
    "mitchellcubic")}


def get_interpolation(interpolation):
    """The tf.image.resize method of a Keras interpolation name.

    Raises:
      NotImplementedError: an unknown name (Keras's message).
    """
    interpolation = interpolation.lower()
    if interpolation not in _TF_INTERPOLATION_METHODS:
        raise NotImplementedError(
            f"Value not recognized for `interpolation`: {interpolation}. Supported values "
            f"are: {_TF_INTERPOLATION_METHODS.keys()}")
    return _TF_INTERPOLATION_METHODS[interpolation]


def smart_resize(x, size, interpolation="bilinear"):
    """``x`` (an image or a batch) resized to ``size`` without distorting it.

    Raises:
      ValueError: Keras's, for a ``size`` that is not 2 ints or an image of rank not 3 or 4.
    """
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    img = execute.convert_to_tensor(x)
    if img.ndim < 3 or img.ndim > 4:
        raise ValueError("Expected an image array with shape `(height, width, channels)`, or "
                         "`(batch_size, height, width, channels)`, but got input with "
                         f"incorrect rank, of shape {img.shape}.")
    img = _aspect_crop(img, *size)
    return image_resize_ops.resize(img, size, interpolation)


@func_graph.recorded(name="Slice")
def _aspect_crop(img, target_height, target_width):
    """The largest centred crop of the target's aspect ratio (a graph node: an image's size
    may be known at execution only)."""
    height, width = img.shape[-3], img.shape[-2]
    f32 = np.float32
    crop_height = min(height, int(f32(width * target_height) / f32(target_width)))
    crop_width = min(width, int(f32(height * target_width) / f32(target_height)))
    hstart = int(f32(height - crop_height) / f32(2))
    wstart = int(f32(width - crop_width) / f32(2))
    begin, box = [hstart, wstart, 0], [crop_height, crop_width, -1]
    if img.ndim == 4:
        begin, box = [0] + begin, [-1] + box
    return selection_ops.slice(img, begin, box)
