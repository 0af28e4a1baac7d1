"""A topology graph's links as arrays, read in one pass over its adjacency.

Glossary:
  edge list  -- the graph's edges ``(u, v, attrs)`` in networkx's order, read once: a
                65,536-GPU fat-tree has 205,000 of them, and each pass over them is a
                sizeable part of a first pricing.
  node id    -- a node's position in the graph's node order.
  link id    -- edge i is directed link 2i as listed (u -> v) and 2i + 1 the way back.
  lookup     -- the link ids of many (from, to) node-id pairs at once: a sorted array of
                ``from * n + to`` keys searched with ``np.searchsorted``; where two entries
                share a key (a self-loop) the later one wins, as in a dict filled in order.
  neighbours -- every node's neighbours (CSR arrays) in the graph's adjacency order, so
                rules that take "the first best neighbour" give the same answer on arrays.
  connected  -- min-label hooking with pointer jumping over the edge arrays (NumPy only, a
                few passes), instead of a breadth-first search in Python.
"""

from __future__ import annotations

import numpy as np


def edge_list(graph) -> list[tuple]:
    """The edges ``(u, v, attrs)`` in networkx's order, read once and shared by the checks,
    the arrays and the signature."""
    return list(graph.edges(data=True))


class LinkTable:
    """Node ids, edge endpoints as arrays, and a vectorised (from, to) -> link id lookup."""

    def __init__(self, graph, edges):
        self.nodes = list(graph._node)
        self.node_id = {n: i for i, n in enumerate(self.nodes)}
        ids = self.node_id
        self.u = np.fromiter((ids[e[0]] for e in edges), dtype=np.int64, count=len(edges))
        self.v = np.fromiter((ids[e[1]] for e in edges), dtype=np.int64, count=len(edges))
        self._keys = None
        self._links = None
        self._csr = None

    def connected(self) -> bool:
        """Whether every node reaches every other one (True for a single node)."""
        n = len(self.nodes)
        if n <= 1:
            return True
        u, v = self.u, self.v
        label = np.arange(n)
        while True:
            lu, lv = label[u], label[v]
            differ = lu != lv
            if not differ.any():
                break
            lo, hi = np.minimum(lu[differ], lv[differ]), np.maximum(lu[differ], lv[differ])
            np.minimum.at(label, hi, lo)  # hook each root to its smallest neighbour's root
            while True:  # pointer jumping: every node straight to its root
                jumped = label[label]
                if (jumped == label).all():
                    break
                label = jumped
        return bool((label == label[0]).all())

    def find(self, frm: np.ndarray, to: np.ndarray) -> np.ndarray:
        """Link ids of the hops ``frm[i] -> to[i]`` (node ids), -1 where there is no link."""
        if self._keys is None:
            n = len(self.nodes)
            count = len(self.u)
            keys = np.concatenate([self.u * n + self.v, self.v * n + self.u])
            links = np.concatenate([2 * np.arange(count), 2 * np.arange(count) + 1])
            order = np.lexsort((links, keys))
            self._keys, self._links = keys[order], links[order]
        want = np.asarray(frm, dtype=np.int64) * len(self.nodes) + to
        pos = np.searchsorted(self._keys, want, side="right") - 1
        if not len(self._keys):
            return np.full(len(want), -1)
        found = (pos >= 0) & (self._keys[pos] == want)
        return np.where(found, self._links[pos], -1)

    def lookup(self, frm: np.ndarray, to: np.ndarray) -> np.ndarray:
        """:meth:`find` for hops that must exist.

        Raises:
          KeyError: a hop with no link.
        """
        ids = self.find(frm, to)
        if len(ids) and ids.min() < 0:
            bad = int(np.flatnonzero(ids < 0)[0])
            raise KeyError((self.nodes[int(frm[bad])], self.nodes[int(to[bad])]))
        return ids

    def neighbours(self, graph):
        """(indptr, indices): every node's neighbours as node ids, in the graph's own
        adjacency order (built on first use)."""
        if self._csr is None:
            ids = self.node_id
            rows = [[ids[w] for w in graph._adj[n]] for n in self.nodes]
            indptr = np.zeros(len(rows) + 1, dtype=np.int64)
            np.cumsum([len(r) for r in rows], out=indptr[1:])
            indices = np.fromiter((w for r in rows for w in r), dtype=np.int64,
                                  count=int(indptr[-1]))
            self._csr = (indptr, indices)
        return self._csr
