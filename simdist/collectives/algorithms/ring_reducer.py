"""TF's ring all-reduce (CollectiveAllReduce with the RING implementation): the ring of
RingReducer, with its chunks and its order of additions, so a float sum has TF's bits.

Glossary:
  chunk        -- one per rank: chunk ``c`` is ``chunk_elts`` elements from
                  ``c * chunk_elts`` (the last chunks may be short or empty). Its
                  reduction starts at rank ``c`` (rank ``c`` sends its own value, rank
                  ``c + 1`` adds its own to what it received, and so on: ``own + received``,
                  TF's merge op on (chunk, tmp_chunk)) and ends complete at rank ``c - 1``,
                  which starts its all-gather.
  chunk_elts   -- ``ceil(n / p)`` rounded up to a multiple of 64 bytes
                  (EIGEN_MAX_ALIGN_BYTES), and one more 64 bytes when it already is one
                  (TF's AlignedChunkElts does both).
  subdivision  -- TF's RingAlg can split chunks over 4 MiB into subdivisions (more rings),
                  but the all_reduce_v2 TF's cross-device ops call passes
                  ``max_subdivs_per_device=-1``: one ring, whatever the size (recorded from
                  TF 2.21 with chunks over 4 MiB).
  rank order   -- the group's ranks as given (replica order; across workers, task order):
                  recorded from TF 2.21 on 12 logical CPUs, whose ring is not the device
                  names' lexicographic order.
The steps are ``ring``'s (p-1 reduce steps, then p-1 copy steps) on one ring; only the
chunk bounds and which rank starts each chunk differ from NCCL's ring (even chunks, chunk
``c`` starting at rank ``c + 1``). Checked against TF 2.21 by
tests/distribute/test_default_cross_device_ops.py (one process) and
tests/distribute/test_cluster_collectives.py (a cluster of processes).

Mirrors tensorflow/core/common_runtime/ring_reducer.cc and ring_alg.cc (AlignedChunkElts).
"""

from __future__ import annotations

import numpy as np

from simdist.collectives.algorithms import _rings
from simdist.collectives.layout import Layout
from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule
from simdist.hardware import array_api

ALIGN_BYTES = 64   # EIGEN_MAX_ALIGN_BYTES of TF's x86-64 builds (AVX-512)


def chunk_elts(elt_bytes: int, total_elts: int, num_chunks: int) -> int:
    """Elements per chunk, as TF's AlignedChunkElts (64-byte aligned chunks)."""
    base = -(-total_elts // num_chunks)
    if ALIGN_BYTES <= elt_bytes:
        return base
    chunk_bytes = base * elt_bytes
    diff = ALIGN_BYTES - (chunk_bytes if chunk_bytes < ALIGN_BYTES
                          else chunk_bytes % ALIGN_BYTES)
    return base + diff // elt_bytes


def aligned_bounds(num_elements: int, num_chunks: int, itemsize: int) -> np.ndarray:
    """Chunk boundaries of ``num_elements`` elements cut as TF's ring cuts them."""
    step = chunk_elts(itemsize, num_elements, num_chunks) if num_elements else 0
    return np.minimum(np.arange(num_chunks + 1, dtype=np.int64) * step, num_elements)


class AlignedLayout(Layout):
    """The whole buffer on every rank, cut into TF's 64-byte aligned chunks."""

    def bounds(self, arrays, num_chunks: int) -> np.ndarray:
        return aligned_bounds(arrays[0].size, num_chunks, array_api.itemsize(arrays[0]))

    def size_bounds(self, num_elements: int, p: int, num_chunks: int,
                    itemsize: int = 1) -> np.ndarray:
        return aligned_bounds(num_elements, num_chunks, itemsize)


def _ring(p):
    """(order, labels): ranks in order; position k ends the reduce-scatter owning chunk
    k + 1, whose reduction started at position k + 1 (TF: chunk c starts at rank c)."""
    order = list(range(p))
    return order, order[1:] + order[:1]


def build(p):
    order, labels = _ring(p)
    rs = _rings.reduce_scatter_steps(order, labels, int)
    ag = _rings.all_gather_steps(order, labels, int)
    return Schedule("all_reduce", "ring_reducer", p, p,
                    _rings.merge("reduce-scatter", rs) + _rings.merge("all-gather", ag))


def patterns(p):
    order, labels = _ring(p)
    return [_rings.ring_pattern("reduce-scatter", [order], [labels], True),
            _rings.ring_pattern("all-gather", [order], [labels], False)]


def values(p, buffers, initial, bounds, fn, dtype) -> bool:
    """The ring's values folded chunk by chunk (``_rings.fold``); False (left to the
    executor) for complex numbers, which NumPy may round differently there."""
    if dtype.kind == "c":
        return False
    order, labels = _ring(p)
    _rings.fold([order], buffers, initial, [int(b) for b in bounds], fn, dtype.itemsize,
                table=[labels])
    return True


register(Algorithm(
    "ring_reducer", "all_reduce",
    "TF's ring (CollectiveAllReduce RING): 64-byte aligned chunks, chunk c starts at rank c.",
    build, mirrors="tensorflow/core/common_runtime/ring_reducer.cc, ring_alg.cc",
    fast_patterns=patterns, fast_values=values, chunk_count=lambda p: p,
    own_layout=AlignedLayout()))
