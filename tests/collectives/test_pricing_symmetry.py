"""Pricing by symmetry (collectives/symmetry.py) equals pricing every step one by one.

The oracle below is the cost model written the slow, obvious way: for every step of the
algorithm's full schedule, route each transfer, add up the bytes on every directed link,
take each transfer's slowest hop, charge receivers 3 x bytes / memory bandwidth for each
reduction, and keep the slowest transfer. ``collectives.price`` (compact patterns, steps
priced once by symmetry) must give the same steps, to float round-off, for every
algorithm, topology preset and small or odd size.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives import ALGORITHMS, symmetry
from simdist.collectives import placement as placement_lib
from simdist.collectives.schedule import even_bounds
from simdist.hardware import TOPOLOGIES
from simdist.hardware.topology import as_topology
from tests.collectives._helpers import params_for

# Presets sized for p ranks (None: the preset cannot hold p devices).
PRESETS = {
    "nvswitch": lambda p: TOPOLOGIES["nvswitch"](p),
    "nvlink-ring": lambda p: TOPOLOGIES["nvlink-ring"](p) if p > 1 else None,
    "pcie-tree": lambda p: TOPOLOGIES["pcie-tree"](p),
    "dgx1": lambda p: TOPOLOGIES["dgx1"]() if p <= 8 else None,
    "dgx-a100": lambda p: TOPOLOGIES["dgx-a100"]() if p <= 8 else None,
    "dgx-h100": lambda p: TOPOLOGIES["dgx-h100"]() if p <= 8 else None,
    "fat-tree": lambda p: TOPOLOGIES["fat-tree"](-(-p // 4), gpus_per_node=4,
                                                 nics_per_node=2, nodes_per_leaf=2),
    "tpu-torus": lambda p: TOPOLOGIES["tpu-torus"](4, 4) if p <= 16 else None,
    None: lambda p: None,
}


def oracle_steps(collective, name, nbytes, graph, p, compute=True, **params):
    """Every step of the full schedule priced transfer by transfer, in plain Python."""
    algo = ALGORITHMS[name]
    topo = as_topology(graph, p)
    nodes = placement_lib.place(topo, p, None)
    params = {**algo.topology_hints(topo, nodes), **params}
    sched = algo.schedule(p, **params)
    nodes = placement_lib.place(topo, p, nodes, sched.num_servers)
    n = nbytes // 4
    if collective in ("reduce_scatter", "all_gather", "all_to_all"):
        bounds = placement_lib.slot_bounds(list(np.diff(even_bounds(n, p))),
                                           max(sched.num_chunks // p, 1))
    elif algo.own_layout is not None:   # TF's ring: its 64-byte aligned chunks
        bounds = algo.layout.size_bounds(n, p, sched.num_chunks, 4)
    else:
        bounds = even_bounds(n, sched.num_chunks)
    steps = []
    for step in sched.steps:
        sizes = [int(bounds[t.chunk + t.nchunks] - bounds[t.chunk]) * 4.0
                 for t in step.transfers]
        routes = [topo.route(nodes[t.src], nodes[t.dst])[0] for t in step.transfers]
        load: dict[int, float] = {}
        for size, route in zip(sizes, routes):
            for link in route:
                load[int(link)] = load.get(int(link), 0.0) + size
        reduced: dict[int, float] = {}
        for size, t in zip(sizes, step.transfers):
            if t.combine and compute:
                bw = topo.mem_bw(nodes[t.dst]) or np.inf
                reduced[t.dst] = reduced.get(t.dst, 0.0) + 3 * size / bw
        best = (0.0, 0.0, 0.0, 0.0)
        for size, route, t in zip(sizes, routes, step.transfers):
            if size == 0:
                continue
            lat = sum(topo.latency[link] for link in route)
            bw_time = max((load[int(link)] / topo.bandwidth[link] for link in route),
                          default=0.0)
            comp = reduced.get(t.dst, 0.0) if t.combine and compute else 0.0
            if lat + bw_time + comp > best[0]:
                best = (lat + bw_time + comp, lat, bw_time, comp)
        steps.append(best)
    return steps


def expanded(cost):
    return [(s.time, s.latency, s.bandwidth, s.compute) for s in cost.steps
            for _ in range(s.repeat)]


def assert_same_steps(cost, oracle):
    got = np.array(expanded(cost)).reshape(-1, 4)
    want = np.array(oracle).reshape(-1, 4)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-18)
    assert cost.time == pytest.approx(float(want[:, 0].sum()), rel=1e-12)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(ALGORITHMS)), p=st.integers(1, 13),
       n=st.integers(0, 200), preset=st.sampled_from(sorted(PRESETS, key=str)),
       compute=st.booleans())
def test_symmetric_pricing_equals_step_by_step(name, p, n, preset, compute):
    algo = ALGORITHMS[name]
    if algo.collective == "all_to_all":
        n = n - n % p
    if name in ("reduce_scatter.halving", "all_gather.doubling") and p & (p - 1):
        p = 1 << (p.bit_length() - 1)
    graph = PRESETS[preset](p)
    if preset is not None and graph is None:
        return
    params = params_for(name, p, n)
    cost = collectives.price(algo.collective, name, 4 * n, graph, num_devices=p,
                             compute=compute, **params)
    assert_same_steps(cost, oracle_steps(algo.collective, name, 4 * n, graph, p, compute,
                                         **params))


@pytest.mark.parametrize("p,n", [(12, 12 * 5 + 7), (16, 1001), (24, 24 * 3)])
@pytest.mark.parametrize("name", ["ring", "two_level", "torus_2d"])
def test_multi_channel_rings_on_a_fat_tree_price_step_by_step(name, p, n):
    # The fat-tree names one ring per NIC (channels); with uneven chunks the steps differ.
    graph = TOPOLOGIES["fat-tree"](p // 4, gpus_per_node=4, nics_per_node=4)
    cost = collectives.price("all_reduce", name, 4 * n, graph)
    assert_same_steps(cost, oracle_steps("all_reduce", name, 4 * n, graph, p))


def test_channels_sharing_a_pair_price_as_transfer_by_transfer():
    # Four rings send over the same neighbour pairs: pricing walks each pair's hops once,
    # with its transfers' bytes summed.
    graph = TOPOLOGIES["fat-tree"](3, gpus_per_node=4, nics_per_node=4)
    nbytes = 4 * (12 * 5 + 7)
    cost = collectives.price("all_reduce", "ring", nbytes, graph)
    assert_same_steps(cost, oracle_steps("all_reduce", "ring", nbytes, graph, 12))


@given(keys=st.lists(st.integers(0, 2**40), max_size=60), runs=st.integers(1, 4))
def test_pairs_found_by_a_stable_sort_are_numpys_unique(keys, runs):
    keys = np.array(keys * runs, dtype=np.int64)
    want, want_inverse = np.unique(keys, return_inverse=True)
    got, inverse = symmetry._unique(keys)
    assert got.tolist() == want.tolist() and inverse.tolist() == want_inverse.tolist()


@pytest.mark.parametrize("small", [1.0, 3.0])
def test_sums_that_round_are_added_transfer_by_transfer(small):
    # Rank 1 sends twice to rank 2, after rank 0's 2**53 bytes, all over the switch's link
    # to rank 2: summed in transfer order each small count rounds away; summed pair by
    # pair (1 + 1 first) it would not. Above 2**53 bytes a step is priced in transfer order.
    topo = as_topology(TOPOLOGIES["nvswitch"](3))
    nodes = placement_lib.place(topo, 3)
    src, dst = np.array([0, 1, 1]), np.array([2, 2, 2])
    r = symmetry.routes(topo, nodes, src, dst)
    sizes = np.array([[2.0 ** 53, small, small]])
    _, bw_time, _ = symmetry.price_rows(topo, r, sizes, dst, np.zeros(3, bool),
                                        np.ones(3), False)
    link = topo.route(nodes[0], nodes[2])[0][-1]  # the switch's link down to rank 2
    load = 0.0
    for size in sizes[0]:
        load += size
    assert bw_time[0, 0] == load / topo.bandwidth[link]


def test_uneven_ring_on_a_switch_is_priced_once_per_phase():
    # Every rank sits one identical link away from the switch (a regular pattern): the
    # steps of each phase cost the same even though chunk sizes differ by an element.
    p, n = 7, 7 * 100 + 3
    graph = TOPOLOGIES["nvswitch"](p)
    cost = collectives.price("all_reduce", "ring", 4 * n, graph)
    assert [s.repeat for s in cost.steps] == [p - 1, p - 1]
    assert_same_steps(cost, oracle_steps("all_reduce", "ring", 4 * n, graph, p))


def test_uneven_ring_over_links_of_different_speed_is_priced_step_by_step():
    p, n = 8, 8 * 100 + 3
    graph = TOPOLOGIES["fat-tree"](2, gpus_per_node=4, nics_per_node=1)
    cost = collectives.price("all_reduce", "ring", 4 * n, graph, rings=[list(range(p))])
    assert len(cost.steps) > 2  # the big chunks cross the slow link in some steps only
    assert_same_steps(cost, oracle_steps("all_reduce", "ring", 4 * n, graph, p,
                                         rings=[list(range(p))]))


@pytest.mark.parametrize("name,p,params", [
    ("ring", 6, {}), ("ring", 5, {"rings": [[0, 2, 4, 1, 3], [4, 3, 2, 1, 0]]}),
    ("reduce_scatter.ring", 5, {}), ("all_gather.ring", 4, {"rings": [[3, 1, 0, 2]]}),
    ("two_level", 12, {"local_size": 3}), ("two_level", 8, {"local_size": 1}),
    ("torus_2d", 6, {"dims": (2, 3)}), ("halving_doubling", 8, {}),
    ("halving_doubling", 11, {}), ("recursive_doubling", 6, {}),
    ("recursive_doubling", 4, {}), ("tree", 2, {}), ("tree", 7, {"pipeline": 3}),
    ("tree", 12, {"pipeline": 2}), ("tree", 33, {}),
])
def test_rotating_patterns_expand_to_the_schedule_steps(name, p, params):
    algo = ALGORITHMS[name]
    steps = [s for pattern in algo.patterns(p, **params) for s in pattern.expand()]
    sched = algo.schedule(p, **params)
    assert len(steps) == len(sched.steps)
    for got, want in zip(steps, sched.patterns()):
        assert got.phase == want.phase
        for field in ("src", "dst", "chunk", "nchunks", "combine"):
            np.testing.assert_array_equal(getattr(got, field), getattr(want, field))


@pytest.mark.parametrize("name", sorted(n for n, a in ALGORITHMS.items() if a.chunk_count))
@pytest.mark.parametrize("p", [2, 3, 8, 12])
def test_chunk_counts_without_a_schedule_match_the_schedule(name, p):
    algo = ALGORITHMS[name]
    params = {"local_size": 4} if name == "two_level" and p % 4 == 0 else {}
    params = {"pipeline": 3} if name == "tree" else params
    assert algo.num_chunks(p, **params) == algo.schedule(p, **params).num_chunks


def test_two_level_patterns_reject_a_local_size_that_does_not_divide():
    with pytest.raises(ValueError, match="groups of 3"):
        ALGORITHMS["two_level"].patterns(8, local_size=3)


@pytest.mark.parametrize("rings", [
    [[0, 1, 2]],                 # too short
    [[0, 1, 2, 2]],              # a rank twice, one missing
    [[0, 1, 2, 3], [0, 1, 2]],   # ragged
    np.array([[3, 2, 1, 0], [0, 1, 2, 4]]),  # a rank out of range, as an array
])
def test_rings_that_miss_a_rank_are_refused(rings):
    with pytest.raises(ValueError, match="Each ring must visit every rank 0..3 once"):
        collectives.price("all_reduce", "ring", 4096, None, num_devices=4, rings=rings)


def test_rings_given_as_arrays_lists_or_numbers_price_the_same():
    want = collectives.price("all_reduce", "ring", 4096, None, num_devices=4,
                             rings=[[0, 2, 1, 3], [3, 1, 2, 0]])
    for rings in (np.array([[0, 2, 1, 3], [3, 1, 2, 0]]), [(0, 2, 1, 3), [3.0, 1, 2, 0]]):
        got = collectives.price("all_reduce", "ring", 4096, None, num_devices=4, rings=rings)
        assert [s.time for s in got.steps] == [s.time for s in want.steps]


def test_ring_hints_read_names_by_value_not_by_identity():
    from simdist.collectives.algorithms.ring import _ring_hints

    graph = TOPOLOGIES["fat-tree"](3, gpus_per_node=4, nics_per_node=2)
    topo = as_topology(graph)
    same_objects = _ring_hints(topo, topo.devices)
    assert same_objects["rings"][0] == [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8]
    graph.graph["rings"] = [["".join(list(d)) for d in r] for r in graph.graph["rings"]]
    assert _ring_hints(topo, topo.devices) == same_objects  # equal strings, new objects
    graph.graph["rings"][1][0] = graph.graph["rings"][1][1]  # a device twice, one missing
    assert _ring_hints(topo, topo.devices) == {}


@pytest.mark.parametrize("nodes, gpus, nics", [(1, 4, 2), (3, 4, 2), (5, 8, 8), (20, 2, 1)])
def test_a_fat_trees_ring_ranks_are_its_rings_read_by_name(nodes, gpus, nics):
    # The preset keeps its rings as ranks too (RingRanks); reading the names gives the same
    # ranks, and the same prices. Its hint's lists carry that array: pricing takes it as is.
    from simdist.collectives.algorithms.ring import _ring_hints, ring_array

    graph = TOPOLOGIES["fat-tree"](nodes, gpus_per_node=gpus, nics_per_node=nics)
    topo = as_topology(graph)
    with_ranks = _ring_hints(topo, topo.devices)
    index = {d: i for i, d in enumerate(topo.devices)}
    assert with_ranks == {"rings": [[index[d] for d in r] for r in graph.graph["rings"]]}
    assert ring_array(len(topo.devices), with_ranks["rings"]) is graph.graph["ring_ranks"].ranks
    priced = collectives.price("all_reduce", "ring", 2**20, graph)
    plain = TOPOLOGIES["fat-tree"](nodes, gpus_per_node=gpus, nics_per_node=nics)
    del plain.graph["ring_ranks"]
    assert _ring_hints(as_topology(plain), topo.devices) == with_ranks
    again = collectives.price("all_reduce", "ring", 2**20, plain)
    assert again.steps == priced.steps and again.time == priced.time


def test_ring_ranks_stand_only_for_the_rings_and_devices_they_were_built_for():
    graph = TOPOLOGIES["fat-tree"](3, gpus_per_node=2, nics_per_node=2)
    built = graph.graph["ring_ranks"]
    rings, devices = graph.graph["rings"], graph.graph["devices"]
    assert built.ranks_for(rings, devices) is built.ranks
    assert built.ranks_for([list(reversed(r)) for r in rings], devices) is None
    assert built.ranks_for(rings[:1], devices) is None
    assert built.ranks_for(rings, list(reversed(devices))) is None
