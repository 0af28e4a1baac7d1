"""Pricing by symmetry: the cost model's arithmetic over whole steps, and repeated steps
priced once when they provably cost the same.

Glossary:
  routes      -- a pattern's transfers routed once: its distinct (src, dst) pairs' routes
                 as every directed link id pair after pair (``flat``), which pair owns each
                 (``owner``); each transfer's pair (``inverse``; None: transfer i is pair i),
                 hop count and summed latency. Cached on the Topology per (placement, src,
                 dst), so a ring's reduce-scatter and all-gather share them, as do later
                 calls. NCCL-style channels send each pair's bytes several times: pricing
                 walks each pair's hops once, with the bytes of its transfers summed.
  whole bytes -- byte counts are whole numbers, so sums of them below 2**53 are exact in
                 any order: a link's load summed pair by pair is the same float as summed
                 transfer by transfer.
  rows        -- several steps over the same transfers with different byte counts, priced
                 together as one (steps x transfers) array; each row's arithmetic is the
                 one-step arithmetic of cost.py, in the same order, so the results are the
                 same floating-point numbers as pricing the steps one at a time.
  identical   -- a repeated pattern whose byte counts do not change when its chunks rotate
                 (even chunks): every step is step 0, priced once.
  regular     -- a pattern where no two transfers share a link, a receiver reduces at most
                 one transfer, and every transfer has the same latency, narrowest link,
                 combine flag and receiver memory bandwidth (a ring on a switch or a
                 uniform torus): a step's price then depends only on its largest transfer,
                 and rotating the chunks keeps the set of sizes, so step 0 stands for all.
  step by step -- anything else (uneven chunks over links of different speed): the repeated
                 steps are priced in blocks of rows, consecutive equal prices merged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Elements per block of rows in step-by-step pricing (bounds the scratch memory).
_BLOCK_ELEMENTS = 1 << 20


@dataclass
class Routes:
    """A pattern's transfers routed on a topology (see the glossary)."""

    flat: np.ndarray
    owner: np.ndarray
    starts: np.ndarray
    inverse: np.ndarray | None
    lens: np.ndarray
    lat: np.ndarray
    busy: np.ndarray

    @property
    def pair_busy(self) -> np.ndarray:
        """Pairs whose route has a hop."""
        return self.busy if self.inverse is None else np.diff(self.starts, append=len(
            self.flat)) > 0


def routes(topo, placement, src, dst) -> Routes:
    """The routes of transfers ``src[i] -> dst[i]`` (ranks), cached on the topology."""
    return topo.memo("pattern routes", (tuple(placement), src.tobytes(), dst.tobytes()),
                     lambda: _route(topo, placement, src, dst))


def _route(topo, placement, src, dst) -> Routes:
    ids = topo.placement_ids(placement)
    inverse = None
    if len(src) and np.bincount(src).max() > 1:  # a rank sends twice: pairs may repeat
        pairs, inverse = _unique(src * (len(ids) + 1) + dst)
        src, dst = np.divmod(pairs, len(ids) + 1)
    flat, lens, lat = topo.route_ids(ids[src], ids[dst])
    starts = np.cumsum(lens) - lens
    owner = np.repeat(np.arange(len(lens)), lens)
    if inverse is not None:
        lens, lat = lens[inverse], lat[inverse]
    return Routes(flat, owner, starts, inverse, lens, lat, lens > 0)


def _unique(keys):
    """``np.unique(keys, return_inverse=True)`` by a stable sort: NumPy's is several times
    quicker than its default on keys in sorted runs, as a ring's channels give them."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    new = np.empty(len(keys), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(len(keys), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def price_rows(topo, r: Routes, nbytes, dst, combine, mem_bw, compute):
    """Price steps sharing ``r``'s transfers; ``nbytes`` is (steps x transfers) whole byte
    counts as floats.

    Returns (total, latency, bandwidth, compute) arrays, each (steps x transfers): the
    arithmetic of one step per row, as the glossary of cost.py defines it.
    """
    s, t = nbytes.shape
    bw_time = np.zeros((s, t))
    nlinks = len(topo.bandwidth)
    if len(r.flat):
        if r.inverse is not None and not nbytes.sum(axis=1).max() < _EXACT:
            r = _per_transfer(r)  # sums that may round: in transfer order, as one by one
        per_pair = _pair_bytes(r, nbytes)
        # Links are shared: each directed link moves the bytes of every transfer on it.
        load = _row_sums(r.flat, per_pair[:, r.owner], nlinks)
        hop_time = load[:, r.flat] / topo.bandwidth[r.flat]
        busy = r.pair_busy
        pair_time = np.zeros((s, len(busy)))
        pair_time[:, busy] = np.maximum.reduceat(hop_time, r.starts[busy], axis=1)
        bw_time = pair_time if r.inverse is None else pair_time[:, r.inverse]
    comp = np.zeros((s, t))
    if compute and combine.any():
        d = dst[combine]
        per_dst = _row_sums(d, 3 * nbytes[:, combine] / mem_bw[d], len(mem_bw))
        comp[:, combine] = per_dst[:, d]
    total = np.where(nbytes > 0, r.lat + bw_time + comp, 0.0)
    return total, bw_time, comp


# Whole numbers up to 2**53 are exact floats: sums of byte counts below it do not round.
_EXACT = float(2 ** 53)


def _pair_bytes(r: Routes, nbytes) -> np.ndarray:
    """(steps x pairs) bytes of each pair's transfers (see "whole bytes")."""
    return nbytes if r.inverse is None else _row_sums(r.inverse, nbytes, len(r.starts))


def _row_sums(index, weights, n) -> np.ndarray:
    """(steps x n): each row of ``weights`` (steps x k) summed into n bins by ``index`` (k),
    in column order (one ``np.bincount`` for all rows)."""
    s = len(weights)
    rows = np.arange(s)[:, None] * n
    return np.bincount((rows + index).ravel(), weights=weights.ravel(),
                       minlength=s * n).reshape(s, n)


def _per_transfer(r: Routes) -> Routes:
    """``r`` with a route per transfer: its pair's hops, transfer after transfer."""
    lens = r.lens
    starts = np.cumsum(lens) - lens
    pos = np.arange(int(lens.sum())) - np.repeat(starts, lens) + np.repeat(
        r.starts[r.inverse], lens)
    return Routes(r.flat[pos], np.repeat(np.arange(len(lens)), lens), starts, None, lens,
                  r.lat, r.busy)


def critical(total, bw_time, comp, lat):
    """Per row: (time, latency, bandwidth, compute) of the slowest transfer."""
    k = np.argmax(total, axis=1)
    rows = np.arange(len(k))
    time = total[rows, k]
    return time, np.where(time != 0, lat[k], 0.0), bw_time[rows, k], comp[rows, k]


def is_regular(topo, r: Routes, dst, combine, mem_bw, compute) -> bool:
    """True when every transfer's price is the same function of its own bytes."""
    t = len(r.lens)
    if t == 0 or not r.busy.all():
        return False
    # No two transfers share a link: no two pairs' routes do, nor two transfers a pair.
    if np.bincount(r.flat).max() > 1 or not (r.lat == r.lat[0]).all() or (
            r.inverse is not None and np.bincount(r.inverse).max() > 1):
        return False
    narrowest = np.minimum.reduceat(topo.bandwidth[r.flat], r.starts)
    if not (narrowest == narrowest[0]).all() or not (combine == combine[0]).all():
        return False
    if compute and combine[0]:
        return bool(np.bincount(dst).max() <= 1 and (mem_bw[dst] == mem_bw[dst[0]]).all())
    return True


def repeated_steps(topo, r: Routes, pattern, sizes, mem_bw, compute):
    """(rows of (time, latency, bandwidth, compute, count)) for ``pattern.repeat`` steps.

    ``sizes`` is step 0's bytes per transfer; the rows are run-length merged.
    """
    dst, combine = pattern.dst, pattern.combine
    rot = pattern.rotate
    if rot is None or (sizes[rot] == sizes).all() or is_regular(topo, r, dst, combine,
                                                                   mem_bw, compute):
        total, bw_time, comp = price_rows(topo, r, sizes[None, :], dst, combine, mem_bw,
                                          compute)
        return [tuple(float(x[0]) for x in critical(total, bw_time, comp, r.lat))
                + (pattern.repeat,)], total[0]
    runs, first = [], None
    block = max(1, _BLOCK_ELEMENTS // max(len(r.flat), len(sizes), 1))
    index = np.arange(len(sizes))
    done = 0
    while done < pattern.repeat:
        count = min(block, pattern.repeat - done)
        idx = np.empty((count, len(sizes)), dtype=np.int64)
        for i in range(count):
            idx[i] = index
            index = index[rot]
        total, bw_time, comp = price_rows(topo, r, sizes[idx], dst, combine, mem_bw, compute)
        if first is None:
            first = total[0]
        for row in zip(*critical(total, bw_time, comp, r.lat)):
            row = tuple(float(x) for x in row)
            if runs and runs[-1][:4] == row:
                runs[-1] = row + (runs[-1][4] + 1,)
            else:
                runs.append(row + (1,))
        done += count
    return runs, first
