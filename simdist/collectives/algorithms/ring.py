"""Ring all-reduce: reduce-scatter around the ring, then all-gather.

Glossary:
  rings -- one rank order per channel (default: one ring in rank order, or the topology's
           ``rings`` / ``ring_order`` hint, e.g. the DGX-1 NVLink ring or one ring per NIC).
Each rank sends 2(p-1)/p of the buffer: the bandwidth-optimal all-reduce, at the price of
2(p-1) latency terms. Mirrors NCCL src/device/all_reduce.h (runRing); TF's CollectiveAllReduce
ring is ``ring_reducer`` (the same steps on other chunk bounds and start ranks).
"""

from __future__ import annotations

from itertools import repeat

import numpy as np

from simdist.collectives.algorithms import _rings
from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule
from simdist.hardware import bounded_memo
from simdist.hardware.topologies.common import RankLists


def check_rings(p, rings):
    """The rings as lists of ints, each checked to visit every rank once."""
    return ring_array(p, rings).tolist()


# Small rings already checked: (p, the rings as tuples) -> their read-only array. A
# training step's all-reduce passes the same topology rings at every call.
_CHECKED: dict = {}
_CHECKED_RANKS, _CHECKED_KEPT = 4096, 256


def ring_array(p, rings) -> np.ndarray:
    """The rings as a (channels x p) int array, each checked to visit every rank once
    (array operations: 8 rings of 65,536 ranks are checked in milliseconds; rings of at
    most ``_CHECKED_RANKS`` ranks in all are checked once and kept)."""
    if rings is None:
        return np.arange(p, dtype=np.int64)[None, :]
    if isinstance(rings, RankLists) and rings.array.shape[1] == p:
        return rings.array  # a preset's rings: each a permutation of the ranks as built
    key = _checked_key(p, rings)
    arr = _CHECKED.get(key) if key is not None else None
    if arr is None:
        arr = _ring_array(p, rings)
        if key is not None:
            arr = np.array(arr)   # its own (a caller's int64 array stays writable)
            arr.setflags(write=False)
            bounded_memo.keep(_CHECKED, key, arr, _CHECKED_KEPT)
    return arr


def _checked_key(p, rings):
    """``(p, rings as tuples)`` for small rings, or None (large, or not a list of lists of
    hashable values: checked every time, raising as they do)."""
    try:
        if len(rings) * p > _CHECKED_RANKS:
            return None
        key = (p, tuple(tuple(r) for r in rings))
        hash(key)
    except TypeError:
        return None
    return key


def _ring_array(p, rings) -> np.ndarray:
    try:
        arr = np.asarray(rings) if len(rings) else None
    except ValueError:  # ragged: checked ring by ring below
        arr = None
    if arr is None or arr.ndim != 2 or arr.dtype.kind not in "iu":
        rows = [list(map(int, r)) for r in rings]
        bad = next((r for r in rows if len(r) != p), None)
        if bad is not None:
            raise ValueError(f"Each ring must visit every rank 0..{p - 1} once; got {bad}.")
        arr = np.array(rows, dtype=np.int64).reshape(len(rows), p)
    arr = arr.astype(np.int64, copy=False)
    if arr.shape[1] == p:  # a permutation of 0..p-1: every rank in range, each once
        c = len(arr)
        wrong = ((arr < 0) | (arr >= p)).any(axis=1)
        counts = np.bincount((np.clip(arr, 0, max(p - 1, 0)) + p * np.arange(c)[:, None]).ravel(),
                             minlength=c * p).reshape(c, p)
        wrong |= (counts != 1).any(axis=1)
    else:
        wrong = np.ones(len(arr), dtype=bool)
    if wrong.any():
        bad = arr[int(np.flatnonzero(wrong)[0])].tolist()
        raise ValueError(f"Each ring must visit every rank 0..{p - 1} once; got {bad}.")
    return arr


def _phases(p, rings, steps=None):
    c = len(rings)
    rs = [_rings.reduce_scatter_steps(o, o, lambda slot, k=k: slot * c + k, steps=steps)
          for k, o in enumerate(rings)]
    ag = [_rings.all_gather_steps(o, o, lambda slot, k=k: slot * c + k, steps=steps)
          for k, o in enumerate(rings)]
    # Reduce-scatter first: every rank ends owning the full sum of one slot, having sent
    # only (p-1)/p of the data; then all-gather copies the finished slots around, so every
    # replica receives the owner's bits (copies, never re-added: results are identical).
    return _rings.merge("reduce-scatter", *rs), _rings.merge("all-gather", *ag)


def build(p, rings=None):
    rings = check_rings(p, rings)
    rs, ag = _phases(p, rings)
    return Schedule("all_reduce", "ring", p, p * len(rings), rs + ag)


def patterns(p, rings=None):
    # Every reduce-scatter step sends over the same links; only the chunk rotates (the
    # Pattern's ``rotate``), so the cost model prices the p-1 steps without a loop.
    orders, table = ring_table(ring_array(p, rings))
    return [_rings.ring_pattern("reduce-scatter", orders, table, True),
            _rings.ring_pattern("all-gather", orders, table, False)]


def ring_table(rings):
    """(orders, chunk table) of channel rings labelled by their own order (slot*c + k)."""
    orders = np.asarray(rings, dtype=np.int64)
    c = len(rings)
    return orders, orders * c + np.arange(c)[:, None]


def values(p, buffers, initial, bounds, fn, dtype, rings=None) -> bool:
    """The ring's values without running its steps one by one (``_rings.fold``); False
    (left to the executor) for complex numbers, which NumPy may round differently there."""
    if dtype.kind == "c":
        return False
    _rings.fold(ring_array(p, rings).tolist(), buffers, initial, [int(b) for b in bounds],
                fn, dtype.itemsize)
    return True


def chunk_count(p, rings=None):
    """p chunks per ring (channel)."""
    return p * (1 if rings is None else len(rings))


def ring_hints(topology, devices):
    """Ring orders from the topology when it names rings over exactly these devices."""
    return topology.memo("ring hints", tuple(devices), lambda: _ring_hints(topology, devices))


def _ring_hints(topology, devices):
    graph = topology.graph.graph
    rings = graph.get("rings") or ([graph["ring_order"]] if graph.get("ring_order") else [])
    if not rings:
        return {}
    built = graph.get("ring_ranks")  # a preset's rings as ranks, while still valid
    if built is not None and built.ranks_for(rings, devices) is not None:
        return {"rings": built.lists}
    index = dict(zip(devices, range(len(devices))))
    if len(index) != len(devices):
        return {}
    ranks = []
    by_identity = _identity_ranks(devices)
    for r in rings:  # each ring must hold exactly these devices: ranks 0..p-1 once each
        if len(r) != len(index):
            return {}
        ids = by_identity(r)
        if ids is None:  # some names are equal strings, not the devices' own objects
            ids = np.fromiter(map(index.get, r, repeat(-1)), dtype=np.int64, count=len(r))
        if not len(ids) or ids.min() < 0 or \
                not (np.bincount(ids, minlength=len(index)) == 1).all():
            return {}
        ranks.append(ids)
    return {"rings": np.stack(ranks).tolist()}


def _identity_ranks(devices):
    """``ranks(names)``: the ranks of names that are the very objects in ``devices`` (a
    preset builds its rings from its device list), found by ``id`` with a sorted search
    instead of hashing 65,536 names per ring; None when one of them is not."""
    ids = np.fromiter(map(id, devices), dtype=np.uint64, count=len(devices))
    order = np.argsort(ids)
    keys = ids[order]

    def ranks(names):
        want = np.fromiter(map(id, names), dtype=np.uint64, count=len(names))
        pos = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
        if not len(keys) or not (keys[pos] == want).all():
            return None
        return order[pos]

    return ranks


register(Algorithm(
    "ring", "all_reduce", "Ring: reduce-scatter then all-gather around a ring (NCCL RING).",
    build, mirrors="nccl src/device/all_reduce.h runRing", fast_patterns=patterns,
    fast_values=values, hints=ring_hints, chunk_count=chunk_count))
