"""``shuffle``: TF's buffer shuffle, seeded like TF's random ops.

Glossary:
  buffer     -- the first ``buffer_size`` elements fill a buffer; each output is a uniformly
                random slot of it, and that slot is refilled with the next input element
                (or, once the input is exhausted, with the buffer's last element). A small
                buffer therefore only shuffles locally: element ``k`` can come out no
                earlier than position ``k - buffer_size + 1``.
  seeds      -- ``seed`` is the op seed; with the global seed (``tf.random.set_seed``) the
                order is reproducible, as in TF (the numbers themselves differ from TF's
                Philox stream). With no seed at all each dataset draws fresh entropy.
  reshuffle_each_iteration -- each new pass (``iter``, next epoch of ``repeat``) draws a new
                order; with False every pass repeats the first order.

Mirrors tensorflow/python/data/ops/shuffle_op.py (kernel: core/kernels/data/shuffle_dataset_op.cc).
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from simdist.data.dataset_ops import UNKNOWN_CARDINALITY, DatasetV2
from simdist.framework import errors

_SENTINEL = object()


def _op_seeds(seed):
    """(global seed, op seed) from simdist's random module, or fresh entropy without seeds."""
    try:
        from simdist.framework.ops import random_ops
    except ImportError:  # random ops not built yet: plain op seed or entropy
        random_ops = None
    get_seed = getattr(random_ops, "get_seed", None)
    if get_seed is not None:
        g, o = get_seed(seed)
    else:
        g, o = (87654321, int(seed)) if seed is not None else (None, None)
    if g is None:
        return [int(x) for x in np.random.SeedSequence().generate_state(2)]
    return [int(g) & 0xFFFFFFFF, int(o) & 0xFFFFFFFF]


def buffer_shuffle(items, buffer_size: int, rng: np.random.Generator):
    """Yield ``items`` in TF's buffer-shuffle order (``buffer_size < 0``: unbounded buffer)."""
    items = iter(items)
    buf = list(items) if buffer_size < 0 else list(itertools.islice(items, buffer_size))
    draws = rng.random(1024)
    k = 0
    while buf:
        if k == len(draws):
            draws, k = rng.random(1024), 0
        i = int(draws[k] * len(buf))
        k += 1
        out = buf[i]
        nxt = next(items, _SENTINEL)
        if nxt is _SENTINEL:
            # input exhausted: the buffer drains, its last element filling the hole
            buf[i] = buf[-1]
            buf.pop()
        else:
            buf[i] = nxt
        yield out


class ShuffleDataset(DatasetV2):
    """The input's elements in a random order (TF's buffer shuffle)."""

    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=True):
        if isinstance(buffer_size, float):
            raise TypeError(f"Cannot convert {buffer_size!r} to EagerTensor of dtype int64")
        buffer_size = int(buffer_size)
        if buffer_size <= 0 and buffer_size != UNKNOWN_CARDINALITY:
            raise errors.InvalidArgumentError(
                None, None, "buffer_size must be greater than zero or UNKNOWN_CARDINALITY "
                            f"(got {buffer_size}). [Op:ShuffleDatasetV3]")
        self._buffer_size = -1 if buffer_size == UNKNOWN_CARDINALITY else buffer_size
        self._seeds = _op_seeds(seed)
        self._reshuffle = bool(reshuffle_each_iteration)
        self._epoch = itertools.count()
        self._lock = threading.Lock()
        super().__init__((input_dataset,), input_dataset.element_spec)

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()

    def _rng(self) -> np.random.Generator:
        with self._lock:
            epoch = next(self._epoch) if self._reshuffle else 0
        return np.random.default_rng(self._seeds + [epoch])

    def _order(self, items, n):
        rng = self._rng()
        if n >= 0 and (self._buffer_size < 0 or self._buffer_size >= n):
            # A buffer holding everything draws a uniform permutation: do it in one call.
            items = list(items)
            return iter([items[i] for i in rng.permutation(len(items))])
        return buffer_shuffle(items, self._buffer_size, rng)

    def _index_stream(self):
        stream = self._inputs[0]._index_stream()
        if stream is None:
            return None
        source, indices = stream
        return source, self._order(indices, self._inputs[0]._cardinality())

    def _values(self):
        stream = self._index_stream()
        if stream is not None:
            source, indices = stream
            for i in indices:
                yield source._row(i)
            return
        yield from self._order(self._inputs[0]._values(), UNKNOWN_CARDINALITY)
