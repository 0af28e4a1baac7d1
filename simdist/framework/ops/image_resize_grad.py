"""The gradients of ``tf.image.resize``'s bilinear and nearest-neighbour kernels.

Glossary:
  ResizeBilinearGrad -- each output pixel's gradient goes back to its four neighbours in the
                   input, weighted ``(1 - y_lerp) * (1 - x_lerp)``, ``(1 - y_lerp) *
                   x_lerp``, ``y_lerp * (1 - x_lerp)``, ``y_lerp * x_lerp`` (the products
                   rounded left to right in float32, ``grad * y_weight * x_weight``), added
                   into the input's gradient output pixel by output pixel, row by row, in
                   that corner order, as TF's CPU loop adds them (float32 sums in that
                   order: a neighbour shared by several outputs sums them in sequence).
  ResizeNearestNeighborGrad -- each output pixel's gradient goes back whole to the input
                   pixel the forward op copied it from (the same half-pixel index), added
                   output pixel by output pixel, row by row, in the gradient's dtype (TF's
                   CPU loop: a pixel copied to several outputs sums their gradients in
                   that order, rounding each addition).
  size           -- the resize's second input: no gradient.

Mirrors tensorflow/python/ops/image_grad.py (``_ResizeBilinearGrad``,
``_ResizeNearestNeighborGrad``) and the CPU ResizeBilinearOpGrad and
ResizeNearestNeighborGrad kernels (tensorflow/core/kernels/image/resize_bilinear_op.cc,
resize_nearest_neighbor_op.cc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute
from simdist.framework.ops import image_resize_ops
from simdist.hardware import array_api


@execute.RegisterGradient("ResizeBilinear")
def _resize_bilinear_grad(op, grad):
    images = op.inputs[0]
    return [resize_bilinear_grad(grad, images), None]


def resize_bilinear_grad(grad, original_image):
    """ResizeBilinearGrad: ``grad`` (b, h', w', c) back onto ``original_image``'s (b, h, w,
    c), float32 (the op's output dtype is the original image's for float types)."""
    g = array_api.to_host(grad._value).astype(np.float32)
    _, in_h, in_w, _ = original_image.shape
    _, out_h, out_w, _ = g.shape
    ylo, yhi, ylerp = image_resize_ops._bilinear_weights(out_h, int(in_h))
    xlo, xhi, xlerp = image_resize_ops._bilinear_weights(out_w, int(in_w))
    one = np.float32(1.0)
    # per (y, x): the four corners in TF's order, their rows, columns and weights
    rows = np.stack([ylo, ylo, yhi, yhi], axis=-1)[:, None, :].repeat(out_w, axis=1)
    cols = np.stack([xlo, xhi, xlo, xhi], axis=-1)[None, :, :].repeat(out_h, axis=0)
    wy = np.stack([one - ylerp, one - ylerp, ylerp, ylerp], axis=-1)[:, None, :]
    wx = np.stack([one - xlerp, xlerp, one - xlerp, xlerp], axis=-1)[None, :, :]
    # (b, y, x, corner, c): grad * y weight, then * x weight (float32 at each step)
    contrib = (g[:, :, :, None, :] * wy[None, :, :, :, None]) * wx[None, :, :, :, None]
    b, c = g.shape[0], g.shape[3]
    out = np.zeros((int(in_h), int(in_w), b, c), np.float32)
    # np.add.at adds in index order: output pixel by pixel, row by row, corner by corner
    np.add.at(out, (rows.reshape(-1), cols.reshape(-1)),
              contrib.transpose(1, 2, 3, 0, 4).reshape(-1, b, c))
    out = np.ascontiguousarray(out.transpose(2, 0, 1, 3))
    dtype = original_image.dtype
    if dtype.is_floating and dtype.name != "float32":
        out = out.astype(dtype.as_numpy_dtype)
    return execute.execute("ResizeBilinearGrad", [grad, original_image], out)


@execute.RegisterGradient("ResizeNearestNeighbor")
def _resize_nearest_neighbor_grad(op, grad):
    images = op.inputs[0]
    return [resize_nearest_neighbor_grad(grad, images.shape[1:3]), None]


def resize_nearest_neighbor_grad(grad, size):
    """ResizeNearestNeighborGrad: ``grad`` (b, h', w', c) summed back onto the (b, h, w, c)
    of ``size`` (h, w), in ``grad``'s dtype."""
    g = array_api.to_host(grad._value)
    in_h, in_w = (int(d) for d in size)
    _, out_h, out_w, _ = g.shape
    rows = image_resize_ops._nearest_index(out_h, in_h)
    cols = image_resize_ops._nearest_index(out_w, in_w)
    b, c = g.shape[0], g.shape[3]
    out = np.zeros((in_h, in_w, b, c), g.dtype)
    # np.add.at adds in index order (row by row, pixel by pixel), each sum in g's dtype;
    # a float16 sum past its range is inf, as in TF: no warning
    with np.errstate(all="ignore"):
        np.add.at(out, (rows.repeat(out_w), np.tile(cols, out_h)),
                  g.transpose(1, 2, 0, 3).reshape(-1, b, c))
    out = np.ascontiguousarray(out.transpose(2, 0, 1, 3))
    size_t = execute.convert_to_tensor(np.array([in_h, in_w], np.int32))
    return execute.execute("ResizeNearestNeighborGrad", [grad, size_t], out)
