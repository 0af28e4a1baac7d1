"""``Dataset.unique``: each distinct element once, at its first place.

Glossary:
  element  -- one tensor of ``tf.int32``, ``tf.int64`` or ``tf.string`` (TF's TypeError
              for another dtype when the dataset is made; InvalidArgumentError for an
              element of several components). Equal means the same shape and values.
  cardinality -- unknown (-2), as TF's.

Mirrors tensorflow/python/data/ops/unique_op.py (and UniqueDatasetOp's kernel).
"""

from __future__ import annotations

from simdist.data import structure
from simdist.data.dataset_ops import DatasetV2
from simdist.framework import dtypes, errors

_SUPPORTED = (dtypes.int32, dtypes.int64, dtypes.string)


class UniqueDataset(DatasetV2):
    """The input's elements without repeats."""

    def __init__(self, input_dataset):
        spec = input_dataset.element_spec
        for leaf in structure.flatten(spec):
            if leaf.dtype not in _SUPPORTED:
                raise TypeError(
                    f"`tf.data.Dataset.unique` does not support type {leaf.dtype} -- only "
                    "`tf.int32`, `tf.int64`, and `tf.string` are supported.")
        if len(structure.flatten(spec)) != 1:
            raise errors.InvalidArgumentError(
                None, None, "UniqueDataset only supports inputs with a single component.")
        super().__init__((input_dataset,), spec)

    def _values(self):
        seen = set()
        for value in self._inputs[0]._values():
            key = (value.shape, value.tobytes() if value.dtype != object else
                   tuple(value.ravel().tolist()))
            if key not in seen:
                seen.add(key)
                yield value
