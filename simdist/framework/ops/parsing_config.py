"""The feature configurations ``tf.io.parse_example`` reads examples with.

Glossary:
  FixedLenFeature  -- a dense tensor of ``shape`` per example (every dimension known); an
                      example without it takes ``default_value``, or fails without one.
  FixedLenSequenceFeature -- a dense tensor of ``[None] + shape`` per example, padded to
                      the batch's longest with ``default_value`` (0 or b"").
  VarLenFeature    -- a SparseTensor of each example's values (``[batch, longest]``).
  RaggedFeature    -- a RaggedTensor of the values of ``value_key`` (the feature's own key
                      by default), nested by ``partitions`` (outermost first): RowSplits,
                      RowLengths, RowStarts, RowLimits, ValueRowIds (keys of int64
                      features of each example) or UniformRowLength (a length).
  params           -- the keys in sorted order, as TF hands them to its ParseExampleV2
                      kernel: sparse (VarLen), dense (FixedLen...), ragged (each
                      RaggedFeature's value key and partition keys).

Mirrors tensorflow/python/ops/parsing_config.py.
"""

from __future__ import annotations

import collections

from simdist.framework import dtypes
from simdist.framework.tensor_shape import TensorShape


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """Configuration for parsing a variable-length input feature into a SparseTensor."""


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """Configuration for parsing a fixed-length input feature."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """Configuration for parsing a variable-length input feature into a padded Tensor."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """Configuration for parsing a RaggedTensor input feature."""

    RowSplits = collections.namedtuple("RowSplits", ["key"])
    RowLengths = collections.namedtuple("RowLengths", ["key"])
    RowStarts = collections.namedtuple("RowStarts", ["key"])
    RowLimits = collections.namedtuple("RowLimits", ["key"])
    ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
    UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])
    _PARTITION_TYPES = (RowSplits, RowLengths, RowStarts, RowLimits, ValueRowIds,
                        UniformRowLength)

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        if value_key is not None:
            if not isinstance(value_key, str):
                raise ValueError(f"Argument `value_key` must be a string; got {value_key}")
            if not value_key:
                raise ValueError("Argument `value_key` must not be empty")
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int64, dtypes.float32, dtypes.string):
            raise ValueError("Argument `dtype` must be int64, float32, or bytes; got "
                             f"{dtype!r}")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("Argument `row_splits_dtype` must be int32 or int64; got"
                             f"{row_splits_dtype!r}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError("Argument `partitions` must be a list or tuple. Received"
                            f"partitions={partitions} of type {type(partitions).__name__}.")
        for partition in partitions:
            if not isinstance(partition, cls._PARTITION_TYPES):
                raise TypeError("Argument `partitions` must be a list of partition objects "
                                f"{cls._PARTITION_TYPES}; got: {partition!r}")
        if not isinstance(validate, bool):
            raise TypeError(f"Argument `validate` must be a bool; got {validate!r}")
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)


class ParseOpParams:
    """The kernel's keys: sparse, dense and ragged, each in sorted key order."""

    def __init__(self, features):
        self.sparse, self.dense, self.ragged = {}, {}, {}
        for key in sorted(features):
            feature = features[key]
            if isinstance(feature, VarLenFeature):
                self.sparse[key] = dtypes.as_dtype(feature.dtype)
            elif isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
                self._add_dense(key, feature)
            elif isinstance(feature, RaggedFeature):
                self._add_ragged(feature.value_key or key, feature.dtype,
                                 feature.row_splits_dtype)
                for p in feature.partitions:
                    if not isinstance(p, RaggedFeature.UniformRowLength):
                        self._add_ragged(p.key, dtypes.int64, feature.row_splits_dtype)
            else:
                raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key "
                                 f"'{key}'")

    def _add_dense(self, key, feature):
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        shape = TensorShape(feature.shape)
        if isinstance(feature, FixedLenFeature):
            if feature.shape and shape.rank and shape.as_list()[0] is None:
                raise ValueError(f"First dimension of shape for feature {key} unknown. "
                                 "Consider using FixedLenSequenceFeature. Received "
                                 f"feature={feature}.")
            if not shape.is_fully_defined():
                raise ValueError(f"All dimensions of shape for feature {key} need to be "
                                 f"known but received {feature.shape!s}.")
        self.dense[key] = feature

    def _add_ragged(self, key, value_type, split_type):
        if key in self.ragged:
            old_value, old_split = self.ragged[key]
            if old_value != value_type:
                raise ValueError(f"Conflicting type {old_value} vs {value_type} for feature "
                                 f"{key}.")
            if old_split != split_type:
                raise ValueError(f"Conflicting partition type {old_split} vs {split_type} "
                                 f"for feature {key}.")
        else:
            self.ragged[key] = (value_type, split_type)

    def attrs(self) -> str:
        """The int attrs in the name of TF's wrapped ParseExampleV2 function."""
        return (f"Tdense_{len(self.dense)}_num_sparse_{len(self.sparse)}_ragged_split_types_"
                f"{len(self.ragged)}_ragged_value_types_{len(self.ragged)}_sparse_types_"
                f"{len(self.sparse)}")
