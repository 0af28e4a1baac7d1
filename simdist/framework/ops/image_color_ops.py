"""``tf.image``'s colour adjustments: grey, saturation, brightness (and their stateless
random forms).

Glossary:
  rgb_to_grayscale  -- the image as float32 (``convert_image_dtype``), ``tensordot`` with the
                       weights ``[0.2989, 0.5870, 0.1140]`` over the channels, a channel axis
                       of 1 added, converted back to the image's dtype.
  adjust_brightness -- ``image + delta`` in float (float16 / float32 images as they are,
                       others converted to float32 and back, saturating).
  adjust_saturation -- TF's AdjustSaturation CPU kernel, per pixel in float32: RGB to HSV,
                       ``s = min(1, max(0, s * scale))``, HSV back to RGB (the hue's
                       ``+ 2/6`` and ``+ 4/6`` added in double, as the C++ writes them).
  stateless_random_* -- the adjustment by one ``stateless_random_uniform([], seed, ...)``
                       draw: brightness's delta in ``[-max_delta, max_delta)``, saturation's
                       factor in ``[lower, upper)``; ``random_*`` draw it with the stateful
                       ``random_uniform`` (op seed and global seed).

Mirrors tensorflow/python/ops/image_ops_impl.py (rgb_to_grayscale, adjust_brightness,
adjust_saturation, (stateless_)random_brightness, (stateless_)random_saturation) and the
AdjustSaturation kernel (tensorflow/core/kernels/image/adjust_saturation_op.cc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import random_ops, tensordot_ops
from simdist.framework.ops.image_ops import (
    _random_factor,
    convert_image_dtype,
    no_half_kernel,
)
from simdist.hardware import array_api

# No gradient rule is registered for AdjustSaturation: TF's registry has none either.

_F32 = np.float32


def rgb_to_grayscale(images, name=None):
    """The luma of RGB ``images`` (see the glossary), a channel axis of 1 kept."""
    images = A.convert_to_tensor(images)
    orig_dtype = images.dtype
    flt_image = convert_image_dtype(images, dtypes.float32)
    gray_float = tensordot_ops.tensordot(flt_image, [0.2989, 0.5870, 0.1140], [-1, -1])
    return convert_image_dtype(A.expand_dims(gray_float, -1), orig_dtype)


def _as_float(image):
    """TF's float view of an image: float16 / float32 kept, others converted to float32."""
    if image.dtype in (dtypes.float16, dtypes.float32):
        return image
    return convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image, delta):
    """``image + delta`` in float, converted back to the image's dtype (saturating)."""
    image = A.convert_to_tensor(image)
    flt_image = _as_float(image)
    adjusted = M.add(flt_image, A.cast(delta, flt_image.dtype))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


def stateless_random_brightness(image, max_delta, seed):
    """``adjust_brightness`` by a delta drawn in ``[-max_delta, max_delta)`` by ``seed``.

    Raises:
      ValueError: TF's, for a negative ``max_delta``.
    """
    return adjust_brightness(image, _random_delta(max_delta, seed, stateless=True))


def random_brightness(image, max_delta, seed=None):
    """``adjust_brightness`` by a delta drawn in ``[-max_delta, max_delta)`` by the stateful
    ``random_uniform`` (op ``seed`` and the global seed).

    Raises:
      ValueError: TF's, for a negative ``max_delta``.
    """
    return adjust_brightness(image, _random_delta(max_delta, seed, stateless=False))


def _random_delta(max_delta, seed, stateless):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return random_ops.uniform_by(seed, stateless)([], -max_delta, max_delta)


def adjust_saturation(image, saturation_factor, name=None):
    """``image`` with its saturation scaled by ``saturation_factor`` (see the glossary).

    Raises:
      InvalidArgumentError: an image of fewer than 3 dimensions or not of 3 channels, a
        factor that is not a scalar.
      NotFoundError: float16 images on a CPU (TF's kernels take them on GPUs only).
    """
    image = A.convert_to_tensor(image)
    adjusted = _adjust_saturation_op(_as_float(image),
                                     A.convert_to_tensor(saturation_factor, dtypes.float32))
    return convert_image_dtype(adjusted, image.dtype)


def stateless_random_saturation(image, lower, upper, seed=None):
    """``adjust_saturation`` by a factor drawn in ``[lower, upper)`` by ``seed``.

    Raises:
      ValueError: TF's, for ``upper <= lower`` or a negative ``lower``.
    """
    return adjust_saturation(image, _random_factor(lower, upper, seed))


def random_saturation(image, lower, upper, seed=None):
    """``adjust_saturation`` by a factor drawn in ``[lower, upper)`` by the stateful
    ``random_uniform``.

    Raises:
      ValueError: TF's, for ``upper <= lower`` or a negative ``lower``.
    """
    return adjust_saturation(image, _random_factor(lower, upper, seed, stateless=False))


def _shape_text(t):
    return "[" + ",".join(map(str, t.shape.as_list())) + "]"


def _adjust_saturation_op(images, scale):
    """The AdjustSaturation op: its argument checks, then the CPU kernel's float32 loop."""
    if images.ndim < 3:
        raise errors.InvalidArgumentError(
            None, None, f"input must be at least 3-D, got shape{_shape_text(images)} "
                        "[Op:AdjustSaturation]")
    if scale.ndim != 0:
        raise errors.InvalidArgumentError(
            None, None, f"scale must be scalar: {_shape_text(scale)} [Op:AdjustSaturation]")
    if images.shape[-1] != 3:
        raise errors.InvalidArgumentError(
            None, None, f"input must have 3 channels but instead has {images.shape[-1]} "
                        "channels. [Op:AdjustSaturation]")
    if images.dtype == dtypes.float16 and \
            execute.placement([images, scale]).device_type != "GPU":
        raise no_half_kernel("AdjustSaturation")
    x = array_api.to_host(images._value)
    rgb = x.astype(_F32).reshape(-1, 3)
    out = _saturation_kernel(rgb, _F32(array_api.to_host(scale._value))).reshape(x.shape)
    xp = array_api.namespace(images._value)
    return execute.execute("AdjustSaturation", [images, scale],
                           xp.asarray(out.astype(x.dtype)))


def _max(a, b):
    """std::max(a, b): ``b`` where ``a < b``, else ``a`` (a NaN ``b`` is not taken)."""
    return np.where(a < b, b, a)


def _min(a, b):
    """std::min(a, b): ``b`` where ``b < a``, else ``a``."""
    return np.where(b < a, b, a)


def _rgb_to_hsv(r, g, b):
    """internal::rgb_to_hsv, elementwise in float32."""
    vv = _max(r, _max(g, b))
    rng = vv - _min(r, _min(g, b))
    s = np.where(vv > 0, rng / np.where(vv > 0, vv, _F32(1)), _F32(0))
    norm = _F32(1) / (_F32(6) * rng)
    # "norm * (b - r) + 2.0 / 6.0": a float product, a double sum, stored as float
    hh = np.where(r == vv, norm * (g - b),
                  np.where(g == vv, (norm * (b - r)).astype(np.float64) + 2.0 / 6.0,
                           (norm * (r - g)).astype(np.float64) + 4.0 / 6.0).astype(_F32))
    hh = np.where(rng <= 0, _F32(0), hh)
    hh = np.where(hh < 0, hh + _F32(1), hh)
    return hh, s, vv


def _hsv_to_rgb(h, s, v):
    """internal::hsv_to_rgb, elementwise in float32: the six hue sectors (a seventh, a hue
    of 1 or a NaN, gives ``rr = gg = bb = 0``)."""
    c = s * v
    m = v - c
    dh = h * _F32(6)
    category = np.where(np.isnan(dh), -1, np.trunc(np.nan_to_num(dh))).astype(np.int64)
    fmodu = np.where(dh <= 0, dh + _F32(2), dh)
    for _ in range(3):   # dh <= 6: at most three "fmodu -= 2.0f"
        fmodu = np.where(fmodu >= 2, fmodu - _F32(2), fmodu)
    x = c * (_F32(1) - np.abs(fmodu - _F32(1)))
    zero = np.zeros_like(c)
    parts = {0: (c, x, zero), 1: (x, c, zero), 2: (zero, c, x), 3: (zero, x, c),
             4: (x, zero, c), 5: (c, zero, x)}
    out = []
    for channel in range(3):
        value = zero
        for k, part in parts.items():
            value = np.where(category == k, part[channel], value)
        out.append(value + m)
    return out


def _saturation_kernel(rgb, scale):
    """AdjustSaturationOp<CPUDevice, float>: each pixel of ``rgb`` (float32 ``(n, 3)``)."""
    with np.errstate(all="ignore"):
        h, s, v = _rgb_to_hsv(rgb[:, 0], rgb[:, 1], rgb[:, 2])
        s = _min(_F32(1), _max(_F32(0), s * scale))
        return np.stack(_hsv_to_rgb(h, s, v), axis=-1).astype(_F32)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording); the
# stateful random ones are not nodes of their own: their RandomUniform op is (its seeds the
# trace's), as TF's graph holds it.
op_recording.record_here(__name__, exclude=("random_brightness", "random_saturation"))
