"""``tf.image``: the image ops TF's guides use.

Glossary:
  images            -- a tensor of at least 3 dimensions ``[..., height, width, channels]``.
  convert_image_dtype -- an image moved between dtypes with their value ranges: integers
                       span ``[0, dtype.max]``, floats ``[0, 1]``; ``saturate`` clips before
                       a cast that could overflow.
  adjust_contrast   -- ``mean + contrast_factor * (x - mean)``, the mean taken per image and
                       channel over height and width (the CPU kernel's halving folds, times
                       ``1 / pixels``), in float32 (TF's AdjustContrastv2 op, which has no
                       gradient: a tape through it raises LookupError).
  stateless_random_contrast -- adjust_contrast by one factor drawn by
                       ``stateless_random_uniform([], seed, lower, upper)``;
                       ``random_contrast`` by the stateful ``random_uniform``.
  saturating cast   -- a cast whose values are first clipped to the target dtype's range
                       (TF's math_ops.saturate_cast, for real dtypes).

Mirrors tensorflow/python/ops/image_ops_impl.py (convert_image_dtype, adjust_contrast,
random_contrast, stateless_random_contrast),
math_ops.py (saturate_cast) and the AdjustContrastv2 kernel
(tensorflow/core/kernels/image/adjust_contrast_op.cc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import random_ops
from simdist.hardware import array_api

# No gradient rule is registered for AdjustContrastv2: TF's registry has none, so a tape's
# lookup fails with TF's LookupError (a NotDifferentiable op would give None instead).


def _saturate_cast(value, dtype):
    """``value`` cast to ``dtype``, clipped first to what ``dtype`` holds."""
    x = A.convert_to_tensor(value)
    if x.dtype != dtype:
        x = M.clip_by_value(x, max(x.dtype.min, dtype.min), min(x.dtype.max, dtype.max))
    return A.cast(x, dtype)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """``image`` converted to ``dtype``, its values rescaled between the dtypes' ranges.

    Raises:
      AttributeError: a dtype (target or the image's) neither floating nor integer (TF's).
    """
    image = A.convert_to_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return A.identity(image)
    cast = _saturate_cast if saturate else A.cast
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = image.dtype.max, dtype.max
        if scale_in > scale_out:   # scale down first, then cast
            return cast(M.floordiv(image, (scale_in + 1) // (scale_out + 1)), dtype)
        return M.multiply(cast(image, dtype), (scale_out + 1) // (scale_in + 1))
    if image.dtype.is_floating and dtype.is_floating:
        return A.cast(image, dtype)
    if image.dtype.is_integer:   # to float: cast, then scale
        return M.multiply(A.cast(image, dtype), 1. / image.dtype.max)
    return cast(M.multiply(image, dtype.max + 0.5), dtype)   # from float: scale, then cast


def adjust_contrast(images, contrast_factor):
    """``images`` with their contrast scaled by ``contrast_factor`` (see the glossary).

    Raises:
      InvalidArgumentError: images of fewer than 3 dimensions, a factor that is not a scalar.
      NotFoundError: float16 images on a CPU (TF's kernels take them on GPUs only).
    """
    images = A.convert_to_tensor(images)
    orig_dtype = images.dtype
    flt = images if orig_dtype in (dtypes.float16, dtypes.float32) else \
        convert_image_dtype(images, dtypes.float32)
    adjusted = _adjust_contrastv2(flt, A.convert_to_tensor(contrast_factor, dtypes.float32))
    return convert_image_dtype(adjusted, orig_dtype, saturate=True)


# TF registers AdjustContrastv2 (and AdjustSaturation) for float32 on CPU, for float16 only
# on GPU.
_NO_HALF_KERNEL = (
    "Could not find device for node: {{node AdjustContrastv2}} = AdjustContrastv2[T=DT_HALF]\n"
    "All kernels registered for op AdjustContrastv2:\n"
    "  device='XLA_CPU_JIT'; T in [DT_FLOAT, DT_HALF]\n"
    "  device='XLA_GPU_JIT'; T in [DT_FLOAT, DT_HALF]\n"
    "  device='CPU'; T in [DT_FLOAT]\n"
    "  device='GPU'; T in [DT_HALF]\n"
    "  device='GPU'; T in [DT_FLOAT]\n"
    " [Op:AdjustContrastv2]")


def no_half_kernel(op_type) -> errors.NotFoundError:
    """TF's error for a float16 image given to ``op_type`` (an op with a float32 CPU kernel
    and float16 ones on GPUs only) on a CPU."""
    return errors.NotFoundError(None, None, _NO_HALF_KERNEL.replace("AdjustContrastv2",
                                                                    op_type))


def stateless_random_contrast(image, lower, upper, seed):
    """``adjust_contrast`` by a factor drawn in ``[lower, upper)`` by ``seed``.

    Raises:
      ValueError: TF's, for ``upper <= lower`` or a negative ``lower``.
    """
    return adjust_contrast(image, _random_factor(lower, upper, seed))


def random_contrast(image, lower, upper, seed=None):
    """``adjust_contrast`` by a factor drawn in ``[lower, upper)`` by the stateful
    ``random_uniform`` (op ``seed`` and the global seed, as TF's).

    Raises:
      ValueError: TF's, for ``upper <= lower`` or a negative ``lower``.
    """
    return adjust_contrast(image, _random_factor(lower, upper, seed, stateless=False))


def _random_factor(lower, upper, seed, stateless=True):
    """A factor drawn in ``[lower, upper)``: by ``stateless_random_uniform([], seed, ...)``
    or the stateful ``random_uniform([], ..., seed=seed)`` (TF's (stateless_)random_contrast
    / _saturation).

    Raises:
      ValueError: TF's, for ``upper <= lower`` or a negative ``lower``.
    """
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return random_ops.uniform_by(seed, stateless)([], lower, upper)


def _mean_hw(x32):
    """The CPU kernel's mean per image and channel (ReduceMeanAcrossImage): each image's
    (pixels, channels) plane folded in halves, ``y[:right] = x[left:] + x[:right]`` then
    ``y[:right] += y[left:left + right]`` until one row is left, times ``1.0f / pixels``."""
    h, w, c = x32.shape[-3:]
    plane = x32.reshape(-1, h * w, c)
    remaining, first = h * w, True
    while True:
        right = remaining // 2
        left = remaining - right
        if first:
            folded = plane.copy()
            folded[:, :right] = plane[:, left:left + right] + plane[:, :right]
            plane, first = folded, False
        else:
            plane[:, :right] += plane[:, left:left + right]
        remaining = left
        if remaining <= 1:
            break
    mean = plane[:, 0] * (np.float32(1) / np.float32(h * w))
    return mean.reshape(x32.shape[:-3] + (1, 1, c))


def _adjust_contrastv2(images, factor):
    if images.ndim < 3:
        raise errors.InvalidArgumentError(
            None, None, "input must be at least 3-D, got shape"
                        f"[{','.join(map(str, images.shape.as_list()))}] "
                        "[Op:AdjustContrastv2]")
    if factor.ndim != 0:
        raise errors.InvalidArgumentError(
            None, None, "contrast_factor must be scalar: "
                        f"[{','.join(map(str, factor.shape.as_list()))}] [Op:AdjustContrastv2]")
    device = execute.placement([images, factor])
    if images.dtype == dtypes.float16 and device.device_type != "GPU":
        raise no_half_kernel("AdjustContrastv2")
    x = images._value
    xp = array_api.namespace(x)
    x32 = x.astype(np.float32)
    mean = _mean_hw(x32) if type(x32) is np.ndarray else \
        xp.mean(x32, axis=(-3, -2), keepdims=True)
    out = (mean + factor._value.astype(np.float32) * (x32 - mean)).astype(x.dtype)
    return execute.execute("AdjustContrastv2", [images, factor], out)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording); the
# stateful random ones are not nodes of their own: their RandomUniform op is (its seeds the
# trace's), as TF's graph holds it.
op_recording.record_here(__name__, exclude=("random_contrast",))
