"""Routing many pairs at once (route_batch, LinkTable, the fat-tree's uplink hints) picks
exactly the routes of the per-pair rules: one- and two-hop paths, else Dijkstra.

The oracle routes each pair alone with the per-pair rules (``_short_path``, else the
bidirectional ``_dijkstra``) and numbers its links with a dict filled edge by edge, as
Topology did before routes were found in batches.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simdist.hardware import TOPOLOGIES
from simdist.hardware.link_table import LinkTable
from simdist.hardware.topology import Topology, as_topology


def oracle(topo, a, b):
    if a == b:
        return [], 0.0
    path = topo._short_path(a, b) or topo._dijkstra(a, b)
    index = {}
    for i, (u, v, _) in enumerate(topo.graph.edges(data=True)):
        index[(u, v)], index[(v, u)] = 2 * i, 2 * i + 1
    ids = [index[h] for h in zip(path, path[1:])]
    return ids, float(topo.latency[np.array(ids, dtype=np.int64)].sum())


def assert_routes_match(graph, nodes=None):
    topo = Topology(graph)
    nodes = list(topo.devices if nodes is None else nodes)
    pairs = list(itertools.product(nodes, nodes))
    got = topo.route_many([a for a, _ in pairs], [b for _, b in pairs])
    fresh = Topology(graph)  # an oracle without the batch's cached routes
    fresh._uplinks = None
    for (a, b), (ids, lat) in zip(pairs, got):
        want_ids, want_lat = oracle(fresh, a, b)
        assert ids.tolist() == want_ids, (a, b)
        assert lat == want_lat, (a, b)


@given(nodes=st.integers(1, 6), gpus=st.integers(1, 5), nics=st.integers(1, 5),
       per_leaf=st.integers(1, 4))
def test_fat_tree_routes_equal_the_per_pair_routes(nodes, gpus, nics, per_leaf):
    nics = min(nics, gpus)
    graph = TOPOLOGIES["fat-tree"](nodes, gpus_per_node=gpus, nics_per_node=nics,
                                   nodes_per_leaf=per_leaf)
    topo = Topology(graph)
    assert topo._uplinks is not None  # the hints are in use on an unedited preset
    assert_routes_match(graph, topo.devices + topo.hosts)


@given(nodes=st.integers(1, 6), gpus=st.integers(1, 5), nics=st.integers(1, 5),
       per_leaf=st.integers(1, 4))
def test_fat_tree_uplink_ids_are_its_uplinks_by_node_id(nodes, gpus, nics, per_leaf):
    # The preset keeps its uplink hints as node ids too; a Topology uses them as they are.
    graph = TOPOLOGIES["fat-tree"](nodes, gpus_per_node=gpus, nics_per_node=min(nics, gpus),
                                   nodes_per_leaf=per_leaf)
    names = list(graph._adj)
    want = [names.index(graph.graph["uplinks"][n]) if n in graph.graph["uplinks"] else -1
            for n in names]
    topo = Topology(graph)
    assert topo._uplink_ids().tolist() == want
    del graph.graph["uplink_ids"]  # without them: read from the names, the same ids
    assert Topology(graph)._uplink_ids().tolist() == want


def test_fat_tree_cross_node_routes_are_the_unique_shortest_paths():
    graph = TOPOLOGIES["fat-tree"](5, gpus_per_node=4, nics_per_node=2, nodes_per_leaf=2)
    topo = as_topology(graph)
    d = topo.devices
    for a, b in [(d[0], d[5]), (d[3], d[19]), (d[6], d[13])]:
        paths = list(nx.all_shortest_paths(graph, a, b, weight="latency"))
        assert paths == [topo.path(a, b)]


def test_an_edited_fat_tree_drops_its_hints_and_routes_by_dijkstra():
    graph = TOPOLOGIES["fat-tree"](3, gpus_per_node=2, nics_per_node=2, nodes_per_leaf=1)
    d = graph.graph["devices"]
    # NIC 0 of node 0 becomes slow: GPU 0 now leaves through the NVSwitch and GPU 1's NIC.
    graph.edges[d[0], "nic:0.0"]["latency"] = 1.0
    topo = as_topology(graph)
    assert topo._uplinks is None
    assert "nic:0.1" in topo.path(d[0], d[4])
    assert_routes_match(graph)


@given(preset=st.sampled_from(["nvswitch", "nvlink-ring", "pcie-tree", "dgx1", "tpu-torus"]),
       size=st.integers(2, 9))
def test_other_presets_route_as_the_per_pair_rules(preset, size):
    builders = {"nvswitch": lambda p: TOPOLOGIES["nvswitch"](p),
                "nvlink-ring": lambda p: TOPOLOGIES["nvlink-ring"](p),
                "pcie-tree": lambda p: TOPOLOGIES["pcie-tree"](p),
                "dgx1": lambda p: TOPOLOGIES["dgx1"](),
                "tpu-torus": lambda p: TOPOLOGIES["tpu-torus"](p % 4 + 1, 3)}
    graph = builders[preset](size)
    topo = Topology(graph)
    assert_routes_match(graph, topo.devices + topo.hosts)


@given(n=st.integers(1, 12), edges=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11),
                                                      st.sampled_from([0.0, 1e-6, 2e-6, 3e-6])),
                                            max_size=30))
def test_random_graphs_route_as_the_per_pair_rules(n, edges):
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for u, v, lat in edges:
        if u < n and v < n:
            graph.add_edge(u, v, bandwidth=1e9, latency=lat)
    table = LinkTable.read(graph)
    assert table.connected() == nx.is_connected(graph)
    if nx.is_connected(graph):
        assert_routes_match(graph, list(graph.nodes))



@given(n=st.integers(1, 10),
       edges=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9),
                                st.sampled_from([1e9, 2e9, 5e10])), max_size=25),
       removed=st.lists(st.integers(0, 9), max_size=2))
def test_reading_the_adjacency_gives_networkx_edges_and_link_ids(n, edges, removed):
    # Edges are added in any order (self-loops included), nodes removed afterwards: the
    # one-pass read must list networkx's edges in networkx's order and number the links as
    # a dict filled edge by edge does (a self-loop's later number wins).
    graph = nx.Graph()
    graph.add_nodes_from(range(n - 1, -1, -1))
    for u, v, bw in edges:
        if u < n and v < n:
            graph.add_edge(u, v, bandwidth=bw, latency=1e-6 * (u + v))
    graph.remove_nodes_from([r for r in removed if r < n - 1])
    table = LinkTable.read(graph)
    want = list(graph.edges(data=True))
    assert [(u, v) for u, v, _ in table.edges] == [(u, v) for u, v, _ in want]
    assert all(a is b for (_, _, a), (_, _, b) in zip(table.edges, want))
    bws, lats = table.figures()
    assert bws.tolist() == [a["bandwidth"] for _, _, a in want]
    assert lats.tolist() == [a["latency"] for _, _, a in want]
    index = {}
    for i, (u, v, _) in enumerate(want):
        index[(u, v)], index[(v, u)] = 2 * i, 2 * i + 1
    nodes = list(graph.nodes)
    ids = table.node_id
    pairs = list(itertools.product(nodes, nodes))
    got = table.find(np.array([ids[a] for a, _ in pairs], dtype=np.int64),
                     np.array([ids[b] for _, b in pairs], dtype=np.int64))
    assert got.tolist() == [index.get(p, -1) for p in pairs]


def test_the_signature_changes_with_the_graph():
    graph = TOPOLOGIES["fat-tree"](2, gpus_per_node=2, nics_per_node=1)
    same = TOPOLOGIES["fat-tree"](2, gpus_per_node=2, nics_per_node=1)
    first = LinkTable.read(graph).signature
    assert LinkTable.read(same).signature == first
    d = graph.graph["devices"]
    graph.edges[d[0], "nic:0.0"]["bandwidth"] *= 2
    assert LinkTable.read(graph).signature != first
    graph.edges[d[0], "nic:0.0"]["bandwidth"] /= 2
    assert LinkTable.read(graph).signature == first
    graph.add_node("spare")
    assert LinkTable.read(graph).signature != first
