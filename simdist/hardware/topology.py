"""Topologies: networkx graphs of devices, switches and links, and routes over them.

Glossary:
  graph      -- an undirected ``networkx.Graph``; nodes have ``kind`` (``GPU``, ``TPU``,
                ``CPU`` or a switch kind) and devices a ``spec`` (hardware.specs key); edges
                have ``bandwidth`` (bytes/s per direction) and ``latency`` (s).
  Topology   -- a validated graph plus a route cache; links are numbered per direction
                so the cost model can count how many bytes cross each one in a step.
  route      -- the lowest-latency path between two nodes (ties: fewest hops), as the
                directed link ids it crosses and its summed latency.
  TOPOLOGIES -- preset name -> builder (``TOPOLOGIES["dgx-a100"]()`` gives a graph).
  DEFAULT    -- with no topology, p devices sit on one NVSwitch fabric of A100s
                (``nvswitch(p, "A100")``): every pair of devices has the same path.
"""

from __future__ import annotations

import heapq
import weakref
from operator import methodcaller
from typing import TYPE_CHECKING

import numpy as np

from simdist.hardware import bounded_memo, route_batch
from simdist.hardware.link_table import LinkTable
from simdist.hardware.topologies.multinode import fat_tree
from simdist.hardware.topologies.nvlink import dgx1, nvlink_ring
from simdist.hardware.topologies.nvswitch import dgx_a100, dgx_h100, nvswitch
from simdist.hardware.topologies.pcie import pcie_tree
from simdist.hardware.topologies.torus import tpu_torus

if TYPE_CHECKING:  # networkx loads with the first Topology, not with ``import simdist``
    import networkx as nx

TOPOLOGIES = {
    "pcie-tree": pcie_tree,
    "nvlink-ring": nvlink_ring,
    "dgx1": dgx1,
    "nvswitch": nvswitch,
    "dgx-a100": dgx_a100,
    "dgx-h100": dgx_h100,
    "fat-tree": fat_tree,
    "tpu-torus": tpu_torus,
}

ACCELERATORS = ("GPU", "TPU")
_SPEC = methodcaller("get", "spec", "")
_KIND = methodcaller("get", "kind")
# The graph attributes a Topology, its hints and the algorithms read (see inputs_digest).
GRAPH_KEYS = ("name", "devices", "hosts", "rings", "ring_order", "ring_ranks", "local_size",
              "dims", "uplinks", "uplinks_signature", "uplink_ids")
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class TopologyError(ValueError):
    """A topology that cannot carry the collective (disconnected, unknown node, bad link)."""


class Topology:
    """A validated topology graph with numbered directed links and cached routes."""

    def __init__(self, graph: nx.Graph, table: LinkTable | None = None):
        _check_graph(graph)
        self.graph = graph
        self.name = graph.graph.get("name", "custom")
        # One pass over the adjacency (a 65,536-GPU fat-tree has 205,000 edges): the link
        # figures as arrays, checked at once; the per-edge check only names a bad link.
        self._table = table = LinkTable.read(graph) if table is None else table
        figures = table.figures()
        if figures is None or not ((figures[0] > 0).all() and (figures[1] >= 0).all()):
            self._check_links(table.edges)
            figures = table.figures()
        bws, lats = figures
        devices = graph.graph.get("devices") or [
            n for n, d in graph.nodes(data=True) if d.get("kind") in ACCELERATORS]
        self.devices = list(devices)
        self.require_all(self.devices)  # so placing ranks on them needs no check per call
        self.hosts = list(graph.graph.get("hosts") or [
            n for n, d in graph.nodes(data=True) if d.get("kind") == "CPU"])
        self._check_connected()
        # Directed link 2i is edge i as the graph lists it (u -> v), 2i + 1 the way back.
        self.bandwidth = np.repeat(bws, 2)
        self.latency = np.repeat(lats, 2)
        self._min_latency = float(self.latency.min()) if len(self.latency) else 0.0
        self._adj = None
        self._routes: dict[tuple, tuple[np.ndarray, float]] = {}
        self._memo: dict[str, dict] = {}
        self._signature = table.signature
        self._inputs = inputs_digest(graph)
        self._uplinks = graph.graph.get("uplinks") if \
            graph.graph.get("uplinks_signature") == self._signature else None
        self._up_ids = None

    @staticmethod
    def _check_links(edges) -> None:
        for u, v, attrs in edges:
            bw, lat = attrs.get("bandwidth"), attrs.get("latency", 0.0)
            if bw is None or not bw > 0 or lat < 0:
                raise TopologyError(f"Link {u} -- {v} needs bandwidth > 0 (bytes/s) and "
                                    f"latency >= 0 (s); it has {attrs}.")

    def _check_connected(self) -> None:
        if self.graph.number_of_nodes() == 0:
            raise TopologyError("The topology graph has no nodes.")
        if self._table.connected():
            return
        import networkx as nx

        parts = sorted(nx.connected_components(self.graph), key=len, reverse=True)
        a, b = next(iter(parts[0])), next(iter(parts[1]))
        raise TopologyError(
            f"Topology {self.name!r} is disconnected ({len(parts)} components): {b!r} cannot "
            f"reach {a!r}. Add links so every device can reach every other one.")

    def require(self, node) -> None:
        if node not in self.graph:
            raise TopologyError(f"Device {node!r} is not in topology {self.name!r}; it has "
                                f"{len(self.devices)} devices, e.g. {self.devices[:4]}.")

    def require_all(self, nodes) -> None:
        """``require`` for many nodes (one membership test each, no call per node)."""
        missing = set(nodes).difference(self.graph._node)
        if missing:
            self.require(next(n for n in nodes if n in missing))

    def route(self, src, dst) -> tuple[np.ndarray, float]:
        """Directed link ids from ``src`` to ``dst`` and the summed latency (cached)."""
        hit = self._routes.get((src, dst))
        if hit is None:
            self.route_many([src], [dst])
            hit = self._routes[(src, dst)]
        return hit

    def route_many(self, srcs, dsts) -> list[tuple[np.ndarray, float]]:
        """:meth:`route` of every pair ``srcs[i] -> dsts[i]``, the new ones found together
        (:meth:`route_ids`)."""
        routes = self._routes
        out = [routes.get(key) for key in zip(srcs, dsts)]
        todo = [i for i, hit in enumerate(out) if hit is None]
        if not todo:
            return out
        flat, lens, lats = self.route_ids(self.node_ids([srcs[i] for i in todo]),
                                          self.node_ids([dsts[i] for i in todo]))
        ends = np.cumsum(lens).tolist()
        for i, start, end, lat in zip(todo, [0] + ends[:-1], ends, lats.tolist()):
            hit = out[i] = (flat[start:end], lat)
            routes[(srcs[i], dsts[i])] = hit
        return out

    def placement_ids(self, nodes) -> np.ndarray:
        """:meth:`node_ids` of a placement, cached (pricing and routing both need them)."""
        return self.memo("node ids", tuple(nodes), lambda: self.node_ids(nodes))

    def node_ids(self, nodes) -> np.ndarray:
        """Node ids (positions in the link table) of node names."""
        return np.fromiter(map(self._table.node_id.__getitem__, nodes), dtype=np.int64,
                           count=len(nodes))

    def route_ids(self, s: np.ndarray, d: np.ndarray):
        """Routes of the pairs ``s[i] -> d[i]`` (node ids) as arrays, not cached: every
        directed link id, pair after pair (``flat``), each pair's hop count and summed
        latency. A few array operations for all pairs, not one per pair."""
        same = s == d
        groups = [(np.flatnonzero(same), s[same][:, None])]
        moving = np.flatnonzero(~same)
        groups += [(moving[rows], nodes) for rows, nodes in
                   route_batch.paths(self, s[moving], d[moving])]
        lens = np.zeros(len(s), dtype=np.int64)
        lats = np.zeros(len(s))
        for rows, nodes in groups:
            lens[rows] = nodes.shape[1] - 1
        starts = np.cumsum(lens) - lens
        flat = np.zeros(int(lens.sum()), dtype=np.int64)
        for rows, nodes in groups:
            hops = nodes.shape[1] - 1
            if not hops or not len(rows):
                continue
            ids = self._table.lookup(nodes[:, :-1].ravel(), nodes[:, 1:].ravel()).reshape(
                len(rows), hops)
            flat[(starts[rows][:, None] + np.arange(hops)).ravel()] = ids.ravel()
            # Row sums of a (pairs x hops) array: the same floats as latency[ids].sum().
            lats[rows] = self.latency[ids].sum(axis=1)
        return flat, lens, lats

    def _uplink_ids(self) -> np.ndarray:
        """The uplinks as node ids (-1: none), built on first use."""
        if self._up_ids is None and self._uplinks is not None:
            ids = self.graph.graph.get("uplink_ids")  # the preset's, same signature
            if isinstance(ids, np.ndarray) and ids.shape == (len(self._table.nodes),) \
                    and int((ids >= 0).sum()) == len(self._uplinks):
                self._up_ids = ids
        if self._up_ids is None:
            up = np.full(len(self._table.nodes), -1)
            up[self.node_ids(list(self._uplinks))] = self.node_ids(list(
                self._uplinks.values()))
            self._up_ids = up
        return self._up_ids

    def _short_path(self, src, dst):
        """A one- or two-hop path when it is provably the lowest-latency one.

        Any path of k hops costs at least k x the smallest link latency, so a direct link
        no slower than two minimal hops (or a best two-hop path no slower than three) wins.
        This skips Dijkstra for neighbours and for devices behind one switch, which keeps
        routing thousands of ring neighbours cheap even through a 4096-port hub.
        """
        adj = self.graph._adj  # the plain dicts: the adjacency views cost a call per lookup
        floor = self._min_latency
        direct = adj[src].get(dst)
        if direct is not None and direct.get("latency", 0.0) <= 2 * floor:
            return [src, dst]
        if direct is not None:
            return None
        near, far = (src, dst) if len(adj[src]) <= len(adj[dst]) else (dst, src)
        best, via = None, None
        for w, attrs in adj[near].items():
            other = adj[far].get(w)
            if other is not None:
                lat = attrs.get("latency", 0.0) + other.get("latency", 0.0)
                if best is None or lat < best:
                    best, via = lat, w
        if via is not None and best <= 3 * floor:
            return [src, via, dst]
        return None

    def _dijkstra(self, src, dst) -> list:
        """Bidirectional Dijkstra on latency over integer adjacency lists (no networkx
        call overhead per edge: routing thousands of cross-node pairs stays fast)."""
        if self._adj is None:
            self._ids = {n: i for i, n in enumerate(self.graph.nodes)}
            self._names = list(self.graph.nodes)
            self._adj = [[(self._ids[v], a.get("latency", 0.0)) for v, a in
                          self.graph.adj[u].items()] for u in self._names]
        s, t = self._ids[src], self._ids[dst]
        dist = ({s: 0.0}, {t: 0.0})
        pred = ({s: -1}, {t: -1})
        done = (set(), set())
        heaps = ([(0.0, s)], [(0.0, t)])
        best, meet = float("inf"), -1
        while heaps[0] and heaps[1]:
            if heaps[0][0][0] + heaps[1][0][0] >= best:
                break
            side = 0 if heaps[0][0][0] <= heaps[1][0][0] else 1
            d, u = heapq.heappop(heaps[side])
            if u in done[side]:
                continue
            done[side].add(u)
            mine, other = dist[side], dist[1 - side]
            for v, w in self._adj[u]:
                nd = d + w
                if nd < mine.get(v, float("inf")):
                    mine[v] = nd
                    pred[side][v] = u
                    heapq.heappush(heaps[side], (nd, v))
                if v in other and nd + other[v] < best:
                    best, meet = nd + other[v], v
        if meet < 0:
            raise TopologyError(f"No route from {src!r} to {dst!r} in topology {self.name!r}.")
        forward, node = [], meet
        while node != -1:
            forward.append(node)
            node = pred[0][node]
        forward.reverse()
        node = pred[1][meet]
        while node != -1:
            forward.append(node)
            node = pred[1][node]
        return [self._names[i] for i in forward]

    def path(self, src, dst) -> list:
        """The nodes a transfer from ``src`` to ``dst`` passes through, ends included."""
        ids, _ = self.route(src, dst)
        table = self._table
        to = np.where(ids % 2 == 0, table.v[ids // 2], table.u[ids // 2])
        return [src] + [table.nodes[i] for i in to.tolist()]

    def mem_bw(self, node) -> float | None:
        """Memory bandwidth of a device node (for reduction compute), from its spec."""
        from simdist.hardware.specs import SPECS

        spec = SPECS.get(self.graph.nodes[node].get("spec", ""))
        return spec.mem_bw if spec else None

    def mem_bw_array(self, nodes) -> np.ndarray:
        """``mem_bw`` of each node as floats, infinite (free) when unknown; cached (with the
        specs it read, see :meth:`specs_unchanged`)."""
        return self.memo("mem_bw", tuple(nodes), lambda: self._mem_bw(nodes))[1]

    def _mem_bw(self, nodes) -> tuple[list, np.ndarray]:
        from simdist.hardware.specs import SPECS

        specs = self._specs(nodes)
        by_spec = {s: (SPECS[s].mem_bw if s in SPECS else None) or np.inf
                   for s in dict.fromkeys(specs)}
        if len(by_spec) == 1:  # one kind of device (the presets)
            return specs, np.full(len(specs), next(iter(by_spec.values())))
        return specs, np.fromiter(map(by_spec.__getitem__, specs), dtype=float,
                                  count=len(specs))

    def _specs(self, nodes) -> list:
        return list(map(_SPEC, map(self.graph._node.__getitem__, nodes)))

    def specs_unchanged(self) -> bool:
        """Whether every node whose spec a kept result read (the memory bandwidth of placed
        ranks) still has that spec: an edited spec must not leave a price standing."""
        try:
            return all(self._specs(nodes) == specs
                       for nodes, (specs, _) in self._memo.get("mem_bw", {}).items())
        except KeyError:  # a node gone (the links' signature says so first)
            return False

    def memo(self, name: str, key, compute, limit: int | None = None):
        """``compute()`` cached under (name, key) for this topology's lifetime (the
        Topology is rebuilt when its graph changes, so nothing goes stale). Callers treat
        the value as read-only. With ``limit``, a full cache of that name starts over."""
        return bounded_memo.kept(self._memo.setdefault(name, {}), key, compute, limit)


def _check_graph(graph) -> None:
    import networkx as nx

    if not isinstance(graph, nx.Graph) or graph.is_directed():
        raise TopologyError(f"A topology must be an undirected networkx.Graph, got "
                            f"{type(graph).__name__}.")


def inputs_digest(graph: nx.Graph) -> int:
    """A fingerprint of what a Topology reads from ``graph`` besides its links and node specs
    (``Topology.specs_unchanged``): the nodes' kinds where the graph does not list its
    devices and hosts, and the graph attributes in GRAPH_KEYS (devices, hosts, rings,
    uplinks ...). With those it decides whether a cached Topology, and the routes, hints
    and prices kept on it, still stand."""
    meta = graph.graph
    kinds = None if meta.get("devices") and meta.get("hosts") else tuple(
        map(_KIND, graph._node.values()))
    return hash((kinds, tuple(_digest(meta.get(k)) for k in GRAPH_KEYS)))


def _digest(value) -> int:
    """A hash of a graph attribute by value (lists, dicts and arrays included)."""
    if isinstance(value, np.ndarray):
        return hash((value.dtype.str, value.shape, value.tobytes()))
    if isinstance(value, dict):
        return hash((_digest(list(value)), _digest(list(value.values()))))
    if isinstance(value, list):
        value = tuple(value)
    try:
        return hash(value)
    except TypeError:  # nested (rings: lists of names), or an object without a value hash
        try:
            return hash(tuple(map(_digest, value)))
        except TypeError:
            return id(value)


def signature(graph: nx.Graph) -> int:
    """A fingerprint of the nodes and link figures (``LinkTable.signature``): a cached
    Topology is rebuilt when a user edits the graph between two calls."""
    return LinkTable.read(graph).signature


def default_topology(num_devices: int) -> nx.Graph:
    """The topology used when none is given: ``num_devices`` A100s on one NVSwitch."""
    return nvswitch(max(num_devices, 1), "A100")


def as_topology(topology, num_devices: int | None = None) -> Topology:
    """A :class:`Topology` from a graph, a preset name, a Topology or ``None`` (default).

    Raises:
      TopologyError: for an unknown preset name or an invalid / disconnected graph.
    """
    if isinstance(topology, Topology):
        return topology
    if topology is None:
        topology = default_topology(num_devices or 1)
    elif isinstance(topology, str):
        if topology not in TOPOLOGIES:
            raise TopologyError(f"Unknown topology {topology!r}; presets are "
                                f"{sorted(TOPOLOGIES)} (or pass a networkx.Graph).")
        topology = TOPOLOGIES[topology]()
    try:
        cached = _CACHE.get(topology)
    except TypeError:
        cached = None
    _check_graph(topology)
    table = LinkTable.read(topology)  # one pass over the adjacency, on every call
    if cached is not None and cached._signature == table.signature and \
            cached._inputs == inputs_digest(topology) and cached.specs_unchanged():
        return cached
    topo = Topology(topology, table)
    try:
        _CACHE[topology] = topo
    except TypeError:
        pass
    return topo
