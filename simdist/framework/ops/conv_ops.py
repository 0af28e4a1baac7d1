"""2-D convolution ops (NHWC): ``tf.nn.conv2d``, the two backprop ops its gradient uses, and
``tf.nn.conv2d_transpose`` (Conv2DBackpropInput with the output's shape given).

Glossary:
  window      -- the input rows/columns one output pixel reads: ``k`` taps ``dilation``
                 apart, windows ``stride`` apart.
  padding     -- 'VALID' (no padding; output ``ceil((in - eff_k + 1) / stride)``, never
                 below 0), 'SAME' (output ``ceil(in / stride)``, the needed zeros split with
                 the extra one after, as TF's ``GetWindowedOutputSize``), or explicit
                 ``[[0, 0], [top, bottom], [left, right], [0, 0]]``.
  patches     -- the windows of the padded input, ``[N, OH, OW, KH, KW, C]``
                 (``array_api.windows``: a strided view on NumPy/CuPy, im2col without
                 copying); a tensordot with the filter ``[KH, KW, C, O]`` is the convolution.
  col2im      -- the adjoint: each of the ``KH * KW`` taps adds its slice of the patch
                 gradient back into the padded input (a loop over taps, not pixels).
  Conv2DBackpropInput / Conv2DBackpropFilter -- the gradient of Conv2D w.r.t. its input
                 and its filter; each is an op with its own gradient rule, so gradients of
                 gradients work (conv_grad.py).
Device values keep to the Array API (plus ``array_api.pad`` / ``windows``), in the
namespace of the values (NumPy for host arrays: float16 on the strict backend).
FLOPs charged to the device: ``2 * N * OH * OW * KH * KW * C * O`` for each of the three.

Mirrors tensorflow/python/ops/nn_ops.py (conv2d, conv2d_transpose_v2),
core/kernels/conv_ops.cc and conv_grad_input_ops.cc (its size check).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import errors, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api

_PADDINGS = ("SAME", "VALID", "EXPLICIT")


# What TF's CPU kernels say of a window over the batch or depth dimension.
_BATCH_WINDOW = {"Conv2D": "Current implementation does not yet support {name} in the batch "
                           "and depth dimensions.",
                 "MaxPool": "Pooling is not yet supported on the batch dimension.",
                 "AvgPool": "Pooling is not yet supported on the batch dimension."}


def spatial_pair(value, name: str, op_type: str = "Conv2D", n: int = 2) -> tuple[int, int]:
    """``strides`` / ``ksize`` / ``dilations`` as TF takes them: an int, or a list of 1, 2
    or 4 ints (NHWC: the batch and channel entries must be 1).

    Raises:
      ValueError: another length.
      UnimplementedError: a batch or channel entry other than 1.
    """
    v = [int(value)] if np.ndim(value) == 0 else [int(x) for x in value]
    if len(v) == 1:
        v = v * n
    elif len(v) == n + 2:
        if v[0] != 1 or v[-1] != 1:
            raise errors.UnimplementedError(
                None, None, _BATCH_WINDOW[op_type].format(name=name) + f" [Op:{op_type}]")
        v = v[1:-1]
    elif len(v) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(v)}")
    return tuple(v)


# TF's CPU kernels run NHWC only, and say so each in its own way; simdist simulates them.
_NHWC_ONLY = {
    "Conv2D": (errors.UnimplementedError, "The Conv2D op currently only supports the NHWC "
                                          "tensor format on the CPU. The op was given the "
                                          "format: {fmt}"),
    "MaxPool": (errors.InvalidArgumentError, "Default MaxPoolingOp only supports NHWC on "
                                             "device type CPU"),
    "AvgPool": (errors.InvalidArgumentError, "Default AvgPoolingOp only supports NHWC on "
                                             "device type CPU"),
}


def check_format(data_format, op_type: str) -> None:
    """Raise TF's CPU-kernel error for a data format other than NHWC."""
    if data_format not in (None, "NHWC"):
        cls, msg = _NHWC_ONLY[op_type]
        raise cls(None, None, msg.format(fmt=data_format) + f" [Op:{op_type}]")


def resolve_padding(padding, in_hw, k_hw, s_hw, d_hw, op_type):
    """The output size and ``((top, bottom), (left, right))`` zeros of a window op.

    Raises:
      InvalidArgumentError: an unknown padding, or explicit padding of the wrong form.
    """
    if isinstance(padding, str):
        mode = padding.upper()
        if mode not in ("SAME", "VALID"):
            raise errors.InvalidArgumentError(
                None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list of "
                            "allowed values: \"SAME\", \"VALID\", \"EXPLICIT\"")
        explicit = None
    else:
        pads = [[int(p) for p in pair] for pair in padding]
        if len(pads) != 4 or any(len(p) != 2 for p in pads) or pads[0] != [0, 0] \
                or pads[3] != [0, 0] or min(min(p) for p in pads) < 0:
            raise errors.InvalidArgumentError(
                None, None, "padding must be a list of 4 non-negative [before, after] pairs "
                            f"with zeros for the batch and depth dimensions, got {padding} "
                            f"[Op:{op_type}]")
        mode, explicit = "EXPLICIT", pads[1:3]
    out, pads = [], []
    for i, (n, k, s, d) in enumerate(zip(in_hw, k_hw, s_hw, d_hw)):
        eff = (k - 1) * d + 1
        if mode == "VALID":
            o, p = max(0, (n - eff + s) // s), (0, 0)
        elif mode == "SAME":
            o = -(-n // s)
            need = max(0, (o - 1) * s + eff - n)
            p = (need // 2, need - need // 2)
        else:
            p = tuple(explicit[i])
            o = max(0, (n + p[0] + p[1] - eff + s) // s)
        out.append(o)
        pads.append(p)
    return tuple(out), tuple(pads)


def pad_hw(value, pads, fill=0):
    """``value`` [N, H, W, C] with ``pads`` rows/columns of ``fill`` around H and W."""
    if not any(any(p) for p in pads):
        return value
    return array_api.pad(value, ((0, 0), pads[0], pads[1], (0, 0)), fill)


def patches(padded, out_hw, k_hw, s_hw, d_hw):
    """The read-only windows ``[N, OH, OW, KH, KW, C]`` of ``padded``."""
    return array_api.windows(padded, out_hw, k_hw, s_hw, d_hw)


def col2im(cols, padded_shape, pads, s_hw, d_hw, dtype):
    """Sum each tap's slice of ``cols`` [N, OH, OW, KH, KW, C] back into the input."""
    xp = array_api.namespace(cols)
    out = xp.zeros(padded_shape, dtype=dtype)
    _, oh, ow, kh, kw, _ = cols.shape
    for i in range(kh if oh and ow else 0):  # an empty output reads no input
        for j in range(kw):
            r, c = i * d_hw[0], j * d_hw[1]
            out[:, r:r + (oh - 1) * s_hw[0] + 1:s_hw[0],
                c:c + (ow - 1) * s_hw[1] + 1:s_hw[1], :] += cols[:, :, :, i, j, :]
    h, w = padded_shape[1], padded_shape[2]
    return out[:, pads[0][0]:h - pads[0][1], pads[1][0]:w - pads[1][1], :]


def _check_dtype(t: Tensor, op_type: str) -> None:
    if t.dtype.name not in ("float16", "float32", "float64", "int32"):
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {t.dtype.name} is not in the list of allowed "
                        f"values: half, bfloat16, float, double, int32 [Op:{op_type}]")


def geometry(x_shape, f_shape, strides, padding, dilations):
    """The resolved geometry every Conv2D-family op carries in its attrs."""
    out_hw, pads = resolve_padding(padding, x_shape[1:3], f_shape[:2], strides, dilations,
                                   "Conv2D")
    return {"strides": strides, "dilations": dilations, "pads": pads, "out_hw": out_hw,
            "input_shape": tuple(x_shape), "filter_shape": tuple(f_shape)}


def _flops(attrs) -> int:
    n = attrs["input_shape"][0]
    kh, kw, c, o = attrs["filter_shape"]
    return 2 * n * attrs["out_hw"][0] * attrs["out_hw"][1] * kh * kw * c * o


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
           name=None) -> Tensor:
    """Cross-correlate a batch of NHWC images with ``filters`` [KH, KW, C, O] (``tf.nn.conv2d``).

    Raises:
      InvalidArgumentError: channels that do not match, a bad padding, a non-float dtype.
      UnimplementedError: ``data_format='NCHW'`` (TF's CPU kernels refuse it too).
    """
    check_format(data_format, "Conv2D")
    x, f = A._t(input), A._t(filters)
    execute.check_same_dtype("Conv2D", x, f)
    _check_dtype(x, "Conv2D")
    if x.ndim != 4 or f.ndim != 4:
        raise ValueError(f"input must be 4-dimensional and filter 4-dimensional, got shapes "
                         f"{x.shape} and {f.shape} [Op:Conv2D]")
    c, fc = x.shape[3], f.shape[2]
    if fc == 0 or c % fc:
        raise errors.InvalidArgumentError(
            None, None, f"input depth must be evenly divisible by filter depth: {c} vs {fc} "
                        "[Op:Conv2D]")
    if c != fc:
        raise NotImplementedError("simdist's Conv2D does not simulate grouped convolutions "
                                  "(filter depth smaller than the input depth).")
    s = spatial_pair(strides, "strides")
    d = spatial_pair(1 if dilations is None else dilations, "dilations")
    attrs = geometry(x.shape, f.shape, s, padding, d)
    return execute.execute("Conv2D", [x, f], _conv_impl(x._value, f._value, attrs),
                          attrs=attrs, flops=_flops(attrs))


def _conv_impl(x, f, attrs):
    xp = array_api.namespace(x, f)
    p = patches(pad_hw(x, attrs["pads"]), attrs["out_hw"], f.shape[:2], attrs["strides"],
                attrs["dilations"])
    return array_api.astype(xp.tensordot(p, f, axes=([3, 4, 5], [0, 1, 2])),
                            array_api.numpy_dtype(x))


def conv2d_backprop_input(filters, out_backprop, attrs) -> Tensor:
    """The gradient of Conv2D w.r.t. its input, given the forward op's geometry ``attrs``."""
    f, g = A._t(filters), A._t(out_backprop)
    xp = array_api.namespace(f._value, g._value)
    n, h, w, c = attrs["input_shape"]
    n = g.shape[0]
    pads = attrs["pads"]
    padded = (n, h + pads[0][0] + pads[0][1], w + pads[1][0] + pads[1][1], c)
    cols = xp.tensordot(g._value, f._value, axes=([3], [3]))  # [N, OH, OW, KH, KW, C]
    value = col2im(cols, padded, pads, attrs["strides"], attrs["dilations"], g._value.dtype)
    return execute.execute("Conv2DBackpropInput", [f, g], value, attrs=attrs,
                          flops=_flops(attrs))


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME",  # noqa: A002
                     data_format="NHWC", dilations=None, name=None) -> Tensor:
    """The transpose (adjoint) of ``conv2d``: ``input`` [N, H, W, C] spread through
    ``filters`` [KH, KW, out_channels, C] into a tensor of ``output_shape``
    (``tf.nn.conv2d_transpose``: TF's Conv2DBackpropInput with ``input_sizes=output_shape``).

    Raises:
      InvalidArgumentError: ``output_shape`` not 4 long, channels that do not match the
        filter's, or an input whose size a conv2d of ``output_shape`` would not give (the
        kernel's "Size of out_backprop doesn't match computed").
      UnimplementedError: ``data_format='NCHW'``.
    """
    check_format(data_format, "Conv2D")
    g, f = A._t(input), A._t(filters)
    execute.check_same_dtype("Conv2DBackpropInput", g, f)
    _check_dtype(g, "Conv2DBackpropInput")
    sizes = A._ints(output_shape)
    if len(sizes) != 4 or g.ndim != 4 or f.ndim != 4:
        raise errors.InvalidArgumentError(
            None, None, "Conv2DCustomBackpropInput: input_sizes must be 4-dimensional and "
                        f"out_backprop 4-dimensional, got {sizes} and {g.shape} "
                        "[Op:Conv2DBackpropInput]")
    if f.shape[3] != g.shape[3] or f.shape[2] != sizes[3]:
        raise errors.InvalidArgumentError(
            None, None, "Conv2DCustomBackpropInput: filter and out_backprop must have the "
                        f"same out_depth and input_sizes the filter's in_depth: filter "
                        f"{list(f.shape)}, out_backprop {list(g.shape)}, input_sizes {sizes} "
                        "[Op:Conv2DBackpropInput]")
    s = spatial_pair(strides, "strides")
    d = spatial_pair(1 if dilations is None else dilations, "dilations")
    attrs = geometry([g.shape[0]] + sizes[1:], f.shape, s, padding, d)
    for i in range(2):
        if attrs["out_hw"][i] != g.shape[1 + i]:
            raise errors.InvalidArgumentError(
                None, None, "Conv2DCustomBackpropInput: Size of out_backprop doesn't match "
                            f"computed: actual = {g.shape[1 + i]}, computed = "
                            f"{attrs['out_hw'][i]} spatial_dim: {1 + i} input: "
                            f"{sizes[1 + i]} filter: {f.shape[i]} output: {g.shape[1 + i]} "
                            f"stride: {s[i]} dilation: {d[i]} [Op:Conv2DBackpropInput]")
    return conv2d_backprop_input(f, g, attrs)


def conv2d_backprop_filter(input, out_backprop, attrs) -> Tensor:  # noqa: A002 - TF's name
    """The gradient of Conv2D w.r.t. its filter, given the forward op's geometry ``attrs``."""
    x, g = A._t(input), A._t(out_backprop)
    xp = array_api.namespace(x._value, g._value)
    kh, kw = attrs["filter_shape"][:2]
    p = patches(pad_hw(x._value, attrs["pads"]), attrs["out_hw"], (kh, kw), attrs["strides"],
                attrs["dilations"])
    value = array_api.astype(xp.tensordot(p, g._value, axes=([0, 1, 2], [0, 1, 2])),
                             array_api.numpy_dtype(x._value))
    return execute.execute("Conv2DBackpropFilter", [x, g], value, attrs=attrs,
                          flops=_flops(attrs))


def conv_from_attrs(x, f, attrs) -> Tensor:
    """Conv2D with the geometry of another op of its family (for the gradient rules)."""
    x, f = A._t(x), A._t(f)
    return execute.execute("Conv2D", [x, f], _conv_impl(x._value, f._value, attrs),
                          attrs=attrs, flops=_flops(attrs))


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__, exclude=("spatial_pair", "check_format", "resolve_padding",
                                            "pad_hw", "patches", "col2im", "geometry"))
