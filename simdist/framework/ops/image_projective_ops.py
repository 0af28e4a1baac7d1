"""ImageProjectiveTransformV3: images resampled through a projective transform per image.

Glossary:
  transforms    -- ``[N or 1, 8]`` float32 rows ``[a0, a1, a2, b0, b1, b2, c0, c1]``: the
                   output point ``(x, y)`` reads the input at ``((a0 x + a1 y + a2) / k,
                   (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1`` (a zero ``k`` gives the
                   fill value); one row serves the whole batch.
  fill_mode     -- where a point outside the image reads from: REFLECT (``d c b a | a b c d
                   | d c b a``), WRAP (``a b c d | a b c d``), NEAREST (the edge pixel), or
                   CONSTANT (the fill value); the first three clamp into the image.
  interpolation -- NEAREST (the input pixel at the rounded point: half away from zero, as
                   ``std::round``) or BILINEAR (the four neighbours, a neighbour outside the
                   image read as the fill value), in float32 with the kernel's order of
                   operations, then cast to the images' dtype.

Mirrors the ProjectiveGenerator and MapCoordinate functors of
tensorflow/core/kernels/image/image_ops.h and ImageProjectiveTransformV3's checks
(image_ops.cc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, op_recording
from simdist.hardware import array_api

_F = np.float32
_MODES = ("REFLECT", "WRAP", "CONSTANT", "NEAREST")


def image_projective_transform_v3(images, transforms, output_shape, fill_value,
                                  interpolation, fill_mode="CONSTANT", name=None):
    """``tf.raw_ops.ImageProjectiveTransformV3`` (see the glossary).

    Raises:
      InvalidArgumentError: TF's, for images not 4-D, transforms not ``[N or 1, 8]``, an
        output shape that is not 2 positive ints.
      ValueError: an interpolation or fill mode TF's op does not know.
    """
    images = execute.convert_to_tensor(images)
    transforms = execute.convert_to_tensor(transforms, dtypes.float32)
    output_shape = execute.convert_to_tensor(output_shape, dtypes.int32)
    fill_value = execute.convert_to_tensor(fill_value, dtypes.float32)
    if interpolation not in ("NEAREST", "BILINEAR"):
        raise ValueError(f"Invalid interpolation {interpolation}")
    if fill_mode not in _MODES:
        raise ValueError(f"Invalid fill_mode {fill_mode}")
    op = "[Op:ImageProjectiveTransformV3]"
    if images.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"Input images must have rank 4 {op}")
    t_shape = tuple(transforms.shape)
    if len(t_shape) != 2 or t_shape[1] != 8 or t_shape[0] not in (1, images.shape[0]):
        raise errors.InvalidArgumentError(
            None, None, "Input transform should be num_images x 8 or 1 x 8 " + op)
    if tuple(output_shape.shape) != (2,):
        raise errors.InvalidArgumentError(
            None, None, "output_shape must be a 1-D tensor of 2 elements " + op)
    return _transform_kernel(images, transforms, output_shape, fill_value, interpolation,
                             fill_mode)


def _map_reflect(c, size):
    """MapCoordinate<FILL_REFLECT>: mirrored about the edges, then clamped."""
    if size <= 1:
        return np.zeros_like(c)
    sz2 = 2 * size
    c = c.copy()
    neg, big = c < 0, c > size - 1   # one branch each: a mirrored point is only clamped
    n = c[neg]
    small = n < sz2   # the kernel's own test (always true for a negative coordinate)
    n[small] = (sz2 * np.trunc(-n[small] / _F(sz2)).astype(np.int64)).astype(_F) + n[small]
    n = np.where(n < -size, n + _F(sz2), -n - _F(1))
    c[neg] = n
    p = c[big]
    p = p - (sz2 * np.trunc(p / _F(sz2)).astype(np.int64)).astype(_F)
    p = np.where(p >= size, _F(sz2) - p - _F(1), p)
    c[big] = p
    return np.clip(c, _F(0), _F(size - 1))


def _map_wrap(c, size):
    """MapCoordinate<FILL_WRAP>: the image repeated, then clamped."""
    if size <= 1:
        return np.zeros_like(c)
    sz = size - 1
    c = c.copy()
    neg, big = c < 0, c > size - 1
    c[neg] = c[neg] + (size * (np.trunc(-c[neg] / _F(sz)).astype(np.int64) + 1)).astype(_F)
    c[big] = c[big] - (size * np.trunc(c[big] / _F(sz)).astype(np.int64)).astype(_F)
    return np.clip(c, _F(0), _F(size - 1))


_MAPS = {"REFLECT": _map_reflect, "WRAP": _map_wrap,
         "NEAREST": lambda c, size: np.clip(c, _F(0), _F(size - 1)),
         "CONSTANT": lambda c, size: c}


def _read(image, y, x, fill):
    """read_with_fill_value: ``image[y, x]`` (channels last), ``fill`` outside the image."""
    h, w = image.shape[:2]
    inside = (y >= 0) & (y < h) & (x >= 0) & (x < w)
    yi = np.where(inside, y, 0).astype(np.int64)
    xi = np.where(inside, x, 0).astype(np.int64)
    return np.where(inside[..., None], image[yi, xi].astype(_F), fill)


def _sample(image, y, x, interpolation, fill):
    """One image's values at the float points ``(y, x)``, as ProjectiveGenerator."""
    if interpolation == "NEAREST":
        ry = np.sign(y) * np.floor(np.abs(y).astype(np.float64) + 0.5)   # std::round
        rx = np.sign(x) * np.floor(np.abs(x).astype(np.float64) + 0.5)
        return _read(image, ry, rx, fill)
    y_floor, x_floor = np.floor(y), np.floor(x)
    y_ceil, x_ceil = y_floor + _F(1), x_floor + _F(1)
    wx0, wx1 = (x_ceil - x)[..., None], (x - x_floor)[..., None]
    v_floor = wx0 * _read(image, y_floor, x_floor, fill) + \
        wx1 * _read(image, y_floor, x_ceil, fill)
    v_ceil = wx0 * _read(image, y_ceil, x_floor, fill) + wx1 * _read(image, y_ceil, x_ceil, fill)
    return (y_ceil - y)[..., None] * v_floor + (y - y_floor)[..., None] * v_ceil


def _transform_kernel(images, transforms, output_shape, fill_value, interpolation, fill_mode):
    """The kernel (host NumPy, as TF's CPU kernel), image by image."""
    x = array_api.to_host(images._value)
    t = array_api.to_host(transforms._value).astype(_F)
    out_h, out_w = (int(v) for v in array_api.to_host(output_shape._value))
    if out_h <= 0 or out_w <= 0:
        raise errors.InvalidArgumentError(
            None, None, "output dimensions must be positive [Op:ImageProjectiveTransformV3]")
    dt = x.dtype
    fill = _F(np.asarray(array_api.to_host(fill_value._value)).astype(dt).astype(_F))
    oy, ox = np.meshgrid(np.arange(out_h, dtype=_F), np.arange(out_w, dtype=_F),
                         indexing="ij")
    out = np.empty((x.shape[0], out_h, out_w, x.shape[3]), _F)
    for b in range(x.shape[0]):
        a0, a1, a2, b0, b1, b2, c0, c1 = t[0 if t.shape[0] == 1 else b]
        k = c0 * ox + c1 * oy + _F(1)
        with np.errstate(divide="ignore", invalid="ignore"):
            in_x = (a0 * ox + a1 * oy + a2) / k
            in_y = (b0 * ox + b1 * oy + b2) / k
        px = _MAPS[fill_mode](in_x, x.shape[2])
        py = _MAPS[fill_mode](in_y, x.shape[1])
        with np.errstate(invalid="ignore"):
            values = _sample(x[b], py, px, interpolation, fill)
        out[b] = np.where((k == 0)[..., None], fill, values)
    if dt != _F:
        with np.errstate(invalid="ignore"):
            out = out.astype(dt)
    return execute.execute("ImageProjectiveTransformV3", [images, transforms, output_shape,
                                                          fill_value], out)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
