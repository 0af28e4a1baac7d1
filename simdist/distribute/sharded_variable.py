"""``ShardedVariable`` and the variable partitioners of ParameterServerStrategy.

Glossary:
  Partitioner            -- ``partitioner(shape, dtype)`` -> shards per axis, e.g. ``[3, 1]``
                            (only the first axis is split): ``FixedShardsPartitioner``
                            (a fixed count), ``MinSizePartitioner`` (each shard at least
                            ``min_shard_bytes``), ``MaxSizePartitioner`` (each at most
                            ``max_shard_bytes``); a string element counts ``bytes_per_string``.
  ShardedVariable        -- one logical variable kept as a list of variables split along
                            axis 0 (its shards, ``w/part_0`` ...); reads concatenate them,
                            ``assign*`` slices the value and writes each shard.
  div split              -- ``first_axis_shards(rows, n)``: the first ``rows % n`` shards take
                            one row more (10 rows in 4 -> 3, 3, 2, 2), as TF's "div" strategy.
  checkpoint             -- a ShardedVariable is saved as one full value under its own path,
                            so it restores into any number of shards (TF saves its shards as
                            slices of one full tensor).

Mirrors tensorflow/python/distribute/sharded_variable.py, the partitioner functions of
tensorflow/python/ops/partitioned_variables.py and the split in
tensorflow/python/distribute/parameter_server_strategy_v2.py (``_create_variable``).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence

from simdist.distribute.values import OPERATORS
from simdist.framework import dtypes, execute
from simdist.framework.ops import array_ops
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.variables import Variable


class Partitioner:
    """Base of the partitioners: ``partitioner(shape, dtype)`` -> shards per axis."""

    def __call__(self, shape, dtype, axis=0):
        raise NotImplementedError


def _positive(name, value, colon=": "):
    if value < 1:
        raise ValueError(f"Argument `{name}` must be positive.{' ' if colon else ''}"
                         f"Received{colon}{value}")


def _element_bytes(dtype, bytes_per_string) -> int:
    # simdist has no string tensors, but a partitioner is also asked about a string
    # variable's shape by name, as TF's partitioners are.
    if getattr(dtype, "name", dtype) == "string":
        return bytes_per_string
    return dtypes.as_dtype(dtype).size


class FixedShardsPartitioner(Partitioner):
    """``num_shards`` shards, fewer when the axis has fewer rows."""

    def __init__(self, num_shards):
        self._num_shards = num_shards

    def __call__(self, shape, dtype, axis=0):
        shape = TensorShape(shape)
        result = [1] * len(shape)
        result[axis] = min(self._num_shards, shape[axis])
        return result


class MinSizePartitioner(Partitioner):
    """As many shards as keep each at least ``min_shard_bytes``, at most ``max_shards``."""

    def __init__(self, min_shard_bytes=256 << 10, max_shards=1, bytes_per_string=16):
        _positive("min_shard_bytes", min_shard_bytes)
        _positive("max_shards", max_shards)
        _positive("bytes_per_string", bytes_per_string)
        self._min_shard_bytes = min_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        # TF's min_max_variable_partitioner: total bytes / minimum, capped by rows and max.
        shape = TensorShape(shape)
        if axis >= len(shape):
            raise ValueError(f"Cannot partition variable along axis {axis} when shape is "
                             f"only {shape}")
        total = shape.num_elements() * _element_bytes(dtype, self._bytes_per_string)
        result = [1] * len(shape)
        result[axis] = max(1, min(shape[axis], self._max_shards,
                                  int(math.ceil(total / self._min_shard_bytes))))
        return result


class MaxSizePartitioner(Partitioner):
    """As few shards as keep each at most ``max_shard_bytes`` (``max_shards`` wins)."""

    def __init__(self, max_shard_bytes, max_shards=None, bytes_per_string=16):
        _positive("max_shard_bytes", max_shard_bytes, colon=" ")
        if max_shards:
            _positive("max_shards", max_shards, colon=" ")
        _positive("bytes_per_string", bytes_per_string)
        self._max_shard_bytes = max_shard_bytes
        self._max_shards = max_shards
        self._bytes_per_string = bytes_per_string

    def __call__(self, shape, dtype, axis=0):
        # TF's variable_axis_size_partitioner: whole slices along ``axis`` per shard, >= 1.
        shape = TensorShape(shape)
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        slice_bytes = shape.num_elements() / shape[axis] * _element_bytes(
            dtype, self._bytes_per_string)
        slices_per_shard = max(1, math.floor(self._max_shard_bytes / slice_bytes))
        shards = int(math.ceil(shape[axis] / slices_per_shard))
        if self._max_shards:
            shards = min(self._max_shards, shards)
        result = [1] * len(shape)
        result[axis] = shards
        return result


def first_axis_shards(rows: int, num_partitions: int) -> list:
    """Row offsets of TF's "div" split: ``[0, ..., rows]``, the first shards one row longer."""
    n = min(num_partitions, rows)
    base, extra = divmod(rows, n)
    offsets = [0]
    for i in range(n):
        offsets.append(offsets[-1] + base + (1 if i < extra else 0))
    return offsets


class ShardedVariable:
    """One variable stored as shards split along axis 0 (TF's ``ShardedVariable``).

    Raises:
      TypeError: ``variables`` is not a non-empty list of Variables.
      ValueError: the shards differ in dtype or in their shape past the first axis.
    """

    # A checkpoint saves it as one value (trackable.is_leaf), as TF's slice-saveables do.
    _saved_as_one_variable = True

    def __init__(self, variables, name="ShardedVariable"):
        if (not isinstance(variables, Sequence) or not variables
                or any(not isinstance(v, Variable) for v in variables)):
            raise TypeError("Argument `variables` should be a non-empty list of "
                            f"`variables.Variable`s. Received {variables}")
        if len({v.dtype for v in variables}) > 1:
            raise ValueError("All elements in argument `variables` must have the same dtype. "
                             f"Received dtypes: {[v.dtype for v in variables]}")
        if len({tuple(v.shape.as_list()[1:]) for v in variables}) > 1:
            raise ValueError("All elements in argument `variables` must have the same shapes "
                             "except for the first axis. "
                             f"Received shapes: {[v.shape for v in variables]}")
        self._variables = list(variables)
        self._name = name
        self._dtype = variables[0].dtype
        rows = [int(v.shape[0]) for v in variables]
        self._shape = TensorShape([sum(rows)] + variables[0].shape.as_list()[1:])
        self._offsets = [sum(rows[:i]) for i in range(len(rows) + 1)]
        for v in variables:
            v._sharded_container = weakref.ref(self)

    @property
    def variables(self) -> list:
        """The shards, in order along axis 0."""
        return self._variables

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def trainable(self) -> bool:
        return self._variables[0].trainable

    def get_shape(self) -> TensorShape:
        return self._shape

    def __iter__(self):
        """TF iterates the shards, not the rows."""
        return iter(self._variables)

    def _as_tensor(self):
        return array_ops.concat([v.read_value() for v in self._variables], axis=0)

    def read_value(self):
        return self._as_tensor()

    def value(self):
        return self._as_tensor()

    def numpy(self):
        return self._as_tensor().numpy()

    def __array__(self, dtype=None, copy=None):
        return self._as_tensor().__array__(dtype)

    def _per_shard(self, method, value):
        """Slice ``value`` along axis 0 and call ``method`` on each shard with its part."""
        value = execute.convert_to_tensor(value, dtype=self._dtype)
        for i, v in enumerate(self._variables):
            getattr(v, method)(value[self._offsets[i]:self._offsets[i + 1]])
        return self

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Write ``value``'s rows to the shards; returns the ShardedVariable, as TF."""
        return self._per_shard("assign", value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return self._per_shard("assign_add", delta)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return self._per_shard("assign_sub", delta)

    def __repr__(self):
        return (f"<tf.ShardedVariable name='{self._name}' shape={self._shape} "
                f"dtype={self._dtype.name} shards={len(self._variables)}>")


# Operators read the full value (``_as_tensor``), as a plain variable's do.
for _name in OPERATORS:
    setattr(ShardedVariable, _name, getattr(Variable, _name))
