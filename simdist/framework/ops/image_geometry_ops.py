"""``tf.image``'s crops and flips, and the stateless random flips Keras's RandomFlip draws.

Glossary:
  crop_to_bounding_box -- the ``[offset_height : offset_height + target_height,
                   offset_width : offset_width + target_width]`` window of each image.
  flip          -- ``flip_left_right`` reverses the width axis, ``flip_up_down`` the height.
  random flip   -- one ``stateless_random_uniform`` draw per image (``random_uniform``, op
                   seed and global seed, for the stateful ones): a 3-D image is
                   flipped where its draw is below 0.5; a batch is
                   ``flips * flipped + (1 - flips) * images`` with ``flips = round(draw)``
                   (so where a draw is above 0.5, and a NaN or an infinity of an unflipped
                   image's mirror spreads, as TF's arithmetic).

Mirrors tensorflow/python/ops/image_ops_impl.py (crop_to_bounding_box, flip_left_right,
flip_up_down, _random_flip, (stateless_)random_flip_left_right / _up_down).
"""

from __future__ import annotations

from simdist.framework import execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import cond, random_ops, selection_ops
from simdist.framework.ops import math_ops as M
from simdist.hardware import array_api


def _image(image, what="image"):
    image = execute.convert_to_tensor(image)
    if image.ndim not in (3, 4):
        raise ValueError(f"'{what}' (shape {image.shape}) must have either 3 or 4 "
                         "dimensions.")
    return image


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The window of ``image`` at the offsets, of the target size (``tf.image``'s).

    Raises:
      ValueError: TF's, for an image not of rank 3 or 4, a negative offset, a target size
        that is not positive or a window past the image.
    """
    image = _image(image)
    height, width = image.shape[-3], image.shape[-2]
    offset_height, offset_width, target_height, target_width = (
        int(array_api.to_host(execute.convert_to_tensor(v)._value)) for v in
        (offset_height, offset_width, target_height, target_width))
    for ok, message in ((offset_width >= 0, "offset_width must be >= 0."),
                        (offset_height >= 0, "offset_height must be >= 0."),
                        (target_width > 0, "target_width must be > 0."),
                        (target_height > 0, "target_height must be > 0."),
                        (width >= target_width + offset_width,
                         "width must be >= target + offset."),
                        (height >= target_height + offset_height,
                         "height must be >= target + offset.")):
        if not ok:
            raise ValueError(message)
    begin = [offset_height, offset_width, 0]
    size = [target_height, target_width, -1]
    if image.ndim == 4:
        begin, size = [0] + begin, [-1] + size
    return selection_ops.slice(image, begin, size)


def flip_left_right(image):
    """``image`` mirrored left to right (its width axis reversed)."""
    image = _image(image)
    return A.reverse(image, [image.ndim - 2])


def flip_up_down(image):
    """``image`` mirrored top to bottom (its height axis reversed)."""
    image = _image(image)
    return A.reverse(image, [image.ndim - 3])


def _random_flip(image, flip_index, draw):
    """TF's _random_flip, ``draw`` (random_ops.uniform_by) giving the uniform numbers in
    [0, 1) (see the glossary)."""
    image = _image(image)
    if image.ndim == 3:
        return cond.cond(M.less(draw([], 0, 1.0), 0.5), lambda: A.reverse(image, [flip_index]),
                         lambda: A.identity(image))
    batch = image.shape[0]
    draws = draw([batch], 0, 1.0)
    flips = A.cast(M.round(A.reshape(draws, [batch, 1, 1, 1])), image.dtype)
    flipped = A.reverse(image, [flip_index + 1])
    return M.add(M.multiply(flips, flipped), M.multiply(M.subtract(1, flips), image))


def stateless_random_flip_left_right(image, seed):
    """Each image mirrored left to right or not, by ``seed`` (see the glossary)."""
    return _random_flip(image, 1, random_ops.uniform_by(seed, stateless=True))


def stateless_random_flip_up_down(image, seed):
    """Each image mirrored top to bottom or not, by ``seed`` (see the glossary)."""
    return _random_flip(image, 0, random_ops.uniform_by(seed, stateless=True))


def random_flip_left_right(image, seed=None):
    """Each image mirrored left to right or not, by the stateful ``random_uniform``."""
    return _random_flip(image, 1, random_ops.uniform_by(seed, stateless=False))


def random_flip_up_down(image, seed=None):
    """Each image mirrored top to bottom or not, by the stateful ``random_uniform``."""
    return _random_flip(image, 0, random_ops.uniform_by(seed, stateless=False))


# The public ops, recorded as graph nodes while a tf.function traces (op_recording); the
# stateful random flips are not nodes of their own: their RandomUniform op is (its seeds
# the trace's), as TF's graph holds it.
op_recording.record_here(__name__, exclude=("random_flip_left_right", "random_flip_up_down"))
