"""``tf.math.bincount``: how often each non-negative integer occurs (``DenseBincount``).

Glossary:
  size           -- the number of bins: ``max(arr) + 1`` (0 for an empty ``arr``), at least
                    ``minlength``, at most ``maxlength``; values at or past it are dropped.
  weights        -- what each occurrence adds (1 without them); the output has their dtype,
                    else ``dtype`` (``T``: int32, int64, float32, float64).
  binary_output  -- 1 where a value occurs (no weights then).
  axis           -- 0: ``arr`` flattened, one histogram; -1: one histogram per row of a
                    2-D ``arr`` (a rank-0 or 1-D one counts as one row).
  composite arr  -- a RaggedTensor's or SparseTensor's values counted (axis 0: as a dense
                    ``arr``), or per row (axis -1: ``[nrows, size]``, TF's RaggedBincount /
                    SparseBincount); its weights must be of its kind (TF's ValueErrors).
  while tracing  -- the size depends on values: the last dimension is ``None``.

Mirrors tensorflow/python/ops/bincount_ops.py (bincount), ragged/ragged_bincount_ops.py and
sparse_ops.py (their bincount), and the CPU DenseBincount kernel of
tensorflow/core/kernels/bincount_op.cc (its checks and texts). Weights are added in order:
TF's 1-D kernel adds them into per-worker partial bins, which is the same order while the input
is one shard (a large float input's sums depend on TF's threads); its 2-D kernel adds each row
in order. DenseBincount has no gradient (TF's registry has no entry: LookupError).
"""

from __future__ import annotations

import sys

import numpy as np

from simdist.framework import context, dtypes, errors, execute, op_recording
from simdist.framework.ops import op_types
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend

_SIGNATURE = (
    "\n\t; NodeDef: {{node DenseBincount}}; Op<name=DenseBincount; signature=input:Tidx, "
    "size:Tidx, weights:T -> output:T; attr=Tidx:type,allowed=[DT_INT32, DT_INT64]; "
    "attr=T:type,allowed=[DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE]; "
    "attr=binary_output:bool,default=false> [Op:DenseBincount]")
_ALLOWED = {"Tidx": (dtypes.int32, dtypes.int64),
            "T": (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64)}


def _t(x, dtype=None):
    return execute.convert_to_tensor(x, dtype=dtype)


def _kernel_error(text: str):
    return errors.InvalidArgumentError(None, None, text + " [Op:DenseBincount]")


def _arguments(arr, weights, minlength, maxlength, dtype, axis, binary_output):
    """TF's Python part: the converted ``arr`` and ``weights``, the output dtype, the size.

    Raises:
      ValueError: ``weights`` with ``binary_output``; an axis other than 0 and -1.
      InvalidArgumentError: an ``arr`` dtype or output dtype the kernels do not take.
    """
    a = _t(arr)
    w = None if weights is None else _t(weights)
    if w is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    if not a.dtype.is_integer:
        a = _t(np.asarray(a.numpy()).astype(np.int32))   # TF's cast to int32 (truncates)
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    values = np.asarray(backend.to_host(a._value))
    size = int(values.max()) + 1 if values.size else 0
    if minlength is not None:
        size = max(int(_t(minlength, a.dtype).numpy()), size)
    if maxlength is not None:
        size = min(int(_t(maxlength, a.dtype).numpy()), size)
    if axis == 0:
        values = values.reshape(-1)
        w = None if w is None else np.asarray(w.numpy()).reshape(-1)
    else:
        w = None if w is None else np.asarray(w.numpy())
    out_dtype = dtypes.as_dtype(dtype) if w is None else dtypes.as_dtype(w.dtype)
    op_types.check_attr_dtype("Tidx", a.dtype, _ALLOWED["Tidx"], _SIGNATURE)
    op_types.check_attr_dtype("T", out_dtype, _ALLOWED["T"], _SIGNATURE)
    return a, values, w, out_dtype, size


def _dense_bincount(values, size, weights, out_dtype, binary_output):
    """The CPU kernel's checks and counts (``values`` int, 0-D to 2-D)."""
    if values.ndim > 2:
        raise _kernel_error(f"Shape must be at most rank 2 but is rank {values.ndim}")
    if size < 0:
        raise _kernel_error(f"size ({size}) must be non-negative")
    if weights is not None and weights.size and weights.shape != values.shape:
        raise _kernel_error(
            "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case "
            "it acts as all weights equal to 1. Received [" +
            ",".join(str(d) for d in weights.shape) + "]")
    if (values < 0).any():
        if values.ndim == 2:
            raise _kernel_error("Input 'in' must be non-negative! Negative input value found: "
                                f"{values[values < 0][0]}")
        raise _kernel_error("Input arr must be non-negative!")
    rows = values if values.ndim == 2 else values.reshape(1, -1)
    w = None if weights is None else weights.reshape(rows.shape)
    row = np.broadcast_to(np.arange(rows.shape[0])[:, None], rows.shape)
    out = _row_counts(row, rows, rows.shape[0], size, w, out_dtype, binary_output)
    return out if values.ndim == 2 else out[0]


def _row_counts(row, values, nrows, size, weights, out_dtype, binary_output):
    """``[nrows, size]`` counts of the (row, value) pairs, weights added in order."""
    out = np.zeros((nrows, size), out_dtype.as_numpy_dtype)
    keep = values < size
    if binary_output:
        out[row[keep], values[keep]] = 1
    else:
        np.add.at(out, (row[keep], values[keep]), 1 if weights is None else weights[keep])
    return out


def _kind(x) -> str:
    """The type name TF's messages give ``x`` (an eager tensor is an EagerTensor)."""
    return "EagerTensor" if isinstance(x, Tensor) else type(x).__name__


def _composite_parts(arr, weights):
    """A RaggedTensor's or SparseTensor's ``arr`` as (its values, its weights' values, the
    row of each value, the number of rows), or None for another ``arr``.

    Raises:
      ValueError: ``weights`` not of ``arr``'s kind (TF's texts).
    """
    ragged = sys.modules.get("simdist.framework.ragged_tensor")
    sparse = sys.modules.get("simdist.framework.sparse_tensor")
    if ragged is not None and isinstance(arr, ragged.RaggedTensor):
        if weights is not None and not isinstance(weights, ragged.RaggedTensor):
            weights = _t(weights)   # as TF converts it first (the message shows the tensor)
            raise ValueError("`weights` must be a RaggedTensor if `values` is a RaggedTensor. "
                             f"Received argument weights={weights} of type: {_kind(weights)}.")
        return (arr.flat_values, None if weights is None else weights.flat_values,
                arr.value_rowids(), arr.nrows_int())
    if sparse is not None and isinstance(arr, sparse.SparseTensor):
        if weights is not None and not isinstance(weights, sparse.SparseTensor):
            raise ValueError("Argument `weights` must be a SparseTensor if `values` is a "
                             f"SparseTensor. Received weights={weights} of type: {_kind(weights)}")
        return (arr.values, None if weights is None else weights.values,
                arr.indices[:, 0], int(arr.dense_shape[0]))
    return None


def _composite_bincount(parts, minlength, maxlength, dtype, axis, binary_output, op_type):
    """``tf.math.bincount`` of a RaggedTensor or SparseTensor (``parts``): its values
    counted (axis 0), or per row (axis -1: ``[nrows, size]``)."""
    values, weights, row_ids, nrows = parts
    if axis in (None, 0):
        return bincount(values, weights, minlength, maxlength, dtype, None, 0, binary_output)
    a, flat, w, out_dtype, size = _arguments(values, weights, minlength, maxlength, dtype,
                                             axis, binary_output)
    rows = np.asarray(backend.to_host(execute.convert_to_tensor(row_ids)._value))
    if (flat < 0).any():   # RaggedBincount refuses them; SparseBincount gives no bins
        if op_type == "RaggedBincount":
            raise errors.InvalidArgumentError(
                None, None, f"Input must be non-negative [Op:{op_type}]")
        keep = flat >= 0
        size, flat, rows, w = max(size, 0), flat[keep], rows[keep], None if w is None else w[keep]
    out = _row_counts(rows, flat, nrows, size, w, out_dtype, binary_output)
    return execute.execute(op_type, [a], array_api.from_host(out),
                           attrs={"binary_output": binary_output})


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32,
             name=None, axis=None, binary_output=False):
    """Counts (or weight sums) of each value of the non-negative ints ``arr`` (see glossary).

    Raises:
      ValueError: ``weights`` with ``binary_output``; an axis other than 0 and -1.
      InvalidArgumentError: a negative value or size; weights of another shape; a rank-3
        ``arr`` with ``axis=-1``; an ``arr`` dtype not int32/int64 or an output dtype not
        int32, int64, float32 or float64 (TF's kernel texts).
    """
    parts = _composite_parts(arr, weights)
    if parts is not None:
        op_type = "RaggedBincount" if type(arr).__name__ == "RaggedTensor" else "SparseBincount"
        return _composite_bincount(parts, minlength, maxlength, dtype, axis, binary_output,
                                   op_type)
    a, values, w, out_dtype, size = _arguments(arr, weights, minlength, maxlength, dtype,
                                               axis, binary_output)
    out = _dense_bincount(values, size, w, out_dtype, binary_output)
    inputs = [a] if weights is None else [a, _t(weights)]
    return execute.execute("DenseBincount", inputs, array_api.from_host(out),
                           attrs={"binary_output": binary_output})


def bincount_spec(graph, arr, weights=None, minlength=None, maxlength=None,
                  dtype=dtypes.int32, name=None, axis=None, binary_output=False):
    """``tf.math.bincount`` while tracing: the size is unknown (it depends on values)."""
    from simdist.framework import func_graph  # tracing only: not with the eager core

    with func_graph.recorded_op_scope(0):
        a = _t(arr)
        out_dtype = dtypes.as_dtype(dtype) if weights is None else _t(weights).dtype
    rows = a.shape.dims[:1] if axis == -1 and a.shape.rank == 2 else []
    return graph.symbolic_like(list(rows) + [None], out_dtype, context.current_device(),
                               "DenseBincount")


bincount = op_recording.recorded(bincount, kind="spec", spec=bincount_spec,
                                 name="DenseBincount")

__all__ = ["bincount"]
