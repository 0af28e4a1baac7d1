"""Categorical (multinomial) samples as TF's CPU kernel draws them, bit for bit.

Glossary:
  logits      -- a [batch, classes] matrix of unnormalised log-probabilities; a class whose
                 logit is not finite (``log(0) = -inf``) is never drawn.
  cdf         -- per row, ``exp(logit - max finite logit)`` in float64, summed over the
                 finite classes in order (not normalised); a sample is the index of the
                 first cdf entry above ``u * total`` (``std::upper_bound``).
  u           -- one float64 uniform per sample: SimplePhilox's RandDouble, two 32-bit
                 words of the Philox stream (Uint64ToDouble), rows and samples in order
                 (TF's CPU kernel runs a row range per thread, each skipping
                 ``start_row * (num_samples + 3) / 4`` blocks: one thread is simulated).
  stateless   -- ``tf.random.stateless_categorical``: the stream keyed by the shape-[2]
                 seed (TF's GenerateKey scramble), as the other stateless ops.

Mirrors tensorflow/core/kernels/multinomial_op.cc (and stateless_random_ops.cc's
StatelessMultinomialOp).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute
from simdist.framework.ops import random_distributions as D
from simdist.framework.ops import random_ops
from simdist.framework.ops.philox_random import (
    _SCRAMBLE_KEY,
    _U32,
    PhiloxRandom,
    philox4x32_10,
)


def _cdf(row: np.ndarray) -> np.ndarray:
    """The row's unnormalised cumulative distribution over its finite classes (float64)."""
    finite = np.isfinite(row)
    top = float(row[finite].max()) if finite.any() else float(np.finfo(row.dtype).min)
    with np.errstate(over="ignore", invalid="ignore"):
        weights = np.exp(row.astype(np.float64) - top)
    return np.cumsum(np.where(finite, weights, 0.0))


def _upper_bound(cdf: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The first class whose cdf entry exceeds ``u * total`` (``std::upper_bound``)."""
    total = cdf[-1] if len(cdf) else 0.0
    return np.searchsorted(cdf, u * total, side="right")


def multinomial(logits: np.ndarray, num_samples: int, gen: PhiloxRandom) -> np.ndarray:
    """``[batch, num_samples]`` int64 class indices drawn from ``gen``'s stream."""
    logits = np.asarray(logits)
    batch = logits.shape[0]
    out = np.zeros((batch, num_samples), dtype=np.int64)
    if batch == 0 or num_samples == 0:
        return out
    words = gen.first_blocks(-(-batch * num_samples * 2 // 4)).reshape(-1)
    u = D.uint64_to_double(words[0::2], words[1::2])[:batch * num_samples]
    u = u.reshape(batch, num_samples)
    for b in range(batch):
        out[b] = _upper_bound(_cdf(logits[b]), u[b])
    return out


def one_sample_each(logits_row: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """``stateless_multinomial([logits_row], 1, seed)[0, 0]`` for each row of the (n, 2)
    int64 ``seeds``, computed at once: each seed's scrambled key and counter, the first
    block under it, its first two words as the uniform."""
    seeds = np.asarray(seeds, dtype=np.int64).view(np.uint64)
    lo, hi = seeds[:, 0], seeds[:, 1]
    counters = np.stack([lo & _U32, lo >> np.uint64(32), hi & _U32, hi >> np.uint64(32)], 1)
    mix = philox4x32_10(counters, _SCRAMBLE_KEY).astype(np.uint64)
    zero = np.zeros_like(mix[:, 0])
    block = philox4x32_10(np.stack([zero, zero, mix[:, 2], mix[:, 3]], 1),
                          (mix[:, 0], mix[:, 1]))
    return _upper_bound(_cdf(np.asarray(logits_row)),
                        D.uint64_to_double(block[:, 0], block[:, 1])).astype(np.int64)


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """``num_samples`` class indices per row of ``logits`` determined by ``seed`` alone
    (``tf.random.stateless_categorical``).

    Raises:
      InvalidArgumentError: ``logits`` is not a matrix, or the seed is not two integers.
    """
    logits = execute.convert_to_tensor(logits)
    dtype = dtypes.as_dtype(dtype)
    if logits.shape.rank != 2:
        raise errors.InvalidArgumentError(
            None, None, f"logits should be a matrix, got shape {logits.shape}")
    gen = random_ops._stateless_generator(seed)
    drawn = multinomial(logits.numpy(), int(num_samples), gen)
    return execute.convert_to_tensor(drawn.astype(dtype.as_numpy_dtype), dtype=dtype)
