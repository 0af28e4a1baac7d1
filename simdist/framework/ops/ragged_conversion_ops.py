"""RaggedTensor to and from dense and sparse tensors.

Glossary:
  from_tensor -- a dense tensor's rows, each cut at its length: ``lengths`` given, or the
                 row's length before its trailing ``padding`` values (a row of rank > 1
                 counts as padding when all of it is); ``ragged_rank`` outer dimensions
                 become ragged.
  to_tensor   -- the rows padded with ``default_value`` to the bounding shape, or to
                 ``shape`` (its None dimensions the bounding shape's; longer rows cut).
  to_sparse   -- every value at its index, the bounding shape as the dense shape.
  from_sparse -- the rows of a 2-D SparseTensor, its values in index order.

Mirrors tensorflow/python/ops/ragged/ragged_tensor.py (from_tensor, to_tensor, to_sparse,
from_sparse).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute, op_recording
from simdist.framework.ragged_tensor import RaggedTensor, host


def from_tensor(tensor, lengths=None, padding=None, ragged_rank=1):
    """See the module glossary.

    Raises:
      ValueError: ``ragged_rank`` not below the tensor's rank, or both lengths and padding.
    """
    t = execute.convert_to_tensor(tensor)
    if not 0 < ragged_rank < max(t.ndim, 1):
        raise ValueError(f"ragged_rank must be greater than 0 and less than the rank of "
                         f"tensor ({t.ndim}); got {ragged_rank}.")
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if ragged_rank > 1:
        # The outer dimensions become uniform partitions of the inner ragged tensor.
        from simdist.framework.ops import array_ops

        shape = [int(d) for d in t.shape]
        inner = from_tensor(array_ops.reshape(t, [shape[0] * shape[1]] + shape[2:]),
                            lengths, padding, ragged_rank - 1)
        splits = np.arange(shape[0] + 1, dtype=np.int64) * shape[1]
        return RaggedTensor(inner, execute.convert_to_tensor(splits), internal=True)
    arr = np.asarray(host(t))
    nrows, ncols = arr.shape[0], arr.shape[1]
    if lengths is not None:
        lens = np.minimum(np.asarray(host(execute.convert_to_tensor(lengths)), np.int64),
                          ncols)
    elif padding is not None:
        pad = np.asarray(host(execute.convert_to_tensor(padding, dtype=t.dtype)))
        is_pad = (arr == pad).reshape(nrows, ncols, -1).all(axis=2)
        real = ~is_pad
        # The length is one past the last value that is not padding.
        lens = np.where(real.any(axis=1), ncols - np.argmax(real[:, ::-1], axis=1), 0)
    else:
        lens = np.full(nrows, ncols, np.int64)
    keep = np.arange(ncols)[None, :] < lens[:, None]
    from simdist.framework.ops import selection_ops

    values = selection_ops.boolean_mask(t, execute.convert_to_tensor(keep))
    return RaggedTensor.from_row_lengths(values, lens.astype(np.int64), validate=False)


def to_tensor(rt, default_value=None, shape=None):
    """See the module glossary."""
    bounding = [int(d) for d in host(rt.bounding_shape())]
    if shape is not None:
        want = [None if d is None else int(d) for d in _dims(shape)]
        bounding = [b if w is None else w for b, w in zip(bounding, want)]
    flat = np.asarray(host(rt.flat_values))
    fill = default_value if default_value is not None else (
        b"" if flat.dtype == object else 0)
    if isinstance(fill, str):
        fill = fill.encode()
    out = np.full(bounding, fill, dtype=flat.dtype)
    _fill(out, rt.to_list())
    return execute.execute("RaggedTensorToTensor", [rt.flat_values], out)


def _dims(shape):
    if hasattr(shape, "as_list"):
        return shape.as_list()
    return list(shape)


def _fill(out, rows) -> None:
    for i, row in enumerate(rows[:out.shape[0]]):
        if not row:
            continue
        if out.ndim > 1 and isinstance(row, list) and row and isinstance(row[0], list):
            _fill(out[i], row)
        else:
            row = row[:out.shape[1]] if out.ndim > 1 else row
            out[i][:len(row)] = row


def to_sparse(rt):
    """See the module glossary."""
    from simdist.framework.ops import array_ops
    from simdist.framework.sparse_tensor import SparseTensor

    index = np.arange(rt.nrows_int(), dtype=np.int64)[:, None]
    level = rt
    while isinstance(level, RaggedTensor):
        s = level._splits()
        lens = s[1:] - s[:-1]
        within = np.arange(s[-1], dtype=np.int64) - np.repeat(s[:-1], lens)
        index = np.concatenate([np.repeat(index, lens, axis=0), within[:, None]], axis=1)
        level = level.values
    for d in level.shape[1:]:   # the flat values' uniform dimensions, row-major
        d = int(d)
        index = np.concatenate([np.repeat(index, d, axis=0),
                                np.tile(np.arange(d, dtype=np.int64), len(index))[:, None]],
                               axis=1)
    values = array_ops.reshape(level, [-1])
    return SparseTensor(index, values, rt.bounding_shape())


def from_sparse(st_input):
    """See the module glossary.

    Raises:
      ValueError: a SparseTensor not of rank 2.
    """
    from simdist.framework.sparse_tensor import SparseTensor

    if not isinstance(st_input, SparseTensor):
        raise TypeError(f"st_input must be a SparseTensor, got {type(st_input).__name__}.")
    if st_input.indices.shape[1] != 2:
        raise ValueError("rank(st_input) must be 2.")
    idx = np.asarray(host(st_input.indices))
    nrows = int(np.asarray(host(st_input.dense_shape))[0])
    return RaggedTensor.from_value_rowids(st_input.values, idx[:, 0], nrows, validate=False)


# While a tf.function traces, each ragged op is one node of the graph (its RaggedTensors
# recorded as their components), run again on the values at each execution.
op_recording.record_here(__name__)
