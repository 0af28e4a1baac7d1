"""The logical view of an all-reduce: the ranks as the algorithm sees them, not as the wires
connect them.

Glossary:
  channel        -- one pattern the algorithm runs at the same time as others, on its own
                    share of the chunks: one ring of a multi-ring schedule (NCCL's channels,
                    ``schedule.params['rings']``), one tree of NCCL's double binary tree. An
                    algorithm with a single pattern has one channel, ``all ranks``.
  logical layout -- rank -> (x, y): a ring's ranks on a circle in ring order (so the ring is
                    round even when it zig-zags across machines); a tree's ranks in levels
                    under its root; two_level / torus_2d on a grid (a row is an inner ring, a
                    column an outer ring); anything else on a circle in rank order, servers
                    in the centre.
  logical links  -- the rank pairs a channel exchanges data over in the whole schedule.
Registry: ``CHANNELS`` maps a schedule's algorithm name to the function that lists its
channels; the default is one circle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from simdist.collectives.algorithms.tree import dtree_parents


@dataclass(frozen=True)
class Channel:
    """One independent pattern of a schedule, with where the logical view draws its ranks."""

    name: str
    shape: str                   # "ring", "tree", "grid" or "circle"
    pos: dict                    # rank (servers after the devices) -> (x, y)
    chunks: frozenset

    def carries(self, transfer) -> bool:
        return transfer.chunk in self.chunks


def _circle(order, radius=1.0) -> dict:
    """``order[0]`` on top, then clockwise."""
    n = max(len(order), 1)
    return {r: (radius * math.cos(math.pi / 2 - 2 * math.pi * i / n),
                radius * math.sin(math.pi / 2 - 2 * math.pi * i / n))
            for i, r in enumerate(order)}


def _ring_channels(schedule) -> list[Channel]:
    p = schedule.num_devices
    rings = schedule.params.get("rings") or [list(range(p))]
    c = len(rings)
    return [Channel(f"ring {k + 1} of {c}" if c > 1 else "the ring", "ring", _circle(order),
                    frozenset(range(k, schedule.num_chunks, c)))
            for k, order in enumerate(rings)]


def tree_layout(parents) -> dict:
    """Rank -> (x, y): the root on top, each level below, leaves spread in depth-first order."""
    children = {r: [] for r in range(len(parents))}
    for r, u in enumerate(parents):
        if u >= 0:
            children[u].append(r)
    root = parents.index(-1)
    depth, leaves, order = {root: 0}, [], [root]
    while order:                                  # depth-first, children left to right
        r = order.pop()
        if not children[r]:
            leaves.append(r)
        for ch in reversed(children[r]):
            depth[ch] = depth[r] + 1
            order.append(ch)
    x = {r: i for i, r in enumerate(leaves)}

    def place(r):
        if r not in x:
            x[r] = sum(place(ch) for ch in children[r]) / len(children[r])
        return x[r]

    place(root)
    width = max(len(leaves) - 1, 1)
    height = max(max(depth.values()), 1)
    return {r: (2 * x[r] / width - 1, 1 - 2 * depth[r] / height) for r in depth}


def _tree_channels(schedule) -> list[Channel]:
    p = schedule.num_devices
    if p < 2:
        return _circle_channels(schedule)
    half = schedule.num_chunks // 2
    return [Channel(f"tree {t + 1} of 2", "tree", tree_layout(parents),
                    frozenset(range(t * half, (t + 1) * half)))
            for t, parents in enumerate(dtree_parents(p))]


def _inner_size(schedule) -> int:
    p = schedule.num_devices
    if schedule.params.get("local_size"):
        return int(schedule.params["local_size"])
    if schedule.params.get("dims"):
        return int(schedule.params["dims"][0])
    return next(d for d in range(max(int(p ** 0.5), 1), p + 1) if p % d == 0 and d * d >= p)


def _grid_channels(schedule) -> list[Channel]:
    p, inner = schedule.num_devices, _inner_size(schedule)
    rows = p // inner
    span = max(inner, rows) - 1 or 1
    pos = {r: (2 * (r % inner) / span - (inner - 1) / span,
               (rows - 1) / span - 2 * (r // inner) / span) for r in range(p)}
    return [Channel("all ranks (rows: inner rings, columns: outer rings)", "grid", pos,
                    frozenset(range(schedule.num_chunks)))]


def _circle_channels(schedule) -> list[Channel]:
    pos = _circle(range(schedule.num_devices))
    servers = range(schedule.num_devices, schedule.num_buffers)
    pos.update(_circle(servers, 0.3) if len(servers) > 1 else {s: (0.0, 0.0) for s in servers})
    return [Channel("all ranks", "circle", pos, frozenset(range(schedule.num_chunks)))]


CHANNELS = {"ring": _ring_channels, "tree": _tree_channels, "two_level": _grid_channels,
            "torus_2d": _grid_channels}


def channels(schedule) -> list[Channel]:
    """The schedule's channels, each with its logical layout (at least one)."""
    return CHANNELS.get(schedule.algorithm, _circle_channels)(schedule)


def logical_links(schedule, channel: Channel) -> set[tuple[int, int]]:
    """The unordered rank pairs ``channel`` exchanges data over in the whole schedule."""
    return {tuple(sorted((t.src, t.dst))) for _, t in schedule.transfers()
            if channel.carries(t)}
