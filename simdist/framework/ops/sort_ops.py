"""``tf.sort``, ``tf.argsort`` and ``tf.math.top_k``: values in order along an axis.

Glossary:
  top_k      -- the ``k`` largest entries of the last axis, largest first, and their indices
                (int32); equal values keep their index order (TF's TopKV2).
  argsort    -- the indices that order ``values`` along ``axis`` (int32): ascending or
                descending, equal values in index order either way (TF's top_k of the
                values or their negation).
  sort       -- ``values`` gathered in that order (its gradient flows through the gather).
  direction  -- 'ASCENDING' or 'DESCENDING'; anything else is TF's ValueError.

Mirrors tensorflow/python/ops/sort_ops.py and nn_ops.top_k.
"""

from __future__ import annotations

import collections

import numpy as np

from simdist.framework import dtypes, errors, execute, op_recording
from simdist.framework.ops import array_ops
from simdist.hardware import array_api

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def _order(value: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Stable indices ordering ``value`` along ``axis`` (ties by index either way)."""
    if descending:
        keyed = -value.astype(np.int64) if value.dtype.kind in "ub" else -value
    else:
        keyed = value
    return np.argsort(keyed, axis=axis, kind="stable").astype(np.int32)


def _check_direction(direction) -> bool:
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    return direction == "DESCENDING"


def _checked_host(t, descending: bool) -> np.ndarray:
    """``t``'s values, or TF's errors: a scalar (its slice of the last dimension fails), a
    bool sorted ascending (TF negates the values first)."""
    host = np.asarray(array_api.to_host(t._value))
    if host.ndim == 0:
        raise errors.InvalidArgumentError(
            None, None, "slice index -1 of dimension 0 out of bounds. [Op:StridedSlice]")
    if host.dtype == np.bool_ and not descending:
        raise errors.InvalidArgumentError(
            None, None, "Value for attr 'T' of bool is not in the list of allowed values: "
                        "bfloat16, half, float, double, int8, int16, int32, int64, complex64, "
                        "complex128\n\t; NodeDef: {{node Neg}}; Op<name=Neg; signature=x:T -> "
                        "y:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, "
                        "DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_COMPLEX64, DT_COMPLEX128]> "
                        "[Op:Neg]")
    return host


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The int32 indices that sort ``values`` along ``axis`` (``tf.argsort``).

    Raises:
      ValueError: ``direction`` is neither 'ASCENDING' nor 'DESCENDING'.
    """
    del stable   # equal values keep their index order either way (TF's top_k does too)
    descending = _check_direction(direction)
    t = execute.convert_to_tensor(values)
    host = _checked_host(t, descending)
    axis = int(axis) % host.ndim
    order = _order(host, axis, descending)
    return execute.execute("ArgSort", [t], order, attrs={"axis": axis},
                           flops=host.size * max(1, int(np.log2(max(host.shape[axis], 2)))))


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """``values`` sorted along ``axis`` (``tf.sort``): a gather of ``argsort``'s order, so
    its gradient is the gather's.

    Raises:
      ValueError: ``direction`` is neither 'ASCENDING' nor 'DESCENDING'.
      InvalidArgumentError: a scalar; bools sorted ascending.
    """
    t = execute.convert_to_tensor(values)
    order = argsort(t, axis=axis, direction=direction)
    axis = int(axis) % t.ndim
    last = t.ndim - 1
    perm = [d for d in range(t.ndim) if d != axis] + [axis]
    moved = array_ops.transpose(t, perm) if axis != last else t
    shape = list(moved.shape)
    m = shape[-1]
    moved_order = array_ops.transpose(order, perm) if axis != last else order
    rows = np.arange(int(np.prod(shape[:-1], dtype=np.int64)), dtype=np.int32)[:, None] * m
    flat = array_ops.reshape(moved_order, [-1, m]) + execute.convert_to_tensor(rows)
    picked = array_ops.gather(array_ops.reshape(moved, [-1]), array_ops.reshape(flat, [-1]))
    out = array_ops.reshape(picked, shape)
    return array_ops.transpose(out, np.argsort(perm).tolist()) if axis != last else out


def top_k(input, k=1, sorted=True, index_type=None, name=None):  # noqa: A002 - TF's names
    """The ``k`` largest entries of the last axis and their indices (``tf.math.top_k``).

    Raises:
      InvalidArgumentError: ``k`` is negative or larger than the last dimension.
    """
    t = execute.convert_to_tensor(input)
    host = np.asarray(array_api.to_host(t._value))
    k = int(k)
    if host.ndim == 0:
        raise errors.InvalidArgumentError(
            None, None, "input must be >= 1-D, got shape [] [Op:TopKV2]")
    if k < 0:
        raise errors.InvalidArgumentError(None, None, f"Need k >= 0, got {k} [Op:TopKV2]")
    if host.shape[-1] < k:
        raise errors.InvalidArgumentError(
            None, None, f"input must have at least k columns. Had {host.shape[-1]}, needed "
                        f"{k} [Op:TopKV2]")
    indices = _order(host, -1, True)[..., :k]
    values = np.take_along_axis(host, indices, axis=-1)
    if index_type is not None:   # TF's int32 by default; int64 when asked
        indices = indices.astype(dtypes.as_dtype(index_type).as_numpy_dtype)
    out = execute.execute_multi("TopKV2", [t], [values, indices], attrs={"k": k})
    return TopKV2(*out)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
