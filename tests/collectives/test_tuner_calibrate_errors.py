"""The tuner, calibration against nccl-tests tables, and error messages."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from simdist import collectives
from simdist.collectives.calibrate import with_links
from simdist.hardware import TOPOLOGIES
from simdist.hardware.topology import TopologyError


def test_tuner_picks_tree_for_small_and_ring_for_large_messages():
    small = collectives.tune(4096, None, num_devices=64)
    large = collectives.tune(2**30, "dgx-a100")
    assert small.algorithm == "tree" and large.algorithm == "ring"
    assert "tree" in small.explanation and "ring" in small.explanation
    assert "latency dominates" in small.explanation
    assert set(large.times) == {"ring", "tree"}


def test_calibrate_recovers_known_latency_and_bandwidth():
    graph = TOPOLOGIES["dgx-a100"]()
    truth = with_links(graph, 3e-6, 120e9)
    rows = [(s, collectives.price("all_reduce", "ring", s, truth).time * 1e6)
            for s in [2**k for k in range(8, 31, 2)]]
    cal = collectives.calibrate(rows, graph)
    assert cal.latency == pytest.approx(3e-6, rel=1e-6)
    assert cal.bandwidth == pytest.approx(120e9, rel=1e-6)
    assert cal.rms < 1e-9 and "GB/s" in cal.summary()


def test_calibrate_compute_recovers_the_reduction_scale_after_the_links():
    # Truth: links at 3 us / 120 GB/s and reductions 2.5x slower than the model prices them.
    # The all-gather (no reduction) fixes the links; the all-reduce then the compute scale.
    graph = TOPOLOGIES["dgx-a100"]()
    truth = with_links(graph, 3e-6, 120e9)
    free = with_links(graph, 0.0, 1e30)
    sizes = [2**k for k in range(10, 31, 2)]

    def t(collective, g, s, compute):
        return collectives.price(collective, "ring", s, g, compute=compute).time

    gather = [(s, t("all_gather", truth, s, False) * 1e6) for s in sizes]
    reduced = [(s, (t("all_reduce", truth, s, False) + 2.5 * t("all_reduce", free, s, True))
                * 1e6) for s in sizes]
    links = collectives.calibrate(gather, graph, collective="all_gather")
    assert links.bandwidth == pytest.approx(120e9, rel=1e-6)
    fit = collectives.calibrate_compute(reduced, links)
    assert fit.scale == pytest.approx(2.5, rel=1e-6)
    assert np.max(np.abs(fit.residuals)) < 1e-9 and "x2.5" in fit.summary()
    # With the compute left at the model's (scale 1), the links alone cannot fit the table.
    plain = collectives.calibrate(reduced, graph)
    assert plain.rms > 1e-3 or plain.bandwidth != pytest.approx(120e9, rel=1e-3)


def test_calibrate_compute_refuses_a_table_without_compute():
    graph = TOPOLOGIES["dgx-a100"]()
    truth = with_links(graph, 3e-6, 120e9)
    rows = [(s, collectives.price("all_reduce", "ring", s, truth, compute=False).time * 1e6)
            for s in [2**k for k in range(10, 31, 4)]]
    links = collectives.calibrate(rows, graph, collective="all_reduce")
    with pytest.raises(ValueError, match="positive compute scale"):
        collectives.calibrate_compute([(s, 0.5 * us) for s, us in rows], links)


NCCL_TESTS = """
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
        1024           256     float     sum      -1    30.10    0.03    0.06      0    29.80    0.03    0.06      0
     1048576        262144     float     sum      -1    45.00   23.30   40.78      0    44.90   23.35   40.87      0
   134217728      33554432     float     sum      -1   1020.0  131.59  230.28      0   1019.0  131.71  230.50      0
"""  # noqa: E501


def test_parse_nccl_tests_output_and_fit_it():
    rows = collectives.parse_nccl_tests(NCCL_TESTS)
    assert rows == [(1024, 30.10), (1048576, 45.00), (134217728, 1020.0)]
    cal = collectives.calibrate(NCCL_TESTS, "dgx-a100")
    assert cal.bandwidth > 0 and len(cal.residuals) == 3


def test_unknown_algorithm_lists_the_valid_names():
    with pytest.raises(ValueError, match="ring") as info:
        collectives.all_reduce([np.ones(2)] * 2, algorithm="butterfly")
    assert "halving_doubling" in str(info.value)
    with pytest.raises(ValueError, match="Unknown reduce op"):
        collectives.all_reduce([np.ones(2)] * 2, op="avg")
    with pytest.raises(ValueError, match="same shape"):
        collectives.all_reduce([np.ones(2), np.ones(3)])
    with pytest.raises(ValueError, match="non-empty"):
        collectives.all_reduce([])


def test_disconnected_topology_is_a_clear_error():
    g = nx.Graph()
    g.add_node("a", kind="GPU")
    g.add_node("b", kind="GPU")
    g.add_edge("a", "s", bandwidth=1e9, latency=1e-6)
    with pytest.raises(TopologyError, match="cannot reach"):
        collectives.all_reduce([np.ones(2)] * 2, topology=g)


def test_too_few_devices_and_bad_params_are_errors():
    with pytest.raises(TopologyError, match="has 8 devices"):
        collectives.all_reduce([np.ones(2)] * 9, topology="dgx-a100")
    with pytest.raises(ValueError, match="divides"):
        collectives.all_reduce([np.ones(2)] * 6, "two_level", local_size=4)
    with pytest.raises(ValueError, match="Unknown collective"):
        collectives.price("allreduce", "ring", 8)
