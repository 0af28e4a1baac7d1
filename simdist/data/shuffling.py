"""``shuffle``: TF's buffer shuffle, seeded like TF's random ops.

Glossary:
  buffer     -- a ring of ``buffer_size`` slots kept full from the input; each output is
                slot ``start + word % filled`` (a uniformly random one), the slot at
                ``start`` moves into its place and ``start`` moves on. A small buffer
                therefore only shuffles locally: element ``k`` can come out no earlier than
                position ``k - buffer_size + 1``.
  seeds      -- ``seed`` is the op seed, with the global seed (``tf.random.set_seed``) as
                TF's ``get_seed`` (which draws an op seed even when ``seed`` is None); the
                words are TF's Philox words, so the order is TF's. With no seed at all each
                dataset draws fresh entropy.
  reshuffle_each_iteration -- each new pass (``iter``, next epoch of ``repeat``) seeds its
                generator with the next two words of the dataset's seed generator; with
                False every pass uses the dataset's seeds and repeats the first order.

Mirrors tensorflow/python/data/ops/shuffle_op.py (kernel: core/kernels/data/shuffle_dataset_op.cc).
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import threading

import numpy as np

from simdist.data import iterator_errors
from simdist.data.dataset_ops import (
    UNKNOWN_CARDINALITY,
    DatasetV2,
    int64_argument,
    pipeline,
)
from simdist.framework.ops import random_ops
from simdist.framework.ops.philox_random import PhiloxRandom, SingleSampleAdapter

_SENTINEL = object()


def _op_seeds(seed):
    """The op's (seed, seed2) as TF's eager ``get_seed`` gives them; fresh entropy without
    any seed (TF's seeds 0, 0)."""
    g, o = random_ops.get_seed(seed)
    if g is None:
        return tuple(int(x) for x in np.random.SeedSequence().generate_state(2))
    return int(g), int(o)


def buffer_shuffle(items, buffer_size: int, words):
    """``items`` in TF's order: the buffer is a ring of ``buffer_size`` slots kept full from
    the input; each output takes slot ``start + word % filled`` and moves the slot at
    ``start`` into its place (``buffer_size < 0``: the whole input is the buffer). An
    iterator whose ``take(n)`` is ``n`` calls of ``next``."""
    return _Shuffled(_ring(iter(items), buffer_size, words), words)


class _Shuffled:
    """``buffer_shuffle``'s iterator: the ring's outputs one at a time while the input
    lasts, then the drained rest (``take`` hands out whole slices of it)."""

    def __init__(self, ring, words):
        self._ring, self._words = ring, words
        self._rest: list | None = None
        self._pos = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._rest is None:
            out = self._from_ring()
            if out is not _SENTINEL:
                return out
        if self._pos == len(self._rest):
            raise StopIteration
        self._pos += 1
        return self._rest[self._pos - 1]

    def take(self, n: int) -> list:
        """The next ``n`` outputs (fewer at the end), as a list."""
        out: list = []
        while self._rest is None and len(out) < n:
            item = self._from_ring()
            if item is not _SENTINEL:
                out.append(item)
        if self._rest is not None and len(out) < n:
            got = self._rest[self._pos:self._pos + n - len(out)]
            self._pos += len(got)
            out += got
        return out

    def _from_ring(self):
        """The ring's next output; once its input is spent, _SENTINEL, the rest drained."""
        try:
            return next(self._ring)
        except StopIteration as stop:   # _ring returns what is left in its buffer
            self._rest = _drain(stop.value, self._words)
            return _SENTINEL


def _ring(items, buffer_size: int, words):
    """The ring's outputs while the input lasts; returns what is left in the buffer (the
    slots in ring order, then the last reads) for ``_drain``. The ring is a list whose
    slots before ``head`` are spent (cut off now and then)."""
    ring: list = []
    head = 0
    while True:
        need = -1 if buffer_size < 0 else buffer_size - (len(ring) - head)
        if need == 1:   # the steady state of a small buffer: one read per output
            nxt = next(items, _SENTINEL)
            got = () if nxt is _SENTINEL else (nxt,)
        elif need:      # what the buffer lacks, read at once (as many reads, same order)
            got = list(items if need < 0 else itertools.islice(items, need))
        else:
            got = ()
        if need and (need < 0 or len(got) < need):   # the input is all read
            return ring[head:] + list(got)
        ring.extend(got)
        if head == len(ring):
            return []
        index = head + next(words) % (len(ring) - head)
        out = ring[index]
        ring[index] = ring[head]
        ring[head] = None
        head += 1
        if head >= 1024 and 2 * head >= len(ring):
            del ring[:head]
            head = 0
        yield out


def _drain(buffer: list, words) -> list:
    """The rest of ``buffer_shuffle`` once its input is exhausted: output ``k`` takes slot
    ``k + word % (n - k)`` of ``buffer`` and slot ``k`` moves into its place, the words
    drawn at once and reduced in one array operation, the swaps made in one loop."""
    n = len(buffer)
    if n == 0:
        return buffer
    take = getattr(words, "take", None)
    drawn = take(n) if take is not None else [next(words) for _ in range(n)]
    picks = (np.asarray(drawn, dtype=np.uint64) %
             np.arange(n, 0, -1, dtype=np.uint64)).astype(np.int64) + np.arange(n)
    for k, index in enumerate(picks.tolist()):   # all at once: nothing outside sees the swaps
        buffer[k], buffer[index] = buffer[index], buffer[k]
    return buffer


class PassSeeds:
    """The seeds of each pass of a seeded dataset (TF's seed generator resources):
    ``words()`` is a new pass's generator. Rerandomizing, its seeds are the next two words
    of the dataset's own generator (TF's RandomSeedGenerator), else the dataset's seeds
    (FixedSeedGenerator), so every pass repeats the first one."""

    def __init__(self, seed, rerandomize):
        self._seeds = _op_seeds(seed)
        self._rerandomize = bool(rerandomize)
        self._generator = SingleSampleAdapter(PhiloxRandom.from_seeds(*self._seeds))
        self._lock = threading.Lock()

    def words(self) -> SingleSampleAdapter:
        with self._lock:
            if self._rerandomize:
                seeds = next(self._generator), next(self._generator)
            else:
                seeds = self._seeds
        return SingleSampleAdapter(PhiloxRandom.from_seeds(*seeds))

    def state(self) -> SingleSampleAdapter:
        """Where the dataset's generator stands (``restore`` goes back there)."""
        with self._lock:
            return copy.copy(self._generator)   # its words list is replaced, never changed

    def restore(self, state: SingleSampleAdapter) -> None:
        with self._lock:
            self._generator = state


class ShuffleDataset(DatasetV2):
    """The input's elements in a random order (TF's buffer shuffle)."""

    def __init__(self, input_dataset, buffer_size, seed=None, reshuffle_each_iteration=True):
        buffer_size = int64_argument(buffer_size)
        if buffer_size <= 0 and buffer_size != UNKNOWN_CARDINALITY:
            raise iterator_errors.op_error(
                "ShuffleDatasetV3", "buffer_size must be greater than zero or "
                                    "UNKNOWN_CARDINALITY")
        self._buffer_size = -1 if buffer_size == UNKNOWN_CARDINALITY else buffer_size
        self._pass_seeds = PassSeeds(seed, reshuffle_each_iteration)
        super().__init__((input_dataset,), input_dataset.element_spec)

    def _cardinality(self) -> int:
        return self._inputs[0]._cardinality()

    def _order(self, items, n):
        return buffer_shuffle(items, self._buffer_size, self._pass_seeds.words())

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


def unread_pass(dataset) -> None:
    """An iterator made and never read (TF's enumerate_epochs makes one before fit's first
    epoch): each rerandomizing shuffle or random source of the pipeline draws the seeds of
    that pass, as TF's iterators draw theirs when they are made; nothing else runs."""
    for seeds in _pass_seeds_of(dataset):
        seeds.words()


@contextlib.contextmanager
def seeds_kept(dataset):
    """A look at ``dataset``'s elements that is no pass: the seeds it draws are given back
    (an eager dataset function's spec read off a first element, where TF's trace runs no
    iterator and draws none)."""
    kept = [(seeds, seeds.state()) for seeds in _pass_seeds_of(dataset)]
    try:
        yield
    finally:
        for seeds, state in kept:
            seeds.restore(state)


def _pass_seeds_of(dataset) -> list:
    """The PassSeeds of each shuffle or random source of the pipeline."""
    return [ds._pass_seeds for ds in pipeline(dataset)
            if getattr(ds, "_pass_seeds", None) is not None]
