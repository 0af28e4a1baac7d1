"""A topology graph's links as arrays, read in one pass over its adjacency.

Glossary:
  read       -- :meth:`LinkTable.read`: one pass over networkx's adjacency dicts (C-level
                ``map``/``chain``, no Python code per edge) gives the node ids, every node's
                neighbours and the link figures; a 65,536-GPU fat-tree's 205,000 edges take
                about a tenth of what iterating ``graph.edges(data=True)`` takes.
  node id    -- a node's position in the graph's adjacency order (``graph._adj``).
  edge order -- networkx's: node by node, a neighbour listed unless it came earlier (so a
                neighbour whose id is >= the node's); a MultiGraph is read edge by edge.
  link id    -- edge i is directed link 2i as listed (u -> v) and 2i + 1 the way back.
  signature  -- a hash of the node names, the edges and their figures: a cached Topology is
                rebuilt when a user edits the graph (adds a node, changes a bandwidth).
  lookup     -- the link ids of many (from, to) node-id pairs at once: a sorted array of
                ``from * n + to`` keys searched with ``np.searchsorted``; where two entries
                share a key (a self-loop) the later one wins, as in a dict filled in order.
  neighbours -- every node's neighbours (CSR arrays) in the graph's adjacency order, so
                rules that take "the first best neighbour" give the same answer on arrays.
  connected  -- min-label hooking with pointer jumping over the edge arrays (NumPy only, a
                few passes), instead of a breadth-first search in Python.
"""

from __future__ import annotations

from itertools import chain, compress
from operator import itemgetter, methodcaller

import numpy as np

_BANDWIDTH = methodcaller("get", "bandwidth")
_LATENCY = methodcaller("get", "latency", 0.0)
# Where every link has both figures (the presets), C-level item reads, a third cheaper.
_FIGURES = itemgetter("bandwidth"), itemgetter("latency")


def edge_list(graph) -> list[tuple]:
    """The edges ``(u, v, attrs)`` in networkx's order (``graph.edges(data=True)``)."""
    return list(graph.edges(data=True))


class LinkTable:
    """Node ids, edge endpoints and figures as arrays, and a vectorised (from, to) -> link
    id lookup. Build it with :meth:`read`."""

    def __init__(self, nodes, u, v, attrs, csr=None):
        self.nodes = nodes
        self.node_id = dict(zip(nodes, range(len(nodes))))
        self.u = u
        self.v = v
        self._attrs = attrs  # each edge's attribute dict, in edge order
        self._csr = csr
        self._from_adjacency = False  # read() of a simple graph: one key per adjacency entry
        self._keys = None
        self._links = None
        self._figures = None
        self._signature = None

    @classmethod
    def read(cls, graph) -> LinkTable:
        """The table of ``graph`` (an undirected networkx graph), read in one pass."""
        if graph.is_multigraph():
            return cls.from_edges(graph, edge_list(graph))
        adj = graph._adj  # the plain dicts: the views cost a Python call per item
        nodes = list(adj)
        n = len(nodes)
        rows = list(adj.values())
        degree = np.fromiter(map(len, rows), dtype=np.int64, count=n)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(degree, out=indptr[1:])
        table = cls(nodes, None, None, None)
        indices = np.fromiter(map(table.node_id.__getitem__, chain.from_iterable(rows)),
                              dtype=np.int64, count=int(indptr[-1]))
        owner = np.repeat(np.arange(n, dtype=np.int64), degree)
        # networkx lists edge (n, w) at n when w is not an earlier node: w's id >= n's.
        keep = indices >= owner
        table.u, table.v = owner[keep], indices[keep]
        table._attrs = list(compress(chain.from_iterable(map(dict.values, rows)),
                                     keep.tolist()))
        table._csr = (indptr, indices)
        table._from_adjacency = True
        return table

    @classmethod
    def from_edges(cls, graph, edges) -> LinkTable:
        """The table of an edge list ``(u, v, attrs)`` (a MultiGraph's, or a test's)."""
        nodes = list(graph._adj)
        table = cls(nodes, None, None, [e[2] for e in edges])
        ids = table.node_id
        table.u = np.fromiter((ids[e[0]] for e in edges), dtype=np.int64, count=len(edges))
        table.v = np.fromiter((ids[e[1]] for e in edges), dtype=np.int64, count=len(edges))
        return table

    @property
    def edges(self) -> list[tuple]:
        """``(u, v, attrs)`` per edge, in edge order (for messages naming a link)."""
        nodes = self.nodes
        return [(nodes[a], nodes[b], attrs) for a, b, attrs in
                zip(self.u.tolist(), self.v.tolist(), self._attrs)]

    def figures(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(bandwidth, latency) per edge as floats (a missing latency is 0, a missing
        bandwidth NaN), or None where a figure is not a number."""
        if self._figures is None:
            try:
                try:
                    self._figures = tuple(self._floats(get) for get in _FIGURES)
                except KeyError:  # a link without one: the defaults (NaN, 0)
                    self._figures = (self._floats(_BANDWIDTH), self._floats(_LATENCY))
            except (TypeError, ValueError):
                return None
        return self._figures

    def _floats(self, get) -> np.ndarray:
        """``get(attrs)`` of every edge as floats (ValueError for a sequence)."""
        return np.fromiter(map(get, self._attrs), dtype=float, count=len(self._attrs))

    @property
    def signature(self) -> int:
        """A hash of the nodes, the edges and their figures (see the glossary)."""
        if self._signature is None:
            figures = self.figures()
            if figures is None:  # not numbers: Topology refuses them, naming the link
                links = tuple((a.get("bandwidth"), a.get("latency")) for a in self._attrs)
            else:
                links = (figures[0].tobytes(), figures[1].tobytes())
            self._signature = hash((tuple(self.nodes), self.u.tobytes(), self.v.tobytes(),
                                    links))
        return self._signature

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
            self._keys, self._links = self._sorted_keys()
        want = np.asarray(frm, dtype=np.int64) * len(self.nodes) + to
        pos = np.searchsorted(self._keys, want, side="right") - 1
        if not len(self._keys):
            return np.full(len(want), -1)
        found = (pos >= 0) & (self._keys[pos] == want)
        return np.where(found, self._links[pos], -1)

    def _sorted_keys(self):
        """(sorted ``from * n + to`` keys, their link ids) of both directions of every
        link."""
        n = len(self.nodes)
        count = len(self.u)
        if not self._from_adjacency:
            keys = np.concatenate([self.u * n + self.v, self.v * n + self.u])
            links = np.concatenate([2 * np.arange(count), 2 * np.arange(count) + 1])
            order = np.lexsort((links, keys))
            return keys[order], links[order]
        # A simple graph read from its adjacency: one key per adjacency entry, already
        # sorted by row, so a stable sort (runs) is quick. An entry kept as edge e is
        # link 2e; the other direction of that edge is link 2e + 1 (and so is a
        # self-loop's one entry: the later of its two equal keys, as the dict rule says).
        indptr, indices = self._csr
        owner = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        keys = owner * n + indices
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        kept = indices >= owner
        edge_of = np.cumsum(kept) - 1  # edge index of each kept entry
        links = np.empty(len(keys), dtype=np.int64)
        links[kept] = 2 * edge_of[kept]
        links[indices == owner] += 1
        back = np.flatnonzero(~kept)  # entry a -> b with b < a: edge (b, a) listed at b
        twin = order[np.searchsorted(keys, indices[back] * n + owner[back])]
        links[back] = 2 * edge_of[twin] + 1
        return keys, links[order]

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
        adjacency order (read with the table, or built on first use)."""
        if self._csr is None:
            ids = self.node_id
            rows = [[ids[w] for w in graph._adj[n]] for n in self.nodes]
            indptr = np.zeros(len(rows) + 1, dtype=np.int64)
            np.cumsum([len(r) for r in rows], out=indptr[1:])
            indices = np.fromiter((w for r in rows for w in r), dtype=np.int64,
                                  count=int(indptr[-1]))
            self._csr = (indptr, indices)
        return self._csr
