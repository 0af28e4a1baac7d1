"""Topology presets (spec-sheet figures), routing, and validation errors."""

from __future__ import annotations

import networkx as nx
import pytest

from simdist.hardware import TOPOLOGIES
from simdist.hardware.topology import Topology, TopologyError, as_topology, default_topology

GB = 1e9


@pytest.mark.parametrize("name", sorted(TOPOLOGIES))
def test_every_preset_is_a_connected_graph_with_devices(name):
    graph = TOPOLOGIES[name]()
    assert isinstance(graph, nx.Graph) and nx.is_connected(graph)
    topo = as_topology(graph)
    assert topo.devices and all(graph.nodes[d]["kind"] in ("GPU", "TPU") for d in topo.devices)
    for _, _, attrs in graph.edges(data=True):
        assert attrs["bandwidth"] > 0 and attrs["latency"] >= 0
    assert as_topology(name).name == graph.graph["name"]


def nvlink_bw(graph, gpu):
    return sum(a["bandwidth"] for _, _, a in graph.edges(gpu, data=True)
               if a["kind"].startswith("nvlink"))


def test_dgx1_is_a_hybrid_cube_mesh_of_six_nvlinks_per_gpu():
    graph = TOPOLOGIES["dgx1"]()
    gpus = graph.graph["devices"]
    for g in gpus:
        links = sum(a["links"] for _, _, a in graph.edges(g, data=True) if a["kind"] == "nvlink2")
        assert links == 6 and nvlink_bw(graph, g) == pytest.approx(150 * GB)
    assert not graph.has_edge(gpus[0], gpus[5])  # 0 reaches 5 through a neighbour
    assert len(as_topology(graph).path(gpus[0], gpus[5])) == 3


@pytest.mark.parametrize("name,per_gpu", [("dgx-a100", 300 * GB), ("dgx-h100", 450 * GB)])
def test_nvswitch_nodes_carry_the_data_sheet_bandwidth(name, per_gpu):
    graph = TOPOLOGIES[name]()
    assert len(graph.graph["devices"]) == 8
    for g in graph.graph["devices"]:
        assert nvlink_bw(graph, g) == pytest.approx(per_gpu)


def test_fat_tree_nics_and_infiniband_generations():
    graph = TOPOLOGIES["fat-tree"](num_nodes=3, nics_per_node=2, infiniband="NDR")
    nics = [n for n, d in graph.nodes(data=True) if d["kind"] == "nic"]
    assert len(nics) == 6 and len(graph.graph["devices"]) == 24
    for nic in nics:
        ib = [a for _, _, a in graph.edges(nic, data=True) if a["kind"] == "ib-ndr"]
        assert len(ib) == 1 and ib[0]["bandwidth"] == pytest.approx(50 * GB)
    assert len(graph.graph["rings"]) == 2
    big = TOPOLOGIES["fat-tree"](num_nodes=40, infiniband="HDR")
    assert "ib-spine" in big and as_topology(big).devices
    with pytest.raises(ValueError, match="InfiniBand"):
        TOPOLOGIES["fat-tree"](infiniband="EDRX")


def test_tpu_torus_wraps_around():
    graph = TOPOLOGIES["tpu-torus"](4, 3)
    chips = graph.graph["devices"]
    assert all(graph.degree(c) == 4 for c in chips)
    assert graph.has_edge(chips[0], chips[3]) and graph.has_edge(chips[0], chips[8])


def test_pcie_tree_shares_the_cpu_uplinks():
    graph = TOPOLOGIES["pcie-tree"](num_gpus=4)
    topo = as_topology(graph)
    d = topo.devices
    assert len(topo.path(d[0], d[1])) == 3 and len(topo.path(d[0], d[2])) == 5


def test_default_topology_is_one_nvswitch_of_a100s():
    graph = default_topology(5)
    assert len(graph.graph["devices"]) == 5 and graph.graph["local_size"] == 5


def test_routes_are_lowest_latency_and_use_existing_links():
    graph = TOPOLOGIES["fat-tree"](num_nodes=20)
    topo = as_topology(graph)
    d = topo.devices
    for a, b in [(d[0], d[9]), (d[3], d[150]), (d[7], d[6])]:
        path = topo.path(a, b)
        assert all(graph.has_edge(u, v) for u, v in zip(path, path[1:]))
        best = nx.shortest_path_length(graph, a, b, weight="latency")
        assert topo.route(a, b)[1] == pytest.approx(best)


def test_invalid_graphs_give_clear_errors():
    g = nx.Graph()
    g.add_edge("a", "b", bandwidth=1e9, latency=0)
    g.add_edge("c", "d", bandwidth=1e9, latency=0)
    with pytest.raises(TopologyError, match="disconnected"):
        Topology(g)
    bad = nx.Graph()
    bad.add_edge("a", "b", latency=0)
    with pytest.raises(TopologyError, match="bandwidth"):
        Topology(bad)
    with pytest.raises(TopologyError, match="Unknown topology"):
        as_topology("dgx-9000")
    with pytest.raises(TopologyError, match="undirected"):
        Topology(nx.DiGraph())


def _small_cluster():
    return TOPOLOGIES["fat-tree"](2, gpus_per_node=4, nics_per_node=2)


def _custom_switch(kind_of_d="CPU"):
    graph = nx.Graph(name="custom")
    for n in "abc":
        graph.add_node(n, kind="GPU", spec="A100")
    graph.add_node("d", kind=kind_of_d, spec="A100")
    graph.add_node("s", kind="nvswitch")
    for n in "abcd":
        graph.add_edge(n, "s", bandwidth=3e11, latency=1e-6)
    return graph


def _edit(graph, what):
    if what == "spec":  # the receivers' memory bandwidth (the compute term)
        for n in graph.graph["devices"]:
            graph.nodes[n]["spec"] = "H100"
    elif what == "devices":  # fewer ranks by default
        del graph.graph["devices"][-2:]
    elif what == "rings":  # the channels' order, edited in place
        for ring in graph.graph["rings"]:
            ring.reverse()
    elif what == "kind":  # a custom graph's devices are its GPU nodes
        graph.nodes["d"]["kind"] = "GPU"


@pytest.mark.parametrize("what", ["spec", "devices", "rings", "kind"])
def test_editing_what_a_topology_reads_besides_its_links_prices_afresh(what):
    # A cached Topology keeps routes, hints and prices; an edit to a node's spec or kind,
    # or to the graph's devices or rings, must not leave them standing.
    from simdist import collectives

    build = _custom_switch if what == "kind" else _small_cluster
    graph = build()
    price = lambda g: collectives.price("all_reduce", "ring", 4 * 1001, g)  # noqa: E731
    before = price(graph)
    _edit(graph, what)
    fresh = build()
    _edit(fresh, what)
    want = price(fresh)
    assert (want.time, want.num_devices) != (before.time, before.num_devices)
    got = price(graph)
    assert got.steps == want.steps and got.num_devices == want.num_devices


def test_editing_a_graph_refreshes_its_cached_topology():
    from simdist import collectives

    graph = TOPOLOGIES["dgx-a100"]()
    before = collectives.price("all_reduce", "ring", 2**26, graph, compute=False).time
    for _, _, attrs in graph.edges(data=True):
        attrs["bandwidth"] /= 2
    after = collectives.price("all_reduce", "ring", 2**26, graph, compute=False).time
    assert after > 1.9 * before - 1e-4
