"""Indexing a RaggedTensor: ``rt[i]``, ``rt[a:b]``, ``rt[:, a:b]``, ``rt[i, j]``.

Glossary:
  outer key  -- the first item of the key picks rows: an int gives one row (a Tensor, or a
                RaggedTensor of one ragged dimension less), a slice the rows it names.
  inner key  -- the next items apply within every row: a slice keeps each row's items it
                names (counted from each row's own end when negative); an int may index a
                uniform dimension only (TF's ValueError for a ragged one).
  gather_rows -- rows of a Tensor or a RaggedTensor at given indices, in that order.

Mirrors tensorflow/python/ops/ragged/ragged_getitem.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute, op_recording
from simdist.framework.ragged_tensor import RaggedTensor, rows


def getitem(rt, key):
    """``rt[key]`` (see the module glossary).

    Raises:
      IndexError: a row index out of range.
      ValueError: an int indexing a ragged inner dimension.
      TypeError: a key of another kind (newaxis, a tensor).
    """
    key = _expand_ellipsis(key if isinstance(key, tuple) else (key,), rt.shape.rank)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    n = rt.nrows_int()
    if isinstance(first, (int, np.integer)) and not isinstance(first, bool):
        i = int(first) + (n if first < 0 else 0)
        if not 0 <= i < n:
            raise IndexError(f"Row {first} is out of range for a RaggedTensor of {n} rows.")
        s = rt._splits()
        row = rows(rt.values, int(s[i]), int(s[i + 1]))
        return row[rest] if rest else row
    if isinstance(first, slice):
        picked = np.arange(n)[first]
        out = rt if len(picked) == n and np.all(picked == np.arange(n)) else \
            gather_rows(rt, picked)
        return _inner(out, rest) if rest else out
    raise TypeError(f"simdist's RaggedTensor takes ints and slices as indices, got "
                    f"{type(first).__name__}: use to_tensor() for more.")


def _expand_ellipsis(key, dims):
    """``key`` that starts with an Ellipsis, over ``dims`` dimensions, as TF expands it one
    dimension at a time: dropped where the other indices cover every dimension, else a full
    slice put before it (taken again at the next dimension)."""
    while key and key[0] is Ellipsis:
        if len(key) > dims + 1:
            raise IndexError("Too many indices for RaggedTensor")
        key = key[1:] if len(key) == dims + 1 else (slice(None),) + key
    return key


def _inner(rt, key):
    """``key`` applied within each row of ``rt`` (its dimension 1, then deeper)."""
    key = _expand_ellipsis(key, rt.shape.rank - 1)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    s = rt._splits()
    lens = s[1:] - s[:-1]
    if isinstance(first, (int, np.integer)):
        if rt._uniform_row_length is None:
            raise ValueError("Cannot index into an inner ragged dimension.")
        idx = s[:-1] + (int(first) % rt._uniform_row_length)
        values = gather_rows(rt.values, idx)
        return _deeper(values, rest) if rest else values
    if not isinstance(first, slice):
        raise TypeError(f"simdist's RaggedTensor takes ints and slices as indices, got "
                        f"{type(first).__name__}.")
    picks = [s[r] + np.arange(int(length))[first] for r, length in enumerate(lens)]
    idx = np.concatenate(picks).astype(np.int64) if picks else np.zeros(0, np.int64)
    values = gather_rows(rt.values, idx)
    if rest:
        values = _deeper(values, rest)
    new_lens = np.asarray([len(p) for p in picks], np.int64)
    return RaggedTensor.from_row_lengths(values, new_lens, validate=False)


def _deeper(values, key):
    if isinstance(values, RaggedTensor):
        return _inner(values, key)
    return values[(slice(None),) + tuple(key)]


def gather_rows(values, idx):
    """Rows ``idx`` of a Tensor or a RaggedTensor."""
    from simdist.framework.ops import array_ops

    idx = np.asarray(idx, np.int64)
    if not isinstance(values, RaggedTensor):
        return array_ops.gather(values, execute.convert_to_tensor(idx))
    s = values._splits()
    lens = s[idx + 1] - s[idx]
    inner = np.concatenate([np.arange(s[i], s[i + 1]) for i in idx]).astype(np.int64) \
        if len(idx) else np.zeros(0, np.int64)
    return RaggedTensor.from_row_lengths(gather_rows(values.values, inner), lens,
                                         validate=False)


# While a tf.function traces, each ragged op is one node of the graph (its RaggedTensors
# recorded as their components), run again on the values at each execution.
op_recording.record_here(__name__)
