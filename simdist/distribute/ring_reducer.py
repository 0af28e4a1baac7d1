"""The values TF's ring all-reduce computes: which replica's values are added to which, in
what order, so a float sum has TF's bits.

Glossary:
  chunk        -- the tensor (flattened) is cut into one chunk per replica; chunk ``c`` is
                  reduced around the ring starting at rank ``c`` (rank ``c`` sends its
                  value, rank ``c + 1`` adds its own to it, and so on): the chunk's sum is
                  the replicas' values added one by one in rank order from ``c``.
  chunk_elts   -- how many elements each chunk holds: ``ceil(n / p)`` rounded up to a
                  multiple of 64 bytes (EIGEN_MAX_ALIGN_BYTES), and one more 64 bytes when
                  it already is one (TF's AlignedChunkElts does both); the last chunks may
                  be short or empty.
  subdivision  -- TF's RingAlg can split chunks over 4 MiB into subdivisions (more rings),
                  but the all_reduce_v2 TF's cross-device ops call passes
                  ``max_subdivs_per_device=-1``: one ring, whatever the size (recorded
                  from TF 2.21 with chunks over 4 MiB).

Timing and the trace come from the collective schedule (collectives.algorithms.ring); this
module only orders the additions. Checked against TF 2.21 by
tests/distribute/test_default_cross_device_ops.py.

Mirrors tensorflow/core/common_runtime/ring_reducer.cc and ring_alg.cc (AlignedChunkElts).
"""

from __future__ import annotations

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


def all_reduce_sum(arrays) -> list:
    """The replicas' 1-D ``arrays`` summed as TF's RingReducer: one result per replica (all
    the same bits)."""
    p = len(arrays)
    n = int(arrays[0].shape[0])
    if p == 1 or n == 0:
        return list(arrays)
    step = chunk_elts(array_api.itemsize(arrays[0]), n, p)
    parts = []
    for c in range(p):
        lo, hi = min(c * step, n), min((c + 1) * step, n)
        acc = arrays[c][lo:hi]
        for k in range(1, p):
            acc = acc + arrays[(c + k) % p][lo:hi]
        parts.append(acc)
    whole = array_api.concat(parts)
    return [whole] + [array_api.copy(whole) for _ in range(p - 1)]
