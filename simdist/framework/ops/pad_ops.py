"""``tf.pad``: a tensor padded before and after each dimension.

Glossary:
  paddings -- an ``[rank, 2]`` integer matrix: ``paddings[i] = [before, after]``.
  modes    -- ``CONSTANT`` (``constant_values``; TF's Pad, or PadV2 with a value),
              ``REFLECT`` (the edge not repeated: a padding must be less than the size) and
              ``SYMMETRIC`` (the edge repeated: at most the size), TF's MirrorPad; the mode
              is case-insensitive.
  while tracing -- known paddings give known sizes (an unknown input size stays unknown);
              symbolic paddings give unknown sizes; the mirror limits are checked at
              execution, as TF's shape function leaves them to the kernel.

Mirrors tensorflow/python/ops/array_ops.py (pad) and the Pad / MirrorPad kernels and shape
functions (tensorflow/core/kernels/pad_op.cc, mirror_pad_op.cc, core/ops/array_ops.cc).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import context, errors, execute, func_graph, op_recording
from simdist.hardware import array_api, backend

_NUMPY_MODES = {"REFLECT": "reflect", "SYMMETRIC": "symmetric"}


def pad_mode(mode) -> str:
    m = str(mode).upper()
    if m not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", '
                         f'"REFLECT", or "SYMMETRIC". Received `mode` = {mode}')
    return m


def op_type(mode, constant_values) -> str:
    """TF's op for a pad: MirrorPad, Pad (a zero value) or PadV2."""
    if mode != "CONSTANT":
        return "MirrorPad"
    return "Pad" if _is_zero(constant_values) else "PadV2"


def _is_zero(value) -> bool:
    if func_graph.is_symbolic(value):
        return False
    host = backend.to_host(value._value) if hasattr(value, "_value") else value
    return np.ndim(host) == 0 and not isinstance(host, (str, bytes)) and host == 0


def _paddings(paddings, rank, kind):
    host = np.asarray(backend.to_host(paddings._value) if hasattr(paddings, "_value")
                      else paddings)
    shape = list(host.shape)
    if host.ndim != 2 or shape[1] != 2:
        raise errors.InvalidArgumentError(
            None, None, f"paddings must be a matrix with 2 columns: "
                        f"[{','.join(map(str, shape))}] [Op:{kind}]")
    return host.astype(np.int64), shape


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """``tensor`` padded by ``paddings`` in ``mode``.

    Raises:
      ValueError: an unknown ``mode``.
      InvalidArgumentError: paddings of another shape than ``[rank, 2]``, negative, or (the
        mirror modes) too large for the dimension.
    """
    m = pad_mode(mode)
    x = execute.convert_to_tensor(tensor)
    kind = op_type(m, constant_values)
    widths, shape = _paddings(paddings, x.ndim, kind)
    dims = list(x._value.shape)
    if shape[0] != len(dims):
        raise errors.InvalidArgumentError(
            None, None, f"The first dimension of paddings must be the rank of inputs"
                        f"[{','.join(map(str, shape))}] [{','.join(map(str, dims))}] "
                        f"[Op:{kind}]")
    for (before, after), dim in zip(widths.tolist(), dims):
        if before < 0 or after < 0:
            raise errors.InvalidArgumentError(
                None, None, f"Paddings must be non-negative: {before} {after} [Op:{kind}]")
        if m == "REFLECT" and (before >= dim or after >= dim):
            raise errors.InvalidArgumentError(
                None, None, f"paddings must be less than the dimension size: {before}, "
                            f"{after} not less than {dim} [Op:MirrorPad]")
        if m == "SYMMETRIC" and (before > dim or after > dim):
            raise errors.InvalidArgumentError(
                None, None, f"paddings must be no greater than the dimension size: {before}, "
                            f"{after} greater than {dim} [Op:MirrorPad]")
    out = [d + int(w.sum()) for d, w in zip(dims, widths)]
    execute.check_output_fits(kind, out, x._value.dtype, [x])
    host = np.asarray(backend.to_host(x._value))
    if m == "CONSTANT":
        fill = execute.convert_to_tensor(constant_values, dtype=x.dtype)
        value = np.pad(host, widths.tolist(), constant_values=backend.to_host(fill._value))
    else:
        value = np.pad(host, widths.tolist(), mode=_NUMPY_MODES[m])
    result = value if value.dtype == object else array_api.from_host(value)
    return execute.execute(kind, [x], result, attrs={"paddings": widths.tolist()})


def pad_spec(graph, tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """``tf.pad`` while tracing (TF's Pad shape function): known paddings add to the known
    sizes; symbolic paddings give unknown sizes; another rank fails on the placeholders
    (TF's text)."""
    m = pad_mode(mode)
    with func_graph.recorded_op_scope(0):   # a Python value converted as the op does
        x = execute.convert_to_tensor(tensor)
    if func_graph.taped_on_placeholders(x, paddings, constant_values):
        return NotImplemented
    device = context.current_device()
    if func_graph.is_symbolic(paddings):
        rows = paddings.shape.dims[0] if paddings.shape.rank == 2 else None
        rank = x.shape.rank if x.shape.rank is not None else rows
        dims = None if rank is None else [None] * rank
        return graph.symbolic_like(dims, x.dtype, device, op_type(m, constant_values))
    widths, shape = _paddings(paddings, x.shape.rank, op_type(m, constant_values))
    if x.shape.rank is not None and shape[0] != x.shape.rank:
        return NotImplemented
    dims = x.shape.dims if x.shape.rank is not None else [None] * shape[0]
    out = [None if d is None else d + int(w.sum()) for d, w in zip(dims, widths)]
    return graph.symbolic_like(out, x.dtype, device, op_type(m, constant_values))


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
pad = op_recording.recorded(
    pad, kind="spec", spec=pad_spec,
    name=lambda tensor, paddings, mode="CONSTANT", constant_values=0, name=None:
        (op_type(pad_mode(mode), constant_values),))
