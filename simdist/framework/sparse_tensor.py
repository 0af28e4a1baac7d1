"""``tf.sparse.SparseTensor``: a tensor stored as the indices and values of its nonzeros.

Glossary:
  indices     -- int64 [N, rank]: where each stored value sits.
  values      -- [N]: the stored values, in the order of ``indices``.
  dense_shape -- int64 [rank]: the shape of the tensor they stand for.
  to_dense    -- the full tensor, ``default_value`` (zero) where nothing is stored;
                 ``from_dense`` stores a tensor's nonzeros (in row-major order).
  traced      -- a tf.function records a SparseTensor as its three tensors (its trace key:
                 any number of values, the dense shape by value: composite_specs.py).

Mirrors tensorflow/python/framework/sparse_tensor.py and ops/sparse_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, func_graph
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.hardware import backend


class SparseTensor:
    """A sparse tensor (see the module glossary).

    Raises:
      ValueError: indices not of rank 2, values not of rank 1, or their counts differ.
    """

    def __init__(self, indices, values, dense_shape):
        self._indices = execute.convert_to_tensor(indices, dtype=dtypes.int64)
        self._values = values if isinstance(values, Tensor) else \
            execute.convert_to_tensor(values)
        self._dense_shape = execute.convert_to_tensor(dense_shape, dtype=dtypes.int64)
        if len(self._indices.shape) != 2 or len(self._values.shape) != 1:
            raise ValueError(f"SparseTensor expects indices of rank 2 and values of rank 1, "
                             f"got shapes {self._indices.shape} and {self._values.shape}.")
        n, m = self._indices.shape[0], self._values.shape[0]
        if n is not None and m is not None and n != m:   # (unknown in a trace: not checked)
            raise ValueError(f"SparseTensor has {self._indices.shape[0]} indices but "
                             f"{self._values.shape[0]} values.")

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        if func_graph.is_symbolic(self._dense_shape):
            return TensorShape([None] * (self._dense_shape.shape[0] or 0))
        return TensorShape([int(d) for d in host(self._dense_shape)])

    def __mul__(self, other):
        from simdist.framework.ops import sparse_ops

        return sparse_ops.dense_cwise("SparseDenseCwiseMul", np.multiply, self, other)

    def __truediv__(self, other):
        from simdist.framework.ops import sparse_ops

        return sparse_ops.dense_cwise("SparseDenseCwiseDiv", np.true_divide, self, other)

    def __repr__(self) -> str:
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __str__ = __repr__


# In a traced function: recorded as its three tensors (TF's CompositeTensor).
func_graph.register_composite(
    SparseTensor, lambda x: (x.indices, x.values, x.dense_shape), lambda p: SparseTensor(*p))


def to_dense(sp_input, default_value=None, validate_indices=True, name=None) -> Tensor:
    """The dense tensor ``sp_input`` stands for.

    Raises:
      TypeError: not a SparseTensor.
      InvalidArgumentError: an index out of the dense shape, or (``validate_indices``)
        repeated or out of row-major order (TF's texts).
    """
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(sp_input).__name__}.")
    idx = host(sp_input.indices)
    shape = tuple(int(d) for d in host(sp_input.dense_shape))
    vals = host(sp_input.values)
    if execute.in_shape_inference():   # placeholders of a trace: the shape only
        idx = idx[:0]

    def text(index):   # TF's "[0,5]"
        return "[" + ",".join(str(int(i)) for i in index) + "]"

    for n, index in enumerate(idx):
        if any(i < 0 or i >= d for i, d in zip(index, shape)):
            raise errors.InvalidArgumentError(
                None, None, f"indices[{n}] = {text(index)} is out of bounds: need 0 <= index "
                            f"< {text(shape)} [Op:SparseToDense]")
        if validate_indices and n and tuple(index) <= tuple(idx[n - 1]):
            what = "repeated" if tuple(index) == tuple(idx[n - 1]) else "out of order"
            raise errors.InvalidArgumentError(
                None, None, f"indices[{n}] = {text(index)} is {what}. Many sparse ops require "
                            "sorted indices.\n    Use `tf.sparse.reorder` to create a "
                            "correctly ordered copy.\n\n [Op:SparseToDense]")
    fill = default_value if default_value is not None else (b"" if vals.dtype == object else 0)
    if isinstance(fill, str):
        fill = fill.encode()
    out = np.full(shape, fill, dtype=vals.dtype)
    for index, v in zip(idx, vals):
        out[tuple(index)] = v
    return execute.execute("SparseToDense", [sp_input.indices, sp_input.values], out)


def from_dense(tensor, name=None) -> SparseTensor:
    """The nonzero (non-empty) entries of ``tensor`` as a SparseTensor."""
    t = execute.convert_to_tensor(tensor)
    arr = host(t)
    mask = arr != (b"" if arr.dtype == object else 0)
    idx = np.argwhere(mask).astype(np.int64)
    return SparseTensor(idx, execute.convert_to_tensor(arr[mask]),
                        np.asarray(arr.shape, np.int64))


def host(t) -> np.ndarray:
    """A tensor's values on the host (a symbolic tensor's placeholders, in a recorded op)."""
    return np.asarray(backend.to_host(t._value))


# While a tf.function traces, each is one node of the graph.
to_dense = func_graph.recorded(to_dense)
from_dense = func_graph.recorded(from_dense)
