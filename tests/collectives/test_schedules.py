"""Schedules as data: bytes each device sends, links used, registry contents."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives.schedule import even_bounds
from simdist.hardware import TOPOLOGIES
from simdist.testing.strategies import algorithm_params, replica_counts

EXPECTED = {
    "ring", "tree", "halving_doubling", "recursive_doubling", "hierarchical_copy",
    "reduce_broadcast", "two_level", "torus_2d", "parameter_server", "reduce_scatter.ring",
    "all_gather.ring", "broadcast.binomial", "reduce.binomial", "all_to_all.pairwise",
}


def test_registry_has_every_algorithm_with_metadata():
    assert EXPECTED <= set(collectives.ALGORITHMS)
    for name, algo in collectives.ALGORITHMS.items():
        assert algo.name == name and algo.collective in collectives.COLLECTIVES
        assert algo.description and "\n" not in algo.description
        assert algo.schedule(4, 100).num_devices == 4
        assert algo.mirrors and algo.layout.collective == algo.collective


@settings(max_examples=60)
@given(name=st.sampled_from(sorted(collectives.ALGORITHMS)), p=replica_counts(12),
       data=st.data())
def test_every_entry_builds_on_the_counts_and_parameters_it_declares(name, p, data):
    # The registry entry is the one place that says where an algorithm runs: every count
    # it supports and every parameter value it lists builds a schedule over p ranks whose
    # transfers stay inside the buffers; a count it does not support is refused.
    algo = collectives.ALGORITHMS[name]
    if not algo.supports(p):
        with pytest.raises(ValueError, match=str(p)):
            algo.schedule(p)
        return
    params = data.draw(algorithm_params(algo, p))
    sched = algo.schedule(p, **params)
    assert sched.num_devices == p and sched.collective == algo.collective
    for _, t in sched.transfers():
        assert 0 <= t.src < sched.num_buffers and 0 <= t.dst < sched.num_buffers
        assert 0 <= t.chunk and t.chunk + t.nchunks <= sched.num_chunks


def sent(name, p, n, **params):
    sched = collectives.ALGORITHMS[name].schedule(p, n, **params)
    return sched.sent_elements(even_bounds(n, sched.num_chunks))


@given(p=replica_counts(), m=st.integers(0, 5))
def test_ring_sends_2_p_minus_1_over_p_of_the_buffer(p, m):
    n = p * m
    assert np.all(sent("ring", p, n) == 2 * (p - 1) * n // p)


@given(p=st.sampled_from([1, 2, 4, 8, 16]), m=st.integers(0, 5))
def test_power_of_two_halving_doubling_and_recursive_doubling_bytes(p, m):
    n = p * m
    assert np.all(sent("halving_doubling", p, n) == 2 * (p - 1) * n // p)
    assert np.all(sent("recursive_doubling", p, n) == int(np.log2(p)) * n)


@given(p=replica_counts(), n=st.integers(0, 50))
def test_reduce_broadcast_and_ring_totals(p, n):
    s = sent("reduce_broadcast", p, n)
    assert s[0] == (p - 1) * n and np.all(s[1:] == n)
    assert sent("ring", p, n).sum() == 2 * (p - 1) * n  # uneven chunks: total still exact


def test_tree_halves_go_up_two_trees_with_every_rank_an_inner_node_once():
    from simdist.collectives.algorithms.tree import btree_parents, dtree_parents

    assert btree_parents(14)[1:8] == [2, 4, 2, 8, 6, 4, 6]  # NCCL trees.cc comment figure
    for p in range(2, 18):
        a, b = dtree_parents(p)
        inner_a = set(a) - {-1}
        inner_b = set(b) - {-1}
        assert len(inner_a & inner_b) <= 1 + p % 2  # leaves of one tree lead in the other
        for parents in (a, b):
            graph = nx.Graph([(r, u) for r, u in enumerate(parents) if u >= 0])
            graph.add_nodes_from(range(p))
            assert nx.is_tree(graph)


@pytest.mark.parametrize("preset", sorted(TOPOLOGIES))
@pytest.mark.parametrize("name", ["ring", "tree", "halving_doubling", "two_level",
                                  "parameter_server", "hierarchical_copy", "torus_2d"])
def test_no_transfer_uses_a_link_the_topology_lacks(preset, name):
    graph = TOPOLOGIES[preset]()
    p = len(graph.graph["devices"])
    values = [np.ones(64, np.float32)] * p
    result = collectives.all_reduce(values, name, topology=graph)
    from simdist.hardware.topology import as_topology

    topo = as_topology(graph)
    transfers = result.trace.filter(cat="transfer")
    assert len(transfers) == sum(len(s.transfers) for s in result.schedule.steps)
    for ev in transfers:
        path = topo.path(ev.device, ev.args["dst_device"])
        assert path[0] == ev.device and path[-1] == ev.args["dst_device"]
        for u, v in zip(path, path[1:]):
            assert graph.has_edge(u, v)


def test_dgx1_rings_use_nvlink_only():
    graph = TOPOLOGIES["dgx1"]()
    result = collectives.all_reduce([np.ones(48, np.float32)] * 8, "ring", topology=graph)
    for ev in result.trace.filter(cat="transfer"):
        assert graph.edges[ev.device, ev.args["dst_device"]]["kind"] == "nvlink2"


def test_each_algorithm_file_registers_itself():
    # Adding an algorithm is adding its file: the package imports every module, and every
    # module's algorithms reach the registry with their builder defined there.
    import pkgutil

    from simdist.collectives import algorithms

    modules = {f"{algorithms.__name__}.{m.name}" for m in pkgutil.iter_modules(algorithms.__path__)
               if not m.name.startswith("_")}
    registered = {a.build.__module__ for a in collectives.ALGORITHMS.values()}
    assert modules and modules <= registered
