"""Selecting and combining elements: zip, concatenate, repeat, take, skip, shard (and
enumerate via zip).

Glossary:
  ZipDataset    -- elements of several datasets side by side (a tuple or dict of them);
                   ends with the shortest input.
  ConcatenateDataset -- one dataset's elements, then another's; their element specs must
                   have the same structure and dtypes, and differing dimensions become None.
  RepeatDataset -- the input again and again (``count`` passes, forever for None / -1); each
                   pass is a fresh iteration, so a reshuffling ``shuffle`` reorders each epoch.
  TakeDataset / SkipDataset -- the first ``count`` elements / all but them (-1: all / none).
  ShardDataset  -- elements ``index, index + num_shards, ...``: what DATA auto-sharding
                   inserts for each worker.

Mirrors tensorflow/python/data/ops/zip_op.py, concatenate_op.py, repeat_op.py, take_op.py,
skip_op.py and
shard_op.py.
"""

from __future__ import annotations

import itertools

from simdist.data import structure
from simdist.data.dataset_ops import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetV2,
    int64_argument,
)
from simdist.framework import errors


class ZipDataset(DatasetV2):
    """Several datasets iterated in lock-step; elements keep the structure of ``datasets``."""

    def __init__(self, datasets):
        flat = [datasets] if isinstance(datasets, list) else structure.flatten(datasets)
        for d in flat:
            if isinstance(d, list):   # at the top or inside the structure
                raise TypeError(
                    "Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                    "`tf.data.Dataset` objects. Python `list` is not supported and you should "
                    "use `tuple` instead.")
            if not isinstance(d, DatasetV2):
                raise TypeError(
                    "Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                    f"`tf.data.Dataset` objects, got {type(d).__name__}.")
        self._structure = datasets
        spec = structure.pack(datasets, [d.element_spec for d in flat])
        super().__init__(flat, spec)

    def _cardinality(self) -> int:
        cards = [d._cardinality() for d in self._inputs]
        finite = [c for c in cards if c >= 0]
        if finite:
            return min(finite)
        return UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in cards else INFINITE_CARDINALITY

    def _values(self):
        for parts in zip(*(d._values() for d in self._inputs)):
            yield structure.pack(self._structure, parts)


class ConcatenateDataset(DatasetV2):
    """The elements of ``input_dataset``, then those of ``dataset_to_concatenate``."""

    def __init__(self, input_dataset, dataset_to_concatenate):
        if not isinstance(dataset_to_concatenate, DatasetV2):
            raise TypeError(f"`dataset` must be a tf.data.Dataset, got "
                            f"{type(dataset_to_concatenate).__name__}.")
        a, b = input_dataset.element_spec, dataset_to_concatenate.element_spec
        try:
            structure.assert_same_structure(a, b)
            if any(x.dtype != y.dtype for x, y in zip(structure.flatten(a),
                                                       structure.flatten(b))):
                raise TypeError("different dtypes")
        except TypeError as e:
            raise TypeError(f"Incompatible dataset elements:\n  {a} vs.   {b}") from e
        super().__init__((input_dataset, dataset_to_concatenate), structure.relax_spec(a, b))

    def _cardinality(self) -> int:
        cards = [d._cardinality() for d in self._inputs]
        if INFINITE_CARDINALITY in cards:
            return INFINITE_CARDINALITY
        return UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in cards else sum(cards)

    def _values(self):
        for d in self._inputs:
            yield from d._values()


class RepeatDataset(DatasetV2):
    """The input repeated ``count`` times (forever when None or -1)."""

    def __init__(self, input_dataset, count=None):
        self._count = -1 if count is None else int64_argument(count)
        super().__init__((input_dataset,), input_dataset.element_spec)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if self._count == 0 or n == 0:
            return 0
        if self._count < 0:
            return INFINITE_CARDINALITY   # TF: also when the input's count is unknown
        return n * self._count if n >= 0 else n

    def _passes(self):
        return itertools.count() if self._count < 0 else range(self._count)

    def _index_stream(self):
        first = self._inputs[0]._index_stream()
        if first is None:
            return None
        source = first[0]

        def indices():
            for k in self._passes():
                stream = first if k == 0 else self._inputs[0]._index_stream()
                empty = True
                for i in stream[1]:
                    empty = False
                    yield i
                if empty:  # repeating an empty dataset ends, as in TF
                    return

        return source, indices()

    def _values(self):
        for _ in self._passes():
            empty = True
            for v in self._inputs[0]._values():
                empty = False
                yield v
            if empty:  # repeating an empty dataset ends, as in TF
                return


class TakeDataset(DatasetV2):
    """At most ``count`` elements of the input (all of them for -1)."""

    def __init__(self, input_dataset, count):
        self._count = int64_argument(count)
        super().__init__((input_dataset,), input_dataset.element_spec)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if self._count < 0:
            return n
        if n == UNKNOWN_CARDINALITY:
            return UNKNOWN_CARDINALITY
        return self._count if n == INFINITE_CARDINALITY else min(n, self._count)

    def _index_stream(self):
        stream = self._inputs[0]._index_stream()
        if stream is None or self._count < 0:
            return stream
        return stream[0], itertools.islice(stream[1], self._count)

    def _values(self):
        it = self._inputs[0]._values()
        yield from (it if self._count < 0 else itertools.islice(it, self._count))


class SkipDataset(DatasetV2):
    """The input without its first ``count`` elements (nothing for -1)."""

    def __init__(self, input_dataset, count):
        self._count = int64_argument(count)
        super().__init__((input_dataset,), input_dataset.element_spec)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        return 0 if self._count < 0 else max(0, n - self._count)

    def _index_stream(self):
        stream = self._inputs[0]._index_stream()
        if stream is None:
            return None
        if self._count < 0:
            return stream[0], iter(())
        return stream[0], itertools.islice(stream[1], self._count, None)

    def _values(self):
        if self._count < 0:
            return
        yield from itertools.islice(self._inputs[0]._values(), self._count, None)


class ShardDataset(DatasetV2):
    """Elements ``index, index + num_shards, index + 2 * num_shards, ...`` of the input."""

    def __init__(self, input_dataset, num_shards, index):
        num_shards, index = int64_argument(num_shards), int64_argument(index)
        if num_shards <= 0:
            raise errors.InvalidArgumentError(
                None, None, "Number of shards must be greater than zero "
                            f"(currently num_shards = {num_shards}). [Op:ShardDataset]")
        if not 0 <= index < num_shards:
            raise errors.InvalidArgumentError(
                None, None, f"Index must be between 0 and {num_shards - 1} "
                            f"(currently index = {index}). [Op:ShardDataset]")
        self._num_shards, self._index = num_shards, index
        super().__init__((input_dataset,), input_dataset.element_spec)

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        if n < 0:
            return n
        return n // self._num_shards + (1 if n % self._num_shards > self._index else 0)

    def _index_stream(self):
        stream = self._inputs[0]._index_stream()
        if stream is None:
            return None
        return stream[0], itertools.islice(stream[1], self._index, None, self._num_shards)

    def _values(self):
        yield from itertools.islice(self._inputs[0]._values(), self._index, None,
                                    self._num_shards)
