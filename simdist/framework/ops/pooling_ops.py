"""2-D pooling ops (NHWC): ``tf.nn.max_pool2d`` / ``avg_pool2d`` and their gradient ops.

Glossary:
  MaxPool          -- the largest value of each window; 'SAME' pads with -inf, so padding
                      never wins.
  MaxPoolGrad      -- routes each output's gradient to the *first* largest input of its
                      window (row-major scan, as TF's CPU kernel); overlapping windows add.
  MaxPoolGradGrad  -- the adjoint of MaxPoolGrad: each window reads the gradient at its
                      argmax. The two are each other's gradient rules (pooling_grad.py).
  AvgPool          -- the mean of each window over the *real* inputs in it: 'SAME' padding
                      is not counted (TF divides by the number of valid taps).
  AvgPoolGrad      -- spreads each output's gradient evenly over its window's valid inputs;
                      its gradient is AvgPool again.

Mirrors tensorflow/python/ops/nn_ops.py (max_pool2d, avg_pool2d) and
core/kernels/maxpooling_op.cc, avgpooling_op.cc.
"""

from __future__ import annotations

from simdist.framework import execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import conv_ops as C
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api

_ONE = (1, 1)


def geometry(x: Tensor, ksize, strides, padding, op_type):
    if x.ndim != 4:
        raise ValueError(f"`input` must be 4-dimensional (NHWC) for {op_type}, got shape "
                         f"{x.shape}")
    k = C.spatial_pair(ksize, "ksize", op_type)
    s = C.spatial_pair(strides, "strides", op_type)
    out_hw, pads = C.resolve_padding(padding, x.shape[1:3], k, s, _ONE, op_type)
    return {"ksize": k, "strides": s, "pads": pads, "out_hw": out_hw,
            "input_shape": tuple(x.shape)}


def _checked(value, ksize, strides, padding, data_format, op_type):
    """The input as a Tensor and its window geometry, after TF's checks."""
    C.check_format(data_format, op_type)
    x = A._t(value)
    return x, geometry(x, ksize, strides, padding, op_type)


def _windows(value, attrs, fill):
    """``[N, OH, OW, KH * KW, C]``: each output's window, padding filled with ``fill``."""
    p = C.patches(C.pad_hw(value, attrs["pads"], fill), attrs["out_hw"], attrs["ksize"],
                  attrs["strides"], _ONE)
    n, oh, ow, kh, kw, c = p.shape
    return array_api.namespace(p).reshape(p, (n, oh, ow, kh * kw, c))


def _padded_shape(attrs, n):
    _, h, w, c = attrs["input_shape"]
    pads = attrs["pads"]
    return (n, h + sum(pads[0]), w + sum(pads[1]), c)


def _scatter(cols, attrs, n, dtype):
    """col2im of per-tap values ``[N, OH, OW, KH * KW, C]`` back to the input's shape."""
    oh, ow = attrs["out_hw"]
    kh, kw = attrs["ksize"]
    c = cols.shape[-1]
    xp = array_api.namespace(cols)
    return C.col2im(xp.reshape(cols, (n, oh, ow, kh, kw, c)), _padded_shape(attrs, n),
                    attrs["pads"], attrs["strides"], _ONE, dtype)


def _window_flops(attrs) -> int:
    n, _, _, c = attrs["input_shape"]
    return n * attrs["out_hw"][0] * attrs["out_hw"][1] * attrs["ksize"][0] * \
        attrs["ksize"][1] * c


# --- max pooling -------------------------------------------------------------------------
def max_pool2d(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002 - TF's name
               name=None) -> Tensor:
    """The maximum of each ``ksize`` window, windows ``strides`` apart (``tf.nn.max_pool2d``).

    Raises:
      InvalidArgumentError: a bad padding or strides/ksize over batch or depth.
      UnimplementedError: ``data_format='NCHW'``.
    """
    x, attrs = _checked(input, ksize, strides, padding, data_format, "MaxPool")
    v = x._value
    value = array_api.namespace(v).max(_windows(v, attrs, _lowest(v)), axis=3)
    return execute.execute("MaxPool", [x], value, attrs=attrs, flops=_window_flops(attrs))


def _lowest(v):
    """The padding of a max pool: the lowest value of ``v``'s dtype."""
    xp = array_api.namespace(v)
    return xp.finfo(v.dtype).min if array_api.kind(v) == "f" else xp.iinfo(v.dtype).min


def _argmax_taps(orig_input, attrs):
    """The tap index (0 .. KH*KW-1) of each window's first maximum."""
    v = orig_input._value
    return array_api.namespace(v).argmax(_windows(v, attrs, _lowest(v)), axis=3)


def max_pool_grad(orig_input, orig_output, grad, attrs) -> Tensor:
    """MaxPool's input gradient: ``grad`` at each window's first maximum."""
    x, y, g = A._t(orig_input), A._t(orig_output), A._t(grad)
    xp = array_api.namespace(g._value)
    taps = _argmax_taps(x, attrs)
    k = attrs["ksize"][0] * attrs["ksize"][1]
    hot = taps[:, :, :, None, :] == xp.arange(k)[None, None, None, :, None]
    gv = g._value[:, :, :, None, :]
    cols = array_api.astype(xp.where(hot, gv, xp.zeros_like(gv)),
                            array_api.numpy_dtype(g._value))
    value = _scatter(cols, attrs, g.shape[0], g._value.dtype)
    return execute.execute("MaxPoolGrad", [x, y, g], value, attrs=attrs,
                          flops=_window_flops(attrs))


def max_pool_grad_grad(orig_input, orig_output, grad, attrs) -> Tensor:
    """MaxPoolGrad's adjoint: for each window, ``grad`` (input-shaped) at its argmax."""
    x, y, g = A._t(orig_input), A._t(orig_output), A._t(grad)
    xp = array_api.namespace(g._value)
    taps = _argmax_taps(x, attrs)
    windows = _windows(g._value, attrs, 0)
    value = xp.take_along_axis(windows, taps[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    return execute.execute("MaxPoolGradGrad", [x, y, g], value, attrs=attrs,
                          flops=_window_flops(attrs))


# --- average pooling ---------------------------------------------------------------------
def _counts(attrs, xp):
    """How many real (unpadded) inputs each output window holds: ``[1, OH, OW, 1]``."""
    _, h, w, _ = attrs["input_shape"]
    ones = xp.ones((1, h, w, 1), dtype=xp.float64)
    return xp.sum(_windows(ones, attrs, 0), axis=3)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002 - TF's name
               name=None) -> Tensor:
    """The mean of each window's real inputs (``tf.nn.avg_pool2d``).

    Raises:
      InvalidArgumentError: a bad padding or strides/ksize over batch or depth.
      UnimplementedError: ``data_format='NCHW'``.
    """
    return avg_pool_from_attrs(*_checked(input, ksize, strides, padding, data_format,
                                         "AvgPool"))


def avg_pool_grad(grad, attrs) -> Tensor:
    """AvgPool's input gradient: each output's gradient shared evenly by its valid inputs."""
    g = A._t(grad)
    xp = array_api.namespace(g._value)
    k = attrs["ksize"][0] * attrs["ksize"][1]
    share = array_api.astype(g._value / _counts(attrs, xp), array_api.numpy_dtype(g._value))
    cols = xp.broadcast_to(share[:, :, :, None, :], share.shape[:3] + (k, share.shape[3]))
    value = _scatter(cols, attrs, g.shape[0], g._value.dtype)
    return execute.execute("AvgPoolGrad", [g], value, attrs=attrs, flops=_window_flops(attrs))


def avg_pool_from_attrs(x, attrs) -> Tensor:
    """AvgPool with a known geometry (also AvgPoolGrad's gradient rule)."""
    x = A._t(x)
    xp = array_api.namespace(x._value)
    value = array_api.astype(xp.sum(_windows(x._value, attrs, 0), axis=3) / _counts(attrs, xp),
                             array_api.numpy_dtype(x._value))
    return execute.execute("AvgPool", [x], value, attrs=attrs, flops=_window_flops(attrs))


def max_pool(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """``tf.nn.max_pool`` for 4-D input (the rank-generic name)."""
    return max_pool2d(input, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """``tf.nn.avg_pool`` for 4-D input (the rank-generic name)."""
    return avg_pool2d(input, ksize, strides, padding, data_format, name)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__, exclude=("geometry",))
