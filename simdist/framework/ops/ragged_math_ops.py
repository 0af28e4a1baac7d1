"""Reductions over RaggedTensors, ``tf.ragged.range`` and ``tf.ragged.map_flat_values``.

Glossary:
  reduce over axis 0    -- the rows combined position by position: item j of the result
                           reduces item j of every row long enough to have one (a segment
                           reduction with each value's position in its row as segment id).
  reduce over a ragged  -- each row reduced to one value (segment ids: the value row ids);
  axis                     an empty row gives the reduction's identity (0 for a sum, the
                           dtype's lowest finite value for a max: -3.4028235e+38 ...).
  reduce over an inner  -- the flat values reduced along that axis, the rows unchanged.
  uniform axis
  mean                  -- sum / count, both ragged reductions (an int mean is a float64
                           true division, NaN for an empty row: TF's).
  segment of ragged     -- segment ids over rows that are ragged themselves: the result's
                           row for a segment is as long as its longest member, reduced
                           again position by position.
  range                 -- one row ``range(start, limit, delta)`` per element.
  map_flat_values       -- ``op`` on the flat values of its RaggedTensor arguments, which
                           must share their row partitions.

Mirrors tensorflow/python/ops/ragged/ragged_math_ops.py and ragged_functional_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute, op_recording
from simdist.framework.ragged_tensor import RaggedTensor, host

_KINDS = {"sum": ("UnsortedSegmentSum", np.add), "prod": ("UnsortedSegmentProd", np.multiply),
          "max": ("UnsortedSegmentMax", np.maximum), "min": ("UnsortedSegmentMin", np.minimum),
          "all": ("UnsortedSegmentMin", np.logical_and),
          "any": ("UnsortedSegmentMax", np.logical_or)}


def reduce(kind: str, rt, axis=None, keepdims=False):
    """``tf.reduce_<kind>`` of a RaggedTensor (see the module glossary).

    Raises:
      ValueError: an axis out of range for the tensor's rank.
    """
    from simdist.framework.ops import array_ops, math_ops

    if kind == "mean":
        ones = rt.with_flat_values(array_ops.ones_like(rt.flat_values))
        return math_ops.truediv(reduce("sum", rt, axis, keepdims),
                                reduce("sum", ones, axis, keepdims))
    if axis is None:
        return getattr(math_ops, f"reduce_{kind}")(rt.flat_values, keepdims=keepdims)
    rank = rt.ndim
    axes = [axis] if np.ndim(axis) == 0 else list(axis)
    norm = []
    for a in axes:
        a = int(a)
        if not -rank <= a < rank:
            raise ValueError(f"axis={a} out of bounds: expected {-rank}<=axis<{rank}")
        norm.append(a % rank)
    out = rt
    for a in sorted(set(norm), reverse=True):
        out = _reduce_axis(kind, out, a)
        if keepdims:
            from simdist.framework.ops import ragged_array_ops

            out = ragged_array_ops.expand_dims(out, a) if isinstance(out, RaggedTensor) \
                else array_ops.expand_dims(out, a)
    return out


def _reduce_axis(kind, rt, axis):
    from simdist.framework.ops import math_ops

    if not isinstance(rt, RaggedTensor):
        return getattr(math_ops, f"reduce_{kind}")(rt, axis=axis)
    s = rt._splits()
    lens = s[1:] - s[:-1]
    if axis == 0:
        within = np.arange(s[-1], dtype=np.int64) - np.repeat(s[:-1], lens)
        return segment_reduce(kind, rt.values, within, int(lens.max()) if lens.size else 0)
    if axis == 1:
        ids = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
        return segment_reduce(kind, rt.values, ids, len(lens))
    return rt.with_values(_reduce_axis(kind, rt.values, axis - 1))


def segment_reduce(kind, values, ids, num):
    """The values (a Tensor or a RaggedTensor) that share a segment id, reduced; empty
    segments hold the reduction's identity."""
    if isinstance(values, RaggedTensor):
        s = values._splits()
        lens = s[1:] - s[:-1]
        new_lens = np.zeros(num, np.int64)
        np.maximum.at(new_lens, ids, lens)
        new_splits = np.concatenate([[0], np.cumsum(new_lens)]).astype(np.int64)
        within = np.arange(s[-1], dtype=np.int64) - np.repeat(s[:-1], lens)
        inner_ids = np.repeat(new_splits[ids], lens) + within
        inner = segment_reduce(kind, values.values, inner_ids, int(new_splits[-1]))
        return RaggedTensor.from_row_splits(inner, new_splits, validate=False)
    if kind == "sum":
        from simdist.framework.ops import math_ops

        return math_ops.unsorted_segment_sum(values, execute.convert_to_tensor(ids), num)
    op_type, ufunc = _KINDS[kind]
    v = np.asarray(host(values))
    out = np.full((num,) + v.shape[1:], _identity(kind, v.dtype), dtype=v.dtype)
    ufunc.at(out, ids, v)
    return execute.execute(op_type, [values, execute.convert_to_tensor(ids)], out,
                           attrs={"num_segments": num})


def _identity(kind, dtype):
    if kind in ("all", "any"):
        return kind == "all"
    if kind == "prod":
        return 1
    # the dtype's lowest / highest finite value, as TF's segment kernels start from
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.min if kind == "max" else info.max


def range(starts, limits=None, deltas=1, dtype=None, name=None,  # noqa: A001 - TF's name
          row_splits_dtype="int64"):
    """One row ``range(start, limit, delta)`` for each element (``tf.ragged.range``).

    Raises:
      InvalidArgumentError: a zero delta.
    """
    from simdist import errors

    if limits is None:
        starts, limits = 0, starts
    lt = execute.convert_to_tensor(limits, dtype=dtype)
    st = execute.convert_to_tensor(starts, dtype=lt.dtype)
    dt = execute.convert_to_tensor(deltas, dtype=lt.dtype)
    a, b, d = np.broadcast_arrays(*(np.asarray(host(t)) for t in (st, lt, dt)))
    if np.any(d == 0):
        raise errors.InvalidArgumentError(None, None, "Requires delta != 0 [Op:RaggedRange]")
    rows = [np.arange(x, y, z, dtype=lt.dtype.as_numpy_dtype)
            for x, y, z in zip(a.reshape(-1), b.reshape(-1), d.reshape(-1))]
    flat = np.concatenate(rows) if rows else np.zeros(0, lt.dtype.as_numpy_dtype)
    lens = np.asarray([len(r) for r in rows], np.int64)
    values = execute.execute("RaggedRange", [st, lt, dt], flat)
    return RaggedTensor.from_row_lengths(values, lens, validate=False)


def map_flat_values(op, *args, **kwargs):
    """``op`` on the flat values of the RaggedTensors among its arguments (nested in lists,
    tuples and dicts too), the rows of the first one around the result.

    Raises:
      ValueError: no RaggedTensor among the arguments.
      InvalidArgumentError: RaggedTensors whose row partitions differ.
    """
    from simdist.framework.ops import ragged_elementwise

    found = []

    def flat(x):
        if isinstance(x, RaggedTensor):
            found.append(x)
            return x.flat_values
        if isinstance(x, (list, tuple)):
            return type(x)(flat(v) for v in x)
        if isinstance(x, dict):
            return {k: flat(v) for k, v in x.items()}
        return x

    args, kwargs = flat(list(args)), flat(kwargs)
    if not found:
        raise ValueError("map_flat_values requires at least one RaggedTensor.")
    first = found[0].nested_splits()
    for other in found[1:]:
        for mine, theirs in zip(first, other.nested_splits()):
            ragged_elementwise._assert_equal(mine, theirs)
    return found[0].with_flat_values(op(*args, **kwargs))


# --- gradients (tensorflow/python/ops/math_grad.py) ---------------------------------------
execute.NotDifferentiable("RaggedRange")


@execute.RegisterGradient("UnsortedSegmentMax")
@execute.RegisterGradient("UnsortedSegmentMin")
def _unsorted_segment_min_or_max_grad(op, grad):
    """TF's _UnsortedSegmentMinOrMaxGrad: the gradient goes to the values equal to their
    segment's result, shared equally among ties."""
    from simdist.framework.ops import array_ops, math_ops

    values, ids = op.inputs
    selected = math_ops.equal(values, array_ops.gather(op.outputs[0], ids))
    count = math_ops.unsorted_segment_sum(array_ops.cast(selected, grad.dtype), ids,
                                          int(op.attrs["num_segments"]))
    shared = array_ops.gather(math_ops.divide(grad, count), ids)
    return array_ops.where(selected, shared, array_ops.zeros_like(shared)), None


# While a tf.function traces, each ragged op is one node of the graph (its RaggedTensors
# recorded as their components), run again on the values at each execution.
op_recording.record_here(__name__)
