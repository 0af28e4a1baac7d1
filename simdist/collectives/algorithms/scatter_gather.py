"""Reduce-scatter and all-gather on their own (ring, and recursive halving / doubling).

Glossary:
  reduce-scatter -- every rank ends with the reduced chunk of its own rank (chunk r of the
                    buffer cut into p even pieces, ``numpy.array_split`` sizes).
  all-gather     -- chunk r of the output starts on rank r; everyone ends with all chunks,
                    i.e. the inputs concatenated in rank order.
Mirrors NCCL src/device/reduce_scatter.h and all_gather.h (runRing) and MPICH's recursive
halving / doubling for power-of-two p.
"""

from __future__ import annotations

from simdist.collectives.algorithms import _rings
from simdist.collectives.algorithms.ring import (
    check_rings,
    chunk_count,
    ring_array,
    ring_hints,
    ring_table,
)
from simdist.collectives.registry import Algorithm, power_of_two, register
from simdist.collectives.schedule import Schedule, Step, Transfer


def _rs(p, rings, steps=None):
    c = len(rings)
    # labels = the ring order itself: position k finishes owning slot order[k] = its rank.
    return _rings.merge("reduce-scatter", *[
        _rings.reduce_scatter_steps(o, o, lambda s, k=k: s * c + k, steps=steps)
        for k, o in enumerate(rings)])


def _ag(p, rings, steps=None):
    c = len(rings)
    return _rings.merge("all-gather", *[
        _rings.all_gather_steps(o, o, lambda s, k=k: s * c + k, steps=steps)
        for k, o in enumerate(rings)])


def build_rs(p, rings=None):
    rings = check_rings(p, rings)
    return Schedule("reduce_scatter", "ring", p, p * len(rings), _rs(p, rings))


def build_ag(p, rings=None):
    rings = check_rings(p, rings)
    return Schedule("all_gather", "ring", p, p * len(rings), _ag(p, rings))


def patterns_rs(p, rings=None):
    return [_rings.ring_pattern("reduce-scatter", *ring_table(ring_array(p, rings)), True)]


def patterns_ag(p, rings=None):
    return [_rings.ring_pattern("all-gather", *ring_table(ring_array(p, rings)), False)]


def _pow2(p, name):
    if p & (p - 1):
        raise ValueError(f"{name} needs a power-of-two device count, got {p}; use 'ring'.")


def build_rs_halving(p):
    _pow2(p, "reduce_scatter.halving")
    # Halving: partners p/2 apart swap halves of the range they still own and each keeps
    # one half, reduced; after log2 p steps rank x owns chunk x alone (latency log2 p,
    # bandwidth (p-1)/p of the buffer, as the ring's, in fewer steps).
    steps, mask = [], p // 2
    while mask:
        steps.append(Step("reduce-scatter", [
            Transfer(x, x ^ mask, (x & ~(2 * mask - 1)) + (mask if x < x ^ mask else 0),
                     True, mask) for x in range(p)]))
        mask //= 2
    return Schedule("reduce_scatter", "halving", p, p, steps)


def build_ag_doubling(p):
    _pow2(p, "all_gather.doubling")
    # Doubling: the halving's mirror image; partners 1, 2, 4 ... apart swap the ranges
    # they have gathered so far, copies only, so every rank ends with the owners' bits.
    steps, mask = [], 1
    while mask < p:
        steps.append(Step("all-gather", [Transfer(x, x ^ mask, x & ~(mask - 1), False, mask)
                                         for x in range(p)]))
        mask *= 2
    return Schedule("all_gather", "doubling", p, p, steps)


register(Algorithm("reduce_scatter.ring", "reduce_scatter",
                   "Ring reduce-scatter: p-1 steps, each rank adds and forwards one chunk.",
                   build_rs, mirrors="nccl src/device/reduce_scatter.h",
                   fast_patterns=patterns_rs, hints=ring_hints, chunk_count=chunk_count))
register(Algorithm("all_gather.ring", "all_gather",
                   "Ring all-gather: p-1 steps, each rank forwards the chunk it received.",
                   build_ag, mirrors="nccl src/device/all_gather.h",
                   fast_patterns=patterns_ag, hints=ring_hints, chunk_count=chunk_count))
register(Algorithm("reduce_scatter.halving", "reduce_scatter",
                   "Recursive halving reduce-scatter (power-of-two p): log2(p) steps.",
                   build_rs_halving, mirrors="MPICH reduce_scatter recursive halving",
                   supports=power_of_two))
register(Algorithm("all_gather.doubling", "all_gather",
                   "Recursive doubling all-gather (power-of-two p): log2(p) steps.",
                   build_ag_doubling, mirrors="MPICH allgather recursive doubling",
                   supports=power_of_two))
