"""Recursive halving-doubling (Rabenseifner) and recursive doubling all-reduce, any p.

Glossary:
  fold     -- for p not a power of two, with p2 the largest power of two below p and
              r = p - p2: the first 2r ranks pair up, even ranks hand their data to the odd
              neighbour and sit out; afterwards the odd ranks copy the result back (unfold).
  halving  -- reduce-scatter: partners at distance p2/2, p2/4, ... 1 swap halves of their
              current range, each keeping (and reducing) one half: log2 p2 steps.
  doubling -- all-gather: the same partners in reverse order swap their finished ranges.
  recursive doubling -- log2 p2 steps in which partners swap and add the WHOLE buffer:
              latency-optimal, sends log2(p2) buffers (vs 2(p2-1)/p2 for halving-doubling).
Mirrors MPICH's MPIR_Allreduce_intra_reduce_scatter_allgather / recursive_doubling
(Thakur, Rabenseifner, Gropp 2005), which NCCL-less TF on CPU/gloo also uses.
"""

from __future__ import annotations

import numpy as np

from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Pattern, Schedule, Step, Transfer


def _fold(p):
    p2 = 1 << (p.bit_length() - 1)
    r = p - p2
    # Survivors in new-rank order: odd ranks of the first 2r, then everyone above 2r.
    survivors = [2 * i + 1 for i in range(r)] + list(range(2 * r, p))
    return p2, r, survivors


def _fold_steps(r, nchunks):
    fold = Step("fold", [Transfer(2 * i, 2 * i + 1, 0, True, nchunks) for i in range(r)])
    unfold = Step("unfold", [Transfer(2 * i + 1, 2 * i, 0, False, nchunks) for i in range(r)])
    return fold, unfold


def build_rhd(p):
    p2, r, old = _fold(p)
    fold, unfold = _fold_steps(r, p2)
    steps = [fold] if r else []
    # Halving: after the step at distance m, new rank x owns chunks [x & ~(2m-1) + ...)
    # of width m; the lower partner keeps the lower half, so x ends owning chunk x.
    mask = p2 // 2
    while mask:
        ts = []
        for x in range(p2):
            partner = x ^ mask
            base = x & ~(2 * mask - 1)
            send = base + (mask if x < partner else 0)
            ts.append(Transfer(old[x], old[partner], send, True, mask))
        steps.append(Step("reduce-scatter", ts))
        mask //= 2
    # Doubling: swap finished ranges, doubling their width; copies only, so every rank
    # ends with the owner's bits of each chunk.
    mask = 1
    while mask < p2:
        steps.append(Step("all-gather", [
            Transfer(old[x], old[x ^ mask], x & ~(mask - 1), False, mask) for x in range(p2)]))
        mask *= 2
    if r:
        steps.append(unfold)
    return Schedule("all_reduce", "halving_doubling", p, p2, steps)


def build_rd(p):
    p2, r, old = _fold(p)
    fold, unfold = _fold_steps(r, 1)
    steps = [fold] if r else []
    # Both partners compute op(own, other) on identical operands: with a commutative op
    # the bits agree, so every rank holds the same result after log2 p2 steps.
    mask = 1
    while mask < p2:
        steps.append(Step("exchange", [Transfer(old[x], old[x ^ mask], 0, True)
                                       for x in range(p2)]))
        mask *= 2
    if r:
        steps.append(unfold)
    return Schedule("all_reduce", "recursive_doubling", p, 1, steps)


def _pattern(phase, src, dst, chunk, nchunks, combine):
    t = len(src)
    return Pattern(phase, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                   np.broadcast_to(np.asarray(chunk, dtype=np.int64), (t,)).copy(),
                   np.full(t, nchunks, dtype=np.int64), np.full(t, combine), 1)


def _fold_patterns(p, nchunks):
    """(fold, unfold) patterns, or (None, None) for a power of two."""
    p2, r, _ = _fold(p)
    if not r:
        return None, None
    even = np.arange(r, dtype=np.int64) * 2
    return (_pattern("fold", even, even + 1, 0, nchunks, True),
            _pattern("unfold", even + 1, even, 0, nchunks, False))


def patterns_rhd(p):
    """build_rhd's steps as arrays: each step is one numpy expression over all ranks."""
    p2, _, survivors = _fold(p)
    old = np.asarray(survivors, dtype=np.int64)
    x = np.arange(p2, dtype=np.int64)
    fold, unfold = _fold_patterns(p, p2)
    out = [fold] if fold is not None else []
    mask = p2 // 2
    while mask:
        partner = x ^ mask
        send = (x & ~(2 * mask - 1)) + np.where(x < partner, mask, 0)
        out.append(_pattern("reduce-scatter", old[x], old[partner], send, mask, True))
        mask //= 2
    mask = 1
    while mask < p2:
        out.append(_pattern("all-gather", old[x], old[x ^ mask], x & ~(mask - 1), mask, False))
        mask *= 2
    return out + ([unfold] if unfold is not None else [])


def patterns_rd(p):
    p2, _, survivors = _fold(p)
    old = np.asarray(survivors, dtype=np.int64)
    x = np.arange(p2, dtype=np.int64)
    fold, unfold = _fold_patterns(p, 1)
    out = [fold] if fold is not None else []
    mask = 1
    while mask < p2:
        out.append(_pattern("exchange", old[x], old[x ^ mask], 0, 1, True))
        mask *= 2
    return out + ([unfold] if unfold is not None else [])


register(Algorithm(
    "halving_doubling", "all_reduce",
    "Recursive halving-doubling (Rabenseifner): halving reduce-scatter, doubling all-gather.",
    build_rhd, mirrors="MPICH allreduce reduce_scatter_allgather", fast_patterns=patterns_rhd,
    chunk_count=lambda p: _fold(p)[0]))
register(Algorithm(
    "recursive_doubling", "all_reduce",
    "Recursive doubling: log2(p) steps swapping and adding the whole buffer.",
    build_rd, mirrors="MPICH allreduce recursive_doubling", fast_patterns=patterns_rd,
    chunk_count=lambda p: 1))
