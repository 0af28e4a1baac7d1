"""The cost model, cost-only pricing, and the trace of executed collectives."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from simdist import collectives
from simdist.hardware import TOPOLOGIES


def star(p, bw=100e9, lat=1e-6):
    g = nx.Graph(name="star")
    g.add_node("hub", kind="switch")
    for i in range(p):
        g.add_node(f"d{i}", kind="GPU")
        g.add_edge(f"d{i}", "hub", bandwidth=bw, latency=lat)
    return g


def test_ring_on_a_star_matches_the_alpha_beta_formula():
    p, n = 8, 8 * 2**20
    cost = collectives.price("all_reduce", "ring", n, star(p), compute=False)
    step = 2e-6 + (n / p) / 100e9
    assert cost.time == pytest.approx(2 * (p - 1) * step)
    assert cost.busbw == pytest.approx(cost.algbw * 2 * (p - 1) / p)
    assert cost.num_steps == 2 * (p - 1)
    assert cost.latency == pytest.approx(2 * (p - 1) * 2e-6)


def test_links_shared_by_concurrent_transfers_split_bandwidth():
    # Reduction to one device: the root's single link carries p-1 chunks in one step.
    p, n = 5, 10**6
    cost = collectives.price("all_reduce", "reduce_broadcast", n, star(p), compute=False)
    assert cost.steps[0].bandwidth == pytest.approx((p - 1) * n / 100e9)


def test_compute_term_is_charged_to_the_receiver():
    with_c = collectives.price("all_reduce", "ring", 2**26, "dgx-a100")
    without = collectives.price("all_reduce", "ring", 2**26, "dgx-a100", compute=False)
    assert with_c.compute > 0 and without.compute == 0 and with_c.time > without.time


@pytest.mark.parametrize("name", ["ring", "two_level", "torus_2d"])
def test_fast_patterns_price_like_the_full_schedule(name):
    p, n = 16, 16 * 1024
    values = [np.ones(n, np.float32)] * p
    executed = collectives.all_reduce(values, name, topology=TOPOLOGIES["fat-tree"]())
    priced = collectives.price("all_reduce", name, n * 4, TOPOLOGIES["fat-tree"]())
    assert priced.time == pytest.approx(executed.cost.time, rel=1e-9)


@pytest.mark.parametrize("collective,factor", [
    ("reduce_scatter", 7 / 8), ("all_gather", 7 / 8), ("all_to_all", 7 / 8),
    ("broadcast", 1.0), ("reduce", 1.0), ("all_reduce", 14 / 8)])
def test_busbw_factors_follow_nccl_tests(collective, factor):
    algo = {"all_to_all": "pairwise", "broadcast": "chain", "reduce": "chain"}.get(
        collective, "ring")
    cost = collectives.price(collective, algo, 2**24, "dgx-h100")
    assert cost.busbw == pytest.approx(cost.algbw * factor)
    assert cost.algbw == pytest.approx(2**24 / cost.time)


def test_trace_has_one_event_per_transfer_and_per_step():
    result = collectives.all_reduce([np.ones(10, np.float32)] * 4, "ring")
    steps = result.trace.filter(cat="collective")
    transfers = result.trace.filter(cat="transfer")
    assert len(steps) == result.schedule.num_steps == 6
    assert len(transfers) == 24
    assert steps[-1].end == pytest.approx(result.cost.time)
    assert all(e.args["bytes"] > 0 and e.end >= e.start for e in transfers)
    assert result.trace.to_chrome()["traceEvents"]


def test_trace_can_be_shared_and_offset():
    from simdist.hardware.trace import Trace

    trace = Trace()
    collectives.all_reduce([np.ones(4)] * 2, trace=trace, start_time=1.0)
    collectives.all_gather([np.ones(4)] * 2, trace=trace)
    assert min(e.start for e in trace.events) == 0.0
    assert any(e.start == 1.0 for e in trace.events)


def test_pricing_4096_devices_is_fast_enough_to_be_usable():
    cost = collectives.price("all_reduce", "ring", 2**28, None, num_devices=4096)
    assert cost.num_devices == 4096 and cost.num_steps == 2 * 4095
