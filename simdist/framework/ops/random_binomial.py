"""Binomial samples as TF's CPU kernel draws them, bit for bit.

Glossary:
  output_idx     -- an output's index in batch-major order (``batch * samples_per_batch +
                    sample``); its samples come from the op's Philox state skipped by
                    ``256 * output_idx`` (BTRS) or ``42 * output_idx`` (inversion), so
                    every output has its own stream (recorded: the two overlap, as in TF).
                    The output tensor itself is sample-major: ``output[sample, batch]``.
  uniform pair   -- one Philox block (4 uint32) gives two doubles (Uint64ToDouble of words
                    0-1 and 2-3), used second one first (TF's UNIFORM macro).
  inversion      -- ``count * p < 10``: add geometric waiting times ``ceil(log u /
                    log1p(-p))`` until they pass ``count``; the sample is how many fit.
  BTRS           -- ``count * p >= 10``: Hormann's transformed rejection with two uniforms
                    per try, and TF's Stirling-tail bound.
  p > 0.5        -- sampled with ``q = 1 - p`` and returned as ``count - sample``.
  state advance  -- the stateful op moves the generator's counter on by 256 x
                    ``num_batches * 2 * 100 * (samples_per_batch + 3) / 4`` (integer
                    division; recorded) before sampling from the state it read.

The logarithms are the C library's (random_distributions._libm), as TF's std::log.
Mirrors tensorflow/core/kernels/random_binomial_op.cc.
"""

from __future__ import annotations

import math

import numpy as np

from simdist.framework.ops import random_distributions as D

_RESERVED = 256   # kReservedSamplesPerOutput: each BTRS output's stream
_RESERVED_INVERSION = 42   # each inversion output's ("10 standard deviations" of samples)
_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def state_skip(num_batches: int, samples_per_batch: int) -> int:
    """How far the stateful op moves the counter (TF's UpdateMemWithPhiloxRandom)."""
    return _RESERVED * (num_batches * 2 * 100 * (samples_per_batch + 3) // 4)


def _log():
    libm = D._libm()
    return libm.log if libm is not None else math.log


def _log1p():
    libm = D._libm()
    if libm is None:
        return math.log1p
    import ctypes

    fn = libm.log1p
    fn.restype, fn.argtypes = ctypes.c_double, [ctypes.c_double]
    return fn


class _Uniforms:
    """The doubles one output's stream yields, in the order TF's kernel reads them."""

    _BLOCKS = 4   # Philox blocks computed at a time (most samples need fewer)

    def __init__(self, gen):
        self._gen, self._next_block, self._pending = gen, 0, []

    def __call__(self) -> float:
        if not self._pending:
            w = self._gen.blocks(range(self._next_block, self._next_block + self._BLOCKS))
            self._next_block += self._BLOCKS
            d = D.uint64_to_double(w[:, 0::2], w[:, 1::2])[::-1]   # last block first ...
            self._pending = d.reshape(-1).tolist()
        return self._pending.pop()   # ... so pop() gives each block's second double first


def _inversion(count: float, p: float, uniform, log, log1p) -> float:
    geom_sum, num_geom = 0.0, 0
    denominator = log1p(-p)
    while True:
        geom_sum += math.ceil(log(uniform()) / denominator)
        if geom_sum > count:
            return float(num_geom)
        num_geom += 1


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count: float, p: float, uniform, log) -> float:
    stddev = math.sqrt(count * p * (1 - p))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = count * p + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * p)
    while True:
        u = uniform()
        v = uniform()
        u = u - 0.5
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return float(k)
        if k < 0 or k > count:
            continue
        v = log(v * alpha / (a / (us * us) + b))
        upperbound = ((m + 0.5) * log((m + 1) / (r * (count - m + 1)))
                      + (count + 1) * log((count - m + 1) / (count - k + 1))
                      + (k + 0.5) * log(r * (count - k + 1) / (k + 1))
                      + _stirling_tail(m) + _stirling_tail(count - m)
                      - _stirling_tail(k) - _stirling_tail(count - k))
        if v <= upperbound:
            return float(k)


def sample(gen, counts: np.ndarray, probs: np.ndarray, samples_per_batch: int) -> np.ndarray:
    """``[samples_per_batch, num_batches]`` float64 samples; ``counts`` and ``probs`` are
    the broadcast batch parameters (flat, in their own dtype, as TF compares them)."""
    num_batches = counts.size
    out = np.empty((samples_per_batch, num_batches), dtype=np.float64)
    log, log1p = _log(), _log1p()
    one, half, ten = (np.asarray(v, dtype=probs.dtype) for v in (1.0, 0.5, 10.0))
    for batch in range(num_batches):
        count, p = counts[batch], probs[batch]
        dcount = float(count)
        for s in range(samples_per_batch):
            if dcount <= 0.0 or p <= 0:
                out[s, batch] = 0.0
                continue
            if p >= one:
                out[s, batch] = dcount
                continue
            if np.isnan(p):
                out[s, batch] = math.nan
                continue
            output_idx = batch * samples_per_batch + s
            q = p if p <= half else one - p
            with np.errstate(over="ignore"):
                large = count * q >= ten
            if large:
                x = _btrs(dcount, float(q), _Uniforms(gen.skip(_RESERVED * output_idx)), log)
            else:
                x = _inversion(dcount, float(q),
                               _Uniforms(gen.skip(_RESERVED_INVERSION * output_idx)), log, log1p)
            out[s, batch] = x if p <= half else dcount - x
    return out
