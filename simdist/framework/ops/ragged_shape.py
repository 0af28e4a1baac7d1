"""``tf.experimental.DynamicRaggedShape`` and ``RowPartition``: the shape of a
RaggedTensor as values, and the ops that take one (``tf.shape`` of a RaggedTensor, then
``tf.reshape``, ``tf.zeros``, ``tf.ones``, ``tf.fill`` into it).

Glossary:
  RowPartition       -- one ragged (or uniform) dimension: the row splits over the rows of
                        the dimension above, and the rows' length when they are all one.
  DynamicRaggedShape -- the row partitions, outermost first, and the inner shape: the
                        shape of the flat values (its first dimension the number of
                        values under the last partition).
  lengths            -- the shape as TF prints it: the number of rows, then each
                        dimension's size, or the tuple of its rows' lengths when ragged
                        (``lengths=[4, (1, 3, 0, 2)]``).
  shape[i]           -- a uniform dimension's size (a scalar tensor of the shape's dtype);
                        a ragged one's raises ValueError ("Index 1 is not uniform").
  shape[:k]          -- the shape of the first k dimensions.

Mirrors tensorflow/python/ops/ragged/dynamic_ragged_shape.py and row_partition.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute, op_recording
from simdist.framework.ragged_tensor import RaggedTensor, host


class RowPartition:
    """One partitioned dimension (see the module glossary)."""

    def __init__(self, splits, uniform=None):
        self._splits = np.asarray(splits, np.int64)
        self._uniform = uniform

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        lens = np.asarray(host(execute.convert_to_tensor(row_lengths)), np.int64)
        return cls(np.concatenate([[0], np.cumsum(lens)]))

    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        return cls(np.asarray(host(execute.convert_to_tensor(row_splits))))

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None,
                                validate=True, dtype=None, dtype_hint=None):
        n = int(uniform_row_length)
        rows = int(nrows) if nrows is not None else int(nvals) // max(n, 1)
        return cls(np.arange(rows + 1) * n, n)

    def row_splits(self):
        return execute.convert_to_tensor(self._splits)

    def row_lengths(self):
        return execute.convert_to_tensor(self._lengths())

    def _lengths(self):
        return self._splits[1:] - self._splits[:-1]

    def nrows(self):
        return execute.convert_to_tensor(np.int64(len(self._splits) - 1))

    def nvals(self):
        return execute.convert_to_tensor(np.int64(self._splits[-1]))

    def is_uniform(self) -> bool:
        return self._uniform is not None

    def __repr__(self) -> str:
        return f"tf.RowPartition(row_splits={self.row_splits()!r})"


class DynamicRaggedShape:
    """The shape of a RaggedTensor or a Tensor (see the module glossary)."""

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=True):
        self._partitions = list(row_partitions)
        self._inner = [int(d) for d in np.asarray(host(execute.convert_to_tensor(
            inner_shape, dtype_hint=dtypes.int64))).reshape(-1)]
        self._dtype = dtypes.as_dtype(dtype or dtypes.int64)

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of a RaggedTensor or a Tensor."""
        parts, level = [], t
        while isinstance(level, RaggedTensor):
            parts.append(RowPartition(level._splits(), level._uniform_row_length))
            level = level.values
        return cls(parts, [int(d) for d in level.shape], dtype=dtype)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """The shape of the given ``lengths`` (a tuple for each ragged dimension)."""
        lengths = list(lengths)
        last_ragged = max((i for i, d in enumerate(lengths) if isinstance(d, (tuple, list))),
                          default=0)
        parts, nrows = [], int(lengths[0])
        for d in lengths[1:last_ragged + 1]:
            if isinstance(d, (tuple, list)):
                part = RowPartition.from_row_lengths(np.asarray(d, np.int64))
            else:
                part = RowPartition.from_uniform_row_length(int(d), nrows=nrows)
            parts.append(part)
            nrows = int(part._splits[-1])
        return cls(parts, [nrows] + [int(d) for d in lengths[last_ragged + 1:]], dtype=dtype)

    @property
    def row_partitions(self) -> tuple:
        return tuple(self._partitions)

    @property
    def num_row_partitions(self) -> int:
        return len(self._partitions)

    @property
    def inner_shape(self):
        return execute.convert_to_tensor(np.asarray(self._inner, np.int64))

    @property
    def dtype(self):
        return self._dtype

    @property
    def rank(self) -> int:
        return len(self._partitions) + len(self._inner)

    def _lengths(self) -> list:
        if not self._partitions:
            return list(self._inner)
        out = [len(self._partitions[0]._splits) - 1]
        for p in self._partitions:
            out.append(p._uniform if p.is_uniform() else tuple(int(x) for x in p._lengths()))
        return out + self._inner[1:]

    def __getitem__(self, key):
        lengths = self._lengths()
        if isinstance(key, slice):
            start, stop, step = key.indices(len(lengths))
            if start != 0 or step != 1:
                raise NotImplementedError("simdist's DynamicRaggedShape takes [:k] slices.")
            return DynamicRaggedShape.from_lengths(lengths[:stop], dtype=self._dtype)
        i = int(key) % len(lengths)
        if isinstance(lengths[i], tuple):
            raise ValueError(f"Index {key} is not uniform")
        return execute.convert_to_tensor(lengths[i], dtype=self._dtype)

    def _add_row_partitions(self, flat_values):
        out = flat_values
        for p in reversed(self._partitions):
            out = RaggedTensor(out, execute.convert_to_tensor(p._splits), internal=True,
                               uniform_row_length=p._uniform)
        return out

    def __repr__(self) -> str:
        text = ", ".join(f"({', '.join(str(x) for x in d)}{',' if len(d) == 1 else ''})"
                         if isinstance(d, tuple) else str(d) for d in self._lengths())
        return (f"<DynamicRaggedShape lengths=[{text}] "
                f"num_row_partitions={self.num_row_partitions}>")

    __str__ = __repr__


def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002 - TF's name
    """``tf.shape`` of a RaggedTensor: its DynamicRaggedShape."""
    return DynamicRaggedShape.from_tensor(input, dtype=out_type)


def reshape(tensor, shape, name=None):
    """A tensor's values in a DynamicRaggedShape."""
    from simdist.framework.ops import array_ops

    return shape._add_row_partitions(array_ops.reshape(tensor, shape._inner))


def zeros(shape, dtype=dtypes.float32, name=None):
    from simdist.framework.ops import array_ops

    return shape._add_row_partitions(array_ops.zeros(shape._inner, dtype))


def ones(shape, dtype=dtypes.float32, name=None):
    from simdist.framework.ops import array_ops

    return shape._add_row_partitions(array_ops.ones(shape._inner, dtype))


def fill(dims, value, name=None):
    from simdist.framework.ops import array_ops

    return dims._add_row_partitions(array_ops.fill(dims._inner, value))


# While a tf.function traces, each ragged op is one node of the graph (its RaggedTensors
# recorded as their components), run again on the values at each execution.
op_recording.record_here(__name__)
