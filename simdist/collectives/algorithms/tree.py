"""NCCL's double binary tree all-reduce.

Glossary:
  btree       -- NCCL's binary tree over ranks (root 0, built from the ranks' lowest set
                 bit), so that half the ranks are leaves.
  double tree -- a second tree, the first mirrored (even p) or shifted by one (odd p), in
                 which the first tree's leaves are inner nodes: each tree carries half the
                 data, so every rank sends and receives about the same amount.
  pipeline    -- each half is cut into ``pipeline`` pieces that flow up (reduce) and down
                 (broadcast) the tree one level per step, as NCCL pipelines chunks.
Mirrors NCCL src/graph/trees.cc (ncclGetBtree, ncclGetDtree) and src/device/all_reduce.h
(runTreeUpDown). NCCL builds the tree across nodes with chains inside nodes; here it is
built directly over the ranks.
"""

from __future__ import annotations

import numpy as np

from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Pattern, Schedule, Step, Transfer


def btree_parents(p: int) -> list[int]:
    """Parent of each rank in NCCL's binary tree (root 0 has parent -1)."""
    parents = [-1] * p
    for rank in range(1, p):
        bit = 1
        while bit < p and not bit & rank:
            bit <<= 1
        up = (rank ^ bit) | (bit << 1)
        if up >= p:
            up = rank ^ bit
        parents[rank] = up
    return parents


def dtree_parents(p: int) -> tuple[list[int], list[int]]:
    """Parents in NCCL's two trees: the btree, and its mirror (even p) or shift (odd p)."""
    first = btree_parents(p)
    second = [-1] * p
    for rank in range(p):
        if p % 2:
            up = first[(rank - 1) % p]
            second[rank] = -1 if up == -1 else (up + 1) % p
        else:
            up = first[p - 1 - rank]
            second[rank] = -1 if up == -1 else p - 1 - up
    return first, second


def _levels(parents):
    children = {r: [] for r in range(len(parents))}
    for r, u in enumerate(parents):
        if u >= 0:
            children[u].append(r)
    height, depth = {}, {}

    def h(r):
        if r not in height:
            height[r] = 1 + max((h(c) for c in children[r]), default=-1)
        return height[r]

    root = parents.index(-1)
    stack = [(root, 0)]
    while stack:
        r, d = stack.pop()
        depth[r] = d
        stack.extend((c, d + 1) for c in children[r])
    for r in range(len(parents)):
        h(r)
    return root, children, height, depth


def build(p, pipeline=1):
    k = int(pipeline)
    if k < 1:
        raise ValueError(f"tree: pipeline must be >= 1, got {pipeline}.")
    trees = dtree_parents(p) if p > 1 else ([-1], [-1])
    slots: dict[int, list] = {}
    for t, parents in enumerate(trees):
        root, children, height, depth = _levels(parents)
        top = height[root]
        for c in range(k):
            chunk = t * k + c
            # Up: a rank forwards its partial sum once all its children's sums arrived
            # (its height), piece c one step after piece c-1 (the pipeline).
            for r, u in enumerate(parents):
                if u >= 0:
                    slots.setdefault(height[r] + c, []).append(
                        ("reduce", Transfer(r, u, chunk, True)))
            # Down: the root holds piece c's final sum after step top+c-1; each level then
            # copies it one step further, so every rank gets the root's exact bits.
            for r in range(p):
                for child in children[r]:
                    slots.setdefault(top + c + depth[r], []).append(
                        ("broadcast", Transfer(r, child, chunk, False)))
    steps = []
    for s in sorted(slots):
        phases = {ph for ph, _ in slots[s]}
        steps.append(Step("reduce+broadcast" if len(phases) > 1 else phases.pop(),
                          [t for _, t in slots[s]]))
    return Schedule("all_reduce", "tree", p, 2 * k, steps)


def _btree_array(p):
    """btree_parents with array arithmetic."""
    rank = np.arange(p, dtype=np.int64)
    bit = rank & -rank
    up = (rank ^ bit) | (bit << 1)
    up = np.where(up >= p, rank ^ bit, up)
    up[0] = -1
    return up


def _dtree_arrays(p):
    first = _btree_array(p)
    rank = np.arange(p, dtype=np.int64)
    if p % 2:
        up = first[(rank - 1) % p]
        second = np.where(up == -1, -1, (up + 1) % p)
    else:
        up = first[p - 1 - rank]
        second = np.where(up == -1, -1, p - 1 - up)
    return first, second


def _array_levels(parents):
    """(root, height, depth) of a tree given as a parent array (root's parent -1)."""
    p = len(parents)
    root = int(np.flatnonzero(parents < 0)[0])
    depth = np.zeros(p, dtype=np.int64)
    anc = parents.copy()
    while (anc >= 0).any():  # depth = how many ancestors; doubling would also do
        has = anc >= 0
        depth[has] += 1
        anc[has] = parents[anc[has]]
    height = np.zeros(p, dtype=np.int64)
    for d in range(int(depth.max()), 0, -1):  # children before parents
        at = np.flatnonzero(depth == d)
        np.maximum.at(height, parents[at], height[at] + 1)
    return root, height, depth


def patterns(p, pipeline=1):
    """build's steps as arrays, in build's transfer order (trees, pieces, up then down)."""
    k = int(pipeline)
    if k < 1:
        raise ValueError(f"tree: pipeline must be >= 1, got {pipeline}.")
    parts = []  # (step, src, dst, chunk, combine) in build's creation order
    for t, parents in enumerate(_dtree_arrays(p)):
        root, height, depth = _array_levels(parents)
        top = int(height[root])
        kids = np.flatnonzero(parents >= 0)
        # Down transfers go parent by parent (children in rank order), as build loops.
        down = kids[np.lexsort((kids, parents[kids]))]
        for c in range(k):
            chunk = t * k + c
            parts.append((height[kids] + c, kids, parents[kids], chunk, True))
            parts.append((top + c + depth[parents[down]], parents[down], down, chunk, False))
    step = np.concatenate([x[0] for x in parts])
    src = np.concatenate([x[1] for x in parts])
    dst = np.concatenate([x[2] for x in parts])
    chunk = np.concatenate([np.full(len(x[1]), x[3], dtype=np.int64) for x in parts])
    combine = np.concatenate([np.full(len(x[1]), x[4]) for x in parts])
    order = np.argsort(step, kind="stable")
    cuts = np.flatnonzero(np.diff(step[order])) + 1
    out = []
    for idx in np.split(order, cuts):
        kinds = set(combine[idx].tolist())
        phase = "reduce+broadcast" if len(kinds) > 1 else ("reduce" if kinds.pop()
                                                           else "broadcast")
        out.append(Pattern(phase, src[idx], dst[idx], chunk[idx],
                           np.ones(len(idx), dtype=np.int64), combine[idx]))
    return out


register(Algorithm(
    "tree", "all_reduce",
    "Double binary tree: each half reduced up one tree and broadcast down (NCCL TREE).",
    build, mirrors="nccl src/graph/trees.cc ncclGetDtree", fast_patterns=patterns,
    chunk_count=lambda p, pipeline=1: 2 * int(pipeline),
    param_space=lambda p: {"pipeline": range(1, 4)}))
