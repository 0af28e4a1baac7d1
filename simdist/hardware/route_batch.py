"""Routes of many pairs at once: Topology's per-pair routing rules applied to arrays of node
ids, so routing a ring's 100,000 neighbour pairs takes a few NumPy passes, not a Python
call per pair. Each rule picks the same path as its per-pair twin in topology.py (tested).

Glossary:
  short rule  -- ``Topology._short_path``: a direct link no slower than two minimal hops,
                 else the best two-hop path (the first best neighbour of the end with fewer
                 neighbours, in the graph's adjacency order) no slower than three.
  uplink rule -- ``_uplinks`` here: a preset's uplinks, up from the source to the
                 first node on the destination's way up, then down.
  group       -- pairs whose paths have the same shape: (row indices, nodes array).
  MAX_NEAR_DEGREE -- pairs whose end with fewer neighbours still has more than this (two
                 hubs) take the per-pair rule rather than a padded array.
  Pairs no array rule settles are routed one by one (``Topology._dijkstra``).
"""

from __future__ import annotations

import numpy as np

MAX_NEAR_DEGREE = 16
_NONE = -1  # no path from this rule


def paths(topo, s: np.ndarray, d: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Groups (rows, nodes) covering every pair ``s[i] -> d[i]`` (node ids, s != d)."""
    groups = []
    rows = np.arange(len(s))
    direct, via = _short(topo, s, d)
    groups.append((rows[direct], np.stack([s[direct], d[direct]], axis=1)))
    two = via != _NONE
    groups.append((rows[two], np.stack([s[two], via[two], d[two]], axis=1)))
    rest = rows[~direct & ~two]
    if len(rest) and topo._uplinks is not None:
        found, rest = _uplinks(topo, s[rest], d[rest], rest)
        groups += found
    names, node_id = topo._table.nodes, topo._table.node_id
    for i in rest.tolist():
        path = topo._dijkstra(names[int(s[i])], names[int(d[i])])
        groups.append((np.array([i]), np.array([[node_id[n] for n in path]])))
    return [g for g in groups if len(g[0])]


def _short(topo, s, d):
    """(direct mask, two-hop middle node or _NONE) of the short rule."""
    table = topo._table
    floor = topo._min_latency
    n = len(s)
    via = np.full(n, _NONE)
    link = table.find(s, d)
    has = link >= 0
    direct = has & (topo.latency[np.where(has, link, 0)] <= 2 * floor) if n and \
        len(topo.latency) else np.zeros(n, dtype=bool)
    rest = np.flatnonzero(~has)  # a slow direct link settles nothing (as per pair)
    if not len(rest):
        return direct, via
    indptr, indices = table.neighbours(topo.graph)
    deg = np.diff(indptr)
    rs, rd = s[rest], d[rest]
    near = np.where(deg[rs] <= deg[rd], rs, rd)
    far = np.where(deg[rs] <= deg[rd], rd, rs)
    k = deg[near]
    small = k <= MAX_NEAR_DEGREE
    names = table.nodes
    for i in rest[~small].tolist():  # two hubs: the per-pair rule
        path = topo._short_path(names[int(s[i])], names[int(d[i])])
        if path is not None and len(path) == 3:
            via[i] = table.node_id[path[1]]
    rest, near, far, k = rest[small], near[small], far[small], k[small]
    if not len(rest) or not k.max():
        return direct, via
    cols = np.arange(int(k.max()))
    valid = cols < k[:, None]
    w = indices[np.where(valid, indptr[near][:, None] + cols, 0)]
    first = table.find(np.repeat(near, len(cols)), w.ravel()).reshape(w.shape)
    second = table.find(w.ravel(), np.repeat(far, len(cols))).reshape(w.shape)
    ok = valid & (second >= 0)
    lat = np.where(ok, topo.latency[np.maximum(first, 0)] + topo.latency[np.maximum(second, 0)],
                   np.inf)
    best = lat.argmin(axis=1)  # the first best, as the per-pair loop's strict '<'
    taken = ok[np.arange(len(rest)), best] & (lat[np.arange(len(rest)), best] <= 3 * floor)
    via[rest[taken]] = w[np.arange(len(rest)), best][taken]
    return direct, via


def _uplinks(topo, s, d, rows):
    """Groups of the pairs the uplink rule routes, and the rows it leaves."""
    up = topo._uplink_ids()
    ok = (up[s] >= 0) & (up[d] >= 0)
    a, b = _chains(up, s), _chains(up, d)
    j_at = np.full(len(s), -1)
    k_at = np.full(len(s), -1)
    for j in range(b.shape[1]):  # the first node on dst's way up that src's way up has
        for k in range(a.shape[1]):
            hit = ok & (j_at < 0) & (b[:, j] >= 0) & (a[:, k] == b[:, j])
            j_at[hit], k_at[hit] = j, k
    groups = []
    for k, j in set(zip(k_at[j_at >= 0].tolist(), j_at[j_at >= 0].tolist())):
        sel = (k_at == k) & (j_at == j)
        groups.append((rows[sel], np.concatenate([a[sel, :k], b[sel, j::-1]], axis=1)))
    return groups, rows[j_at < 0]


def _chains(up, start):
    """Each start's way up (its node, then uplinks), -1 past the top."""
    cols = [start]
    while (cols[-1] >= 0).any() and len(cols) <= len(up):
        prev = cols[-1]
        cols.append(np.where(prev >= 0, up[np.maximum(prev, 0)], -1))
    return np.stack(cols, axis=1)
