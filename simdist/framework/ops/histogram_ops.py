"""``tf.histogram_fixed_width`` and ``tf.histogram_fixed_width_bins``: equal-width bins of
``value_range = [a, b]``.

Glossary:
  histogram  -- ``nbins`` counts (``dtype`` int32 or int64) of the flattened ``values``
                (``HistogramFixedWidth``): the kernel takes ``max(x, a) - a`` in the values'
                dtype, then in double divides it by ``step = double(b - a) / nbins``, caps it
                at ``nbins - 1`` and truncates; values <= a count in bin 0, values >= b in
                the last; a NaN value is an error.
  bins       -- the bin of each value, the values' shape, int32 (``dtype`` is not used): TF's
                Python ``floor(nbins * (x - a) / (b - a))`` clipped to ``[0, nbins - 1]``, in
                the values' dtype (so float32 bins can differ from the histogram's double
                ones: 0.7 of [0, 1] in 10 bins is bin 7 here, bin 6 there).

Mirrors tensorflow/python/ops/histogram_ops.py and the CPU kernel of
tensorflow/core/kernels/histogram_op.cc. HistogramFixedWidth has no gradient (LookupError).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import context, dtypes, errors, execute, op_recording
from simdist.framework.ops import array_ops, control_flow_ops, math_ops, op_types
from simdist.hardware import array_api, backend

_SIGNATURE = (
    "\n\t; NodeDef: {{node HistogramFixedWidth}}; Op<name=HistogramFixedWidth; "
    "signature=values:T, value_range:T, nbins:int32 -> out:dtype; "
    "attr=T:type,allowed=[DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE]; "
    "attr=dtype:type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]> [Op:HistogramFixedWidth]")
_ALLOWED = {"T": (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64),
            "dtype": (dtypes.int32, dtypes.int64)}


def _t(x, dtype=None):
    return execute.convert_to_tensor(x, dtype=dtype)


def _kernel_error(text: str):
    return errors.InvalidArgumentError(None, None, text + " [Op:HistogramFixedWidth]")


def _number(x) -> str:
    """A value as the kernel's StrCat writes it (``5`` for 5.0)."""
    return f"{x:g}" if isinstance(x, (float, np.floating)) else str(x)


def _counts(values, value_range, nbins: int, out_dtype):
    """The CPU kernel's checks and counts (see the glossary)."""
    if value_range.ndim != 1:
        raise _kernel_error("value_range should be a vector.")
    if value_range.size != 2:
        raise _kernel_error("value_range should be a vector of 2 elements.")
    a, b = value_range[0], value_range[1]
    if not a < b:
        raise _kernel_error("value_range should satisfy value_range[0] < value_range[1], but "
                            f"got '[{_number(a)}, {_number(b)}]'")
    if nbins <= 0:
        raise _kernel_error(f"nbins should be a positive number, but got '{nbins}'")
    flat = values.reshape(-1)
    if flat.dtype.kind == "f" and np.isnan(flat).any():
        raise _kernel_error("Histogram values must not contain NaN")
    step = float(b - a) / float(nbins)
    with np.errstate(over="ignore"):   # int64 wraps as the kernel's does
        shifted = (np.maximum(flat, a) - a).astype(np.float64)
    index = np.minimum(shifted / step, float(nbins - 1)).astype(np.int32)
    return np.bincount(index, minlength=nbins).astype(out_dtype.as_numpy_dtype)


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """How many of ``values`` fall in each of ``nbins`` equal bins of ``value_range``.

    Raises:
      InvalidArgumentError: a ``value_range`` not ``[a, b]`` with ``a < b``; ``nbins`` not
        positive; a NaN value; a dtype the kernel does not take (TF's texts).
    """
    v = _t(values)
    r = _t(value_range, v.dtype)
    n = _t(nbins, dtypes.int32)
    out_dtype = dtypes.as_dtype(dtype)
    op_types.check_attr_dtype("T", v.dtype, _ALLOWED["T"], _SIGNATURE)
    op_types.check_attr_dtype("dtype", out_dtype, _ALLOWED["dtype"], _SIGNATURE)
    if n.shape.rank != 0:
        raise _kernel_error("nbins should be a scalar.")
    host = [np.asarray(backend.to_host(t._value)) for t in (v, r, n)]
    out = _counts(host[0], host[1], int(host[2]), out_dtype)
    return execute.execute("HistogramFixedWidth", [v, r, n], array_api.from_host(out))


def histogram_fixed_width_spec(graph, values, value_range, nbins=100, dtype=dtypes.int32,
                               name=None):
    """While tracing: ``[nbins]`` where ``nbins`` is a Python int, else ``[None]``."""
    size = nbins if isinstance(nbins, (int, np.integer)) else None
    return graph.symbolic_like([size], dtype, context.current_device(), "HistogramFixedWidth")


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each of ``values`` (int32; TF's Python composite, see the glossary).

    Raises:
      InvalidArgumentError: ``nbins`` not positive (TF's Assert).
    """
    v = _t(values)
    shape = array_ops.shape(v)
    v = array_ops.reshape(v, [-1])
    r = _t(value_range)
    n = _t(nbins, dtypes.int32)
    control_flow_ops.Assert(math_ops.greater(n, 0), [f"nbins {n!s} must > 0"])
    n_float = array_ops.cast(n, v.dtype)
    scaled = math_ops.truediv(v - r[0], r[1] - r[0])
    indices = math_ops.floor(n_float * scaled)
    indices = array_ops.cast(math_ops.clip_by_value(indices, 0, n_float - 1), dtypes.int32)
    return array_ops.reshape(indices, shape)


histogram_fixed_width = op_recording.recorded(
    histogram_fixed_width, kind="spec", spec=histogram_fixed_width_spec,
    name="HistogramFixedWidth")

def histogram_fixed_width_bins_spec(graph, values, value_range, nbins=100,
                                    dtype=dtypes.int32, name=None):
    """While tracing: int32 of the values' shape."""
    from simdist.framework import func_graph  # tracing only: not with the eager core

    with func_graph.recorded_op_scope(0):
        shape = _t(values).shape
    return graph.symbolic_like(shape, dtypes.int32, context.current_device(),
                               "histogram_fixed_width_bins")


histogram_fixed_width_bins = op_recording.recorded(
    histogram_fixed_width_bins, kind="spec", spec=histogram_fixed_width_bins_spec,
    name="histogram_fixed_width_bins")

__all__ = ["histogram_fixed_width", "histogram_fixed_width_bins"]
