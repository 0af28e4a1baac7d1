"""Repeated prices come from the Topology's cache (pricing.py, "repeats"): the same Cost as
pricing afresh, a separate object per call, and a fresh price after the graph changes."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives import pricing
from simdist.hardware import TOPOLOGIES
from simdist.hardware.topology import as_topology


def test_a_repeated_price_is_the_fresh_price_in_a_separate_cost(monkeypatch):
    graph = TOPOLOGIES["fat-tree"](2, gpus_per_node=4, nics_per_node=2)
    first = collectives.price("all_reduce", "tree", 1 << 20, graph, pipeline=2)
    again = collectives.price("all_reduce", "tree", 1 << 20, graph, pipeline=2)
    assert again == first and again is not first and again.steps[0] is not first.steps[0]
    again.steps.clear()  # the caller's copy: the cached price is untouched
    assert collectives.price("all_reduce", "tree", 1 << 20, graph, pipeline=2) == first
    monkeypatch.setattr(pricing, "MEMO_LIMIT", 0)  # every call starts the cache over
    assert collectives.price("all_reduce", "tree", 1 << 20, graph, pipeline=2) == first
    # other arguments, other prices
    assert collectives.price("all_reduce", "tree", 1 << 20, graph, pipeline=4) != first
    assert collectives.price("all_reduce", "tree", 1 << 21, graph, pipeline=2) != first


def test_an_edited_graph_is_priced_again():
    graph = TOPOLOGIES["nvswitch"](4)
    before = collectives.price("all_reduce", "ring", 1 << 20, graph)
    for _, _, attrs in graph.edges(data=True):
        attrs["bandwidth"] /= 2
    after = collectives.price("all_reduce", "ring", 1 << 20, graph)
    assert after.time > before.time


def test_collectives_with_values_reuse_the_price_of_the_same_call():
    topo = as_topology(TOPOLOGIES["dgx1"]())
    arrays = [np.full(1000, i, dtype=np.float32) for i in range(8)]
    first = collectives.all_reduce(arrays, "ring", topology=topo)
    second = collectives.all_reduce(arrays, "ring", topology=topo)
    assert second.cost == first.cost and second.cost is not first.cost
    assert list(map(repr, second.trace.events)) == list(map(repr, first.trace.events))
    odd = collectives.all_reduce([a[:999] for a in arrays], "ring", topology=topo)
    assert odd.cost.nbytes == 999 * 4 and odd.cost != first.cost


def test_a_results_schedule_and_cost_are_the_callers_copies_when_read():
    """A call's schedule and cost are made from its kept plan when first read (api's
    _PlannedResult): each result's own, so changing one leaves the next call's; a
    strategy's all-reduce reads the plan's time and steps without a copy."""
    from simdist.collectives import api

    topo = as_topology(TOPOLOGIES["dgx1"]())
    arrays = [np.full(100, i, dtype=np.float32) for i in range(4)]
    first = collectives.all_reduce(arrays, "ring", topology=topo)
    assert api.planned_time(first) == first.cost.time > 0
    assert api.planned_schedule(first) == first.schedule
    first.schedule.steps.clear()
    first.cost.steps.clear()
    second = collectives.all_reduce(arrays, "ring", topology=topo)
    assert second.schedule.steps and second.cost.steps
    assert second.schedule is not first.schedule and second.cost is not first.cost
    assert len(api.planned_schedule(second).steps) == len(second.schedule.steps)
    second.cost = None   # set by hand, as a dataclass field
    assert second.cost is None
    third = dataclasses.replace(first, values=[])   # as viz.sync does
    assert third.values == [] and third.schedule is first.schedule and third.cost is first.cost


def _fields(events):
    return [(e.name, e.cat, e.device, e.start, e.end, e.args) for e in events]


@settings(max_examples=25, deadline=None)
@given(algorithm=st.sampled_from(["ring", "tree", "ring_reducer", "halving_doubling",
                                  "recursive_doubling", "reduce_broadcast",
                                  "hierarchical_copy", "parameter_server"]),
       p=st.sampled_from([2, 4, 8]), size=st.integers(1, 3000),
       starts=st.lists(st.floats(0, 5), min_size=2, max_size=3),
       op=st.sampled_from(["sum", "max", "mean"]))
def test_kept_events_equal_events_built_afresh(algorithm, p, size, starts, op):
    """A call of the same shapes records the events kept with its price (api._events) at
    its own start: the same events as a topology that has kept nothing (a fresh one)."""
    kept_topo = as_topology(TOPOLOGIES["dgx1"]())
    for k, start in enumerate(starts):
        arrays = [np.full(size, i + k, dtype=np.float32) for i in range(p)]
        kept = collectives.all_reduce(arrays, algorithm, op=op, topology=kept_topo,
                                      start_time=start)
        fresh = collectives.all_reduce(arrays, algorithm, op=op,
                                       topology=as_topology(TOPOLOGIES["dgx1"]()),
                                       start_time=start)
        assert _fields(kept.trace.events) == _fields(fresh.trace.events)
        assert len(kept.trace.events) > 0 and kept.trace.events[0].start == start
    plans = kept_topo._memo["collective plan"].values()   # the later calls took the kept
    assert any(plan._events is not None for plan in plans)   # plan and its events
