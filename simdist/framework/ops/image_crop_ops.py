"""``tf.image``'s central crop, padding to a box, crop-or-pad, quarter turns and the
stateless random crop.

Glossary:
  central_crop   -- the centred window keeping ``central_fraction`` of the height and width:
                    it starts at ``int((size - size * fraction) / 2)`` (Python floats) and
                    leaves as many rows / columns out on the far side.
  pad_to_bounding_box -- zeros added: ``offset_height`` rows above, ``offset_width``
                    columns to the left, then below and right up to the target size.
  resize_with_crop_or_pad -- each of height and width centrally cropped when larger than
                    the target, zero-padded around when smaller (the odd row or column
                    goes to the far side: offsets are ``diff // 2``).
  rot90          -- ``k`` quarter turns counter-clockwise (``k`` taken mod 4): reverse the
                    width and swap height and width for one, reverse both for two, swap
                    then reverse the width for three.
  stateless_random_crop -- a ``size`` window at an offset per dimension of
                    ``stateless_random_uniform([rank], seed, maxval=int32 max, int32) %
                    (shape - size + 1)``; ``random_crop`` draws with the stateful
                    ``random_uniform`` (op seed and global seed).

Mirrors tensorflow/python/ops/image_ops_impl.py (central_crop, pad_to_bounding_box,
resize_image_with_crop_or_pad, rot90, _rot90_3D / _4D) and random_crop_ops.py
(random_crop, stateless_random_crop).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import control_flow_ops, pad_ops, random_ops, selection_ops
from simdist.framework.ops import math_ops as M
from simdist.framework.ops.image_geometry_ops import crop_to_bounding_box
from simdist.hardware import array_api


def _host_int(value) -> int:
    return int(array_api.to_host(execute.convert_to_tensor(value)._value))


def _at_least_3d(image):
    """TF's _AssertAtLeast3DImage / _CheckAtLeast3DImage on a static shape."""
    if image.ndim < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")
    if any(d == 0 for d in image.shape.as_list()[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {image.shape}")


def central_crop(image, central_fraction):
    """The centred part of ``image`` keeping ``central_fraction`` of each side.

    Raises:
      ValueError: TF's, for a fraction outside ``(0, 1]`` or an image not of rank 3 or 4.
    """
    image = execute.convert_to_tensor(image)
    fraction = central_fraction
    if hasattr(fraction, "numpy"):
        fraction = fraction.numpy()   # TF's tensor_util.constant_value
    if fraction <= 0.0 or fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if fraction == 1.0:
        return image
    _at_least_3d(image)
    rank = image.ndim
    if rank not in (3, 4):
        raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. "
                         f"Had rank = {rank}.")
    img_h, img_w = image.shape[-3], image.shape[-2]
    h_start = int((float(img_h) - float(img_h) * fraction) / 2)
    w_start = int((float(img_w) - float(img_w) * fraction) / 2)
    begin, size = [h_start, w_start, 0], [img_h - 2 * h_start, img_w - 2 * w_start, -1]
    if rank == 4:
        begin, size = [0] + begin, [-1] + size
    return selection_ops.slice(image, begin, size)


def _batched(image):
    """``image`` as a batch (a 3-D one expanded) and whether it was one."""
    if image.ndim == 3:
        return A.expand_dims(image, 0), False
    if image.ndim != 4:
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    return image, True


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """``image`` placed at the offsets in a zero image of the target size.

    Raises:
      ValueError: TF's, for an image not of rank 3 or 4, an empty one, a negative offset or
        a target smaller than image and offset.
    """
    image, is_batch = _batched(execute.convert_to_tensor(image))
    offset_height, offset_width, target_height, target_width = map(
        _host_int, (offset_height, offset_width, target_height, target_width))
    height, width = image.shape[1], image.shape[2]
    after_width = target_width - offset_width - width
    after_height = target_height - offset_height - height
    _at_least_3d(image)
    for ok, message in ((offset_height >= 0, "offset_height must be >= 0"),
                        (offset_width >= 0, "offset_width must be >= 0"),
                        (after_width >= 0, "width must be <= target - offset"),
                        (after_height >= 0, "height must be <= target - offset")):
        if not ok:
            raise ValueError(message)
    paddings = [[0, 0], [offset_height, after_height], [offset_width, after_width], [0, 0]]
    padded = pad_ops.pad(image, paddings)
    return padded if is_batch else A.squeeze(padded, axis=[0])


def resize_with_crop_or_pad(image, target_height, target_width):
    """``image`` centrally cropped and / or zero-padded to the target size.

    Raises:
      ValueError: TF's, for an image not of rank 3 or 4, an empty one or a target size that
        is not positive.
    """
    image, is_batch = _batched(execute.convert_to_tensor(image))
    target_height, target_width = _host_int(target_height), _host_int(target_width)
    _at_least_3d(image)
    if target_width <= 0:
        raise ValueError("target_width must be > 0.")
    if target_height <= 0:
        raise ValueError("target_height must be > 0.")
    height, width = image.shape[1], image.shape[2]
    width_diff, height_diff = target_width - width, target_height - height
    cropped = crop_to_bounding_box(image, max(-height_diff // 2, 0), max(-width_diff // 2, 0),
                                   min(target_height, height), min(target_width, width))
    resized = pad_to_bounding_box(cropped, max(height_diff // 2, 0), max(width_diff // 2, 0),
                                  target_height, target_width)
    return resized if is_batch else A.squeeze(resized, axis=[0])


def rot90(image, k=1, name=None):
    """``image`` turned ``k`` quarter turns counter-clockwise (see the glossary).

    Raises:
      ValueError: TF's, for an image not of rank 3 or 4 or a ``k`` that is not a scalar.
    """
    image = execute.convert_to_tensor(image)
    if image.ndim < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")
    k = execute.convert_to_tensor(k, dtypes.int32)
    if k.ndim != 0:
        raise ValueError(f"Shape {k.shape} must have rank 0")
    if image.ndim not in (3, 4):
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    turns = _host_int(k) % 4
    h = image.ndim - 3   # the height axis; the width's is h + 1
    swap = list(range(image.ndim))
    swap[h], swap[h + 1] = h + 1, h
    if turns == 1:
        return A.transpose(A.reverse(image, [h + 1]), swap)
    if turns == 2:
        return A.reverse(image, [h, h + 1])
    if turns == 3:
        return A.reverse(A.transpose(image, swap), [h + 1])
    return A.identity(image)


def stateless_random_crop(value, size, seed, name=None):
    """A ``size`` window of ``value`` at an offset drawn by ``seed`` (see the glossary).

    Raises:
      InvalidArgumentError: TF's Assert, for a ``size`` larger than ``value`` somewhere.
    """
    return _random_crop(value, size, random_ops.uniform_by(seed, stateless=True))


def random_crop(value, size, seed=None, name=None):
    """A ``size`` window of ``value`` at an offset drawn by the stateful ``random_uniform``
    (op ``seed`` and the global seed, as TF's ``tf.image.random_crop``).

    Raises:
      InvalidArgumentError: TF's Assert, for a ``size`` larger than ``value`` somewhere.
    """
    return _random_crop(value, size, random_ops.uniform_by(seed, stateless=False))


def _random_crop(value, size, draw):
    value = A.convert_to_tensor(value)
    size = A.convert_to_tensor(size, dtypes.int32)   # a Const while a function traces
    shape = A.shape(value)
    control_flow_ops.Assert(M.reduce_all(M.greater_equal(shape, size)),
                            ["Need value.shape >= size, got ", shape, size], summarize=1000)
    limit = M.add(M.subtract(shape, size), 1)
    offset = M.floormod(draw(A.shape(shape), maxval=np.iinfo(np.int32).max,
                             dtype=dtypes.int32), limit)
    return selection_ops.slice(value, offset, size)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording); the
# stateful random ones are not nodes of their own: their RandomUniform op is (its seeds the
# trace's), as TF's graph holds it.
op_recording.record_here(__name__, exclude=("random_crop",))
