"""TensorFlow's Philox4x32-10 counter-based generator, vectorised in NumPy.

Glossary:
  key        -- two uint32 words; raised by the Weyl constants after every round.
  counter    -- a 128-bit number kept as four uint32 words (word 0 lowest). One call of the
                generator encrypts the counter with the key (10 rounds) into four uint32
                samples, then adds one to the counter.
  Skip(n)    -- add ``n`` to the counter: the sample block ``n`` calls ahead, so any block
                can be computed without the ones before it (what TF's CPU kernels do to split
                work between threads, and what lets this module compute all blocks at once).
  PhiloxRandom(seed_lo, seed_hi) -- the stateful ops' generator: key = seed_lo's two
                words, counter = [0, 0, seed_hi's two words].
  key/counter from a seed -- ``tf.random.stateless_*`` scrambles its shape-[2] seed: the
                seed's two int64 (sign-extended) are the counter, a fixed key encrypts them,
                and the first two output words become the key, the last two the counter's
                upper half (``StatelessRandomGetKeyCounter``, also alg="philox").

Mirrors tensorflow/core/lib/random/philox_random.h and GenerateKey in
tensorflow/core/kernels/stateless_random_ops.cc.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)   # kPhiloxM4x32A / B
_W0, _W1 = 0x9E3779B9, 0xBB67AE85                          # kPhiloxW32A / B
_MASK32 = 0xFFFFFFFF
_U32 = np.uint64(_MASK32)
_SCRAMBLE_KEY = (0x3EC8F720, 0x02461E29)


def _words(value: int, n: int) -> tuple:
    return tuple((value >> (32 * i)) & _MASK32 for i in range(n))


def philox4x32_10(counters: np.ndarray, key) -> np.ndarray:
    """Encrypt each row of ``counters`` ((n, 4) uint words, word 0 lowest) with ``key``
    (two words, or two arrays of n words: a key per row): an (n, 4) uint32 array of
    samples, TF's ``PhiloxRandom::operator()`` per row."""
    c = counters.astype(np.uint64)
    c0, c1, c2, c3 = c[:, 0], c[:, 1], c[:, 2], c[:, 3]
    if np.ndim(key[0]):   # a key per row
        k0, k1 = (np.asarray(k, dtype=np.uint64) for k in key)
        w0, w1 = np.uint64(_W0), np.uint64(_W1)
        mask = _U32
    else:
        k0, k1 = int(key[0]), int(key[1])
        w0, w1, mask = _W0, _W1, _MASK32
    for _ in range(10):
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & _U32,
                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & _U32)
        k0, k1 = (k0 + w0) & mask, (k1 + w1) & mask
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


@dataclass(frozen=True)
class PhiloxRandom:
    """A (key, counter) state; ``blocks(offsets)`` are the sample blocks at
    ``counter + offset`` (each offset a Skip), without changing the state."""

    key: tuple
    counter: int   # 128 bits

    @classmethod
    def from_seeds(cls, seed_lo: int, seed_hi: int) -> PhiloxRandom:
        """TF's ``PhiloxRandom(seed_lo, seed_hi)`` (the stateful ops' seed and seed2)."""
        seed_lo, seed_hi = seed_lo % 2**64, seed_hi % 2**64
        return cls(_words(seed_lo, 2), seed_hi << 64)

    def skip(self, count: int) -> PhiloxRandom:
        return PhiloxRandom(self.key, (self.counter + int(count)) % 2**128)

    def blocks(self, offsets) -> np.ndarray:
        """(len(offsets), 4) uint32 samples: block ``offset`` calls after this state."""
        offsets = np.asarray(offsets, dtype=np.uint64)
        lo_base = np.uint64(self.counter & (2**64 - 1))
        hi_base = np.uint64(self.counter >> 64)
        with np.errstate(over="ignore"):
            lo = lo_base + offsets
            hi = hi_base + (lo < lo_base).astype(np.uint64)
        words = np.stack([lo & _U32, lo >> np.uint64(32), hi & _U32, hi >> np.uint64(32)],
                         axis=1)
        return philox4x32_10(words, self.key)

    def first_blocks(self, n: int) -> np.ndarray:
        return self.blocks(np.arange(n, dtype=np.uint64))


def key_counter_from_seed(seed0: int, seed1: int) -> PhiloxRandom:
    """The generator ``tf.random.stateless_*`` runs for the seed ``[seed0, seed1]``: TF's
    GenerateKey scramble (each seed as a sign-extended 64-bit word)."""
    counter = (seed0 % 2**64) | ((seed1 % 2**64) << 64)
    mix = PhiloxRandom(_SCRAMBLE_KEY, counter).first_blocks(1)[0]
    key = (int(mix[0]), int(mix[1]))
    return PhiloxRandom(key, (int(mix[2]) << 64) | (int(mix[3]) << 96))


class SingleSampleAdapter:
    """One uint32 at a time from a Philox state, in block order (TF's SingleSampleAdapter):
    ``next(adapter)``. Blocks are computed a chunk at a time."""

    def __init__(self, gen: PhiloxRandom, chunk: int = 64):
        self._gen, self._chunk = gen, chunk
        self._words: list = []
        self._pos = 0

    def __iter__(self):
        return self

    def __next__(self) -> int:
        if self._pos == len(self._words):
            self._refill()
        self._pos += 1
        return self._words[self._pos - 1]

    def take(self, n: int) -> list:
        """The next ``n`` words (what ``n`` calls of ``next`` give), as a list; the blocks
        beyond the buffered words in one Philox call."""
        out = self._words[self._pos:self._pos + n]
        self._pos += len(out)
        short = n - len(out)
        if short > 0:
            self._refill(-(-short // 4))
            self._pos = short
            out += self._words[:short]
        return out

    def _refill(self, blocks: int = 0) -> None:
        """The next chunk of blocks, or ``blocks`` of them where more (in one call)."""
        count = max(blocks, self._chunk)
        self._words = self._gen.first_blocks(count).reshape(-1).tolist()
        self._gen = self._gen.skip(count)
        self._pos = 0
        self._chunk = min(self._chunk * 2, 4096)
