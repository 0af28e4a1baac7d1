"""Pipeline plumbing: prefetch, cache, and options attached to a dataset.

Glossary:
  PrefetchDataset -- ``prefetch(n)``: in TF a background thread keeps ``n`` elements ready
                     (``AUTOTUNE`` = -1 lets tf.data choose). simdist yields the same elements
                     in the same order, reading one ahead; the distributed input layer reads
                     ``buffer_size`` to overlap host-to-device copies with compute in
                     simulated time.
  CacheDataset    -- ``cache()``: the first complete pass is recorded and later passes replay
                     it (so ``shuffle().cache()`` freezes one order; ``cache().shuffle()`` does
                     not). An interrupted first pass records nothing, as in TF.
  OptionsDataset  -- ``with_options(options)``: the same elements with options merged in.

Mirrors tensorflow/python/data/ops/prefetch_op.py, cache_op.py and options_op.py.
"""

from __future__ import annotations

from simdist.data.dataset_ops import AUTOTUNE, DatasetV2
from simdist.framework import errors


class _PassThrough(DatasetV2):
    def __init__(self, input_dataset):
        super().__init__((input_dataset,), input_dataset.element_spec)

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()

    def _index_stream(self):
        return self._inputs[0]._index_stream()

    def _values(self):
        return self._inputs[0]._values()


class PrefetchDataset(_PassThrough):
    """The input's elements, with ``buffer_size`` of them prepared ahead."""

    def __init__(self, input_dataset, buffer_size):
        if isinstance(buffer_size, float):
            raise TypeError(f"Cannot convert {buffer_size!r} to EagerTensor of dtype int64")
        buffer_size = int(buffer_size)
        if buffer_size < AUTOTUNE:
            raise errors.InvalidArgumentError(
                None, None, "buffer_size must be >= 0 or set buffer_size to be -1 for "
                            f"auto-tuning (got {buffer_size}). [Op:PrefetchDataset]")
        self.buffer_size = buffer_size
        super().__init__(input_dataset)

    # TF's prefetch thread reads ahead of the consumer: simdist reads one element ahead, so
    # a ``cache()`` before it completes when its last element is taken (TF's tutorials'
    # ``.cache().prefetch(AUTOTUNE)`` replays the first epoch's order in a fit, whose
    # epochs read exactly their steps). An error is still raised at its own position.
    def _index_stream(self):
        stream = self._inputs[0]._index_stream()
        return None if stream is None else (stream[0], _read_ahead(stream[1]))

    def _values(self):
        return _read_ahead(self._inputs[0]._values())


def _read_ahead(items):
    """``items``'s elements, the next one read before each is given out."""
    items = iter(items)
    pending = _pull(items)
    while pending[0] == "value":
        following = _pull(items)
        yield pending[1]
        pending = following
    if pending[0] == "error":
        raise pending[1]


def _pull(items) -> tuple:
    try:
        return ("value", next(items))
    except StopIteration:
        return ("end",)
    except Exception as e:  # noqa: BLE001 - given out at its position, as TF's buffer does
        return ("error", e)


class CacheDataset(_PassThrough):
    """The elements of the input's first complete pass, replayed on every later pass."""

    _tf_name = "CacheDataset"

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        self._cache = None  # ("indices", source, list) or ("values", list)

    def _index_stream(self):
        if self._cache is not None:
            if self._cache[0] != "indices":
                return None
            return self._cache[1], iter(self._cache[2])
        stream = self._inputs[0]._index_stream()
        if stream is None:
            return None
        source, indices = stream

        def record():
            seen = []
            for i in indices:
                seen.append(i)
                yield i
            self._cache = ("indices", source, seen)

        return source, record()

    def _values(self):
        if self._cache is not None:
            if self._cache[0] == "indices":
                source = self._cache[1]
                return (source._row(i) for i in self._cache[2])
            return iter(self._cache[1])
        stream = self._index_stream()
        if stream is not None:
            source, indices = stream
            return (source._row(i) for i in indices)
        return self._record_values()

    def _record_values(self):
        seen = []
        for v in self._inputs[0]._values():
            seen.append(v)
            yield v
        self._cache = ("values", seen)


class OptionsDataset(_PassThrough):
    """The input with ``options`` merged over its own."""

    def __init__(self, input_dataset, options):
        super().__init__(input_dataset)
        self._options = options

    def options(self):
        return self._inputs[0].options().merge(self._options)
