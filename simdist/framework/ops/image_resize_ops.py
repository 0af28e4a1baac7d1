"""``tf.image.resize``: images resampled to a new height and width.

Glossary:
  size          -- ``[new_height, new_width]``, a 1-D int32 tensor of 2 elements.
  half-pixel centers -- TF 2's ``resize`` maps output pixel ``x`` to input coordinate
                   ``(x + 0.5) * scale - 0.5`` (bilinear) or ``floor((x + 0.5) * scale)``
                   (nearest), ``scale = in_size / out_size``, all in float32 as the kernel.
  bilinear      -- ResizeBilinear: each output is ``top + (bottom - top) * y_lerp`` of the
                   two rows' ``left + (right - left) * x_lerp`` (float32 rounding at each
                   step, no FMA), its neighbours clamped to the image; the output is float32
                   whatever the input dtype.
  nearest       -- ResizeNearestNeighbor: the input pixel the output centre falls in (the
                   input dtype kept).
  batch         -- a 3-D image is resized as a batch of one.

Mirrors tensorflow/python/ops/image_ops_impl.py (resize_images_v2, _resize_images_common)
and the ResizeBilinear / ResizeNearestNeighbor CPU kernels
(tensorflow/core/kernels/image/resize_bilinear_op.cc, resize_nearest_neighbor_op.cc,
image_resizer_state.h's CalculateResizeScale and HalfPixelScaler).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.hardware import array_api

_METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
            "mitchellcubic")


def resize(images, size, method="bilinear", preserve_aspect_ratio=False, antialias=False,
           name=None):
    """``images`` resized to ``size`` (``tf.image.resize``: TF 2's half-pixel centers).

    Raises:
      ValueError: TF's, for images not of rank 3 or 4 and a ``size`` that is not 2 ints, or
        an unknown method.
      NotImplementedError: a method TF has but simdist does not model (bicubic, area ...),
        ``preserve_aspect_ratio`` or ``antialias``.
    """
    images = execute.convert_to_tensor(images)
    if images.ndim not in (3, 4):
        raise ValueError("'images' must have either 3 or 4 dimensions.")
    try:
        size = execute.convert_to_tensor(size, dtypes.int32)
    except (TypeError, ValueError):
        raise ValueError("'size' must be a 1-D int32 Tensor") from None
    if tuple(size.shape) != (2,):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    method = str(method).lower()
    if method not in _METHODS:
        raise ValueError(f"Resize method is not implemented: {method}")
    if method not in ("bilinear", "nearest") or preserve_aspect_ratio or antialias:
        raise NotImplementedError(
            f"simdist's tf.image.resize models method 'bilinear' and 'nearest' without "
            f"antialias or preserve_aspect_ratio; got method={method!r}, antialias="
            f"{antialias}, preserve_aspect_ratio={preserve_aspect_ratio}.")
    batched = images if images.ndim == 4 else A.expand_dims(images, 0)
    out = _resize_kernel(batched, size, method)
    return out if images.ndim == 4 else A.squeeze(out, [0])


def _scale(in_size: int, out_size: int) -> np.float32:
    """CalculateResizeScale without align_corners: ``in / (float)out``."""
    return np.float32(in_size) / np.float32(out_size)


def _bilinear_weights(out_size: int, in_size: int):
    """compute_interpolation_weights with the HalfPixelScaler: lower, upper, lerp."""
    x = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * _scale(in_size, out_size)
    x = x - np.float32(0.5)
    floor = np.floor(x)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(x).astype(np.int64), in_size - 1)
    return lower, upper, (x - floor).astype(np.float32)


def _nearest_index(out_size: int, in_size: int):
    """HalfPixelScalerForNN, floored and clamped to ``[0, in_size - 1]``."""
    x = (np.arange(out_size, dtype=np.float32) + np.float32(0.5)) * _scale(in_size, out_size)
    return np.clip(np.floor(x).astype(np.int64), 0, in_size - 1)


def _resize_kernel(images, size, method):
    """The kernel on a 4-D batch (host NumPy, as TF's CPU kernel)."""
    x = array_api.to_host(images._value)
    new_h, new_w = (int(v) for v in array_api.to_host(size._value))
    op = "ResizeBilinear" if method == "bilinear" else "ResizeNearestNeighbor"
    if new_h <= 0 or new_w <= 0:
        raise errors.InvalidArgumentError(
            None, None, f"output dimensions must be positive [Op:{op}]")
    _, in_h, in_w, _ = x.shape
    if in_h == 0 or in_w == 0:
        raise errors.InvalidArgumentError(
            None, None, f"input image must be of non-zero size [Op:{op}]")
    if method == "nearest":
        out = x[:, _nearest_index(new_h, in_h)][:, :, _nearest_index(new_w, in_w)]
        return execute.execute(op, [images, size], np.ascontiguousarray(out))
    ylo, yhi, ylerp = _bilinear_weights(new_h, in_h)
    xlo, xhi, xlerp = _bilinear_weights(new_w, in_w)
    f = x.astype(np.float32)
    xl = xlerp[None, None, :, None]
    rows_lo, rows_hi = f[:, ylo], f[:, yhi]
    top = rows_lo[:, :, xlo] + (rows_lo[:, :, xhi] - rows_lo[:, :, xlo]) * xl
    bottom = rows_hi[:, :, xlo] + (rows_hi[:, :, xhi] - rows_hi[:, :, xlo]) * xl
    out = top + (bottom - top) * ylerp[None, :, None, None]
    return execute.execute(op, [images, size], out.astype(np.float32))


def _resize_spec(graph, images, size, method="bilinear", preserve_aspect_ratio=False,
                 antialias=False, name=None):
    """``tf.image.resize`` while tracing: a size the trace computes (RandomHeight's) gives
    an unknown height and width (their values only execution shows); a known one runs on
    the placeholders (the shapes they give, the gradient's tape)."""
    from simdist.framework import context, func_graph

    if not func_graph.is_symbolic(size):
        return NotImplemented
    images = execute.convert_to_tensor(images)
    if images.ndim not in (3, 4) or str(method).lower() not in ("bilinear", "nearest"):
        return NotImplemented   # the argument errors, raised on the placeholders
    dims = images.shape.as_list()
    dims[-3:-1] = [None, None]
    nearest = str(method).lower() == "nearest"
    return graph.symbolic_like(dims, images.dtype if nearest else dtypes.float32,
                               context.current_device(),
                               "ResizeNearestNeighbor" if nearest else "ResizeBilinear")


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
resize = op_recording.recorded(resize, kind="spec", spec=_resize_spec)
op_recording.record_here(__name__, exclude=("resize",))
