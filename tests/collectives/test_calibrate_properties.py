"""calibrate / calibrate_compute recover the parameters that made a table.

The tables are the cost model's own times on links of a known latency and bandwidth (and
reductions a known factor slower), each time multiplied by (1 + noise) as a real
nccl-tests run would jitter: the fit must land near the truth, not just run.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives.calibrate import with_links
from simdist.hardware import TOPOLOGIES

SIZES = [2**k for k in range(10, 31, 2)]  # 1 KiB .. 1 GiB, as nccl-tests -b 1K -e 1G -f 4
GRAPHS = {"dgx-a100": TOPOLOGIES["dgx-a100"](), "dgx-h100": TOPOLOGIES["dgx-h100"]()}


def _jitter(times, noise, seed):
    rng = np.random.default_rng(seed)
    return [t * (1 + rng.uniform(-noise, noise)) for t in times]


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(sorted(GRAPHS)), latency=st.floats(0.5e-6, 50e-6),
       bandwidth=st.floats(5e9, 500e9), noise=st.sampled_from([0.0, 0.002, 0.01]),
       seed=st.integers(0, 2**16), collective=st.sampled_from(["all_reduce", "all_gather"]))
def test_calibrate_recovers_link_latency_and_bandwidth(name, latency, bandwidth, noise, seed,
                                                       collective):
    graph = GRAPHS[name]
    truth = with_links(graph, latency, bandwidth)
    times = [collectives.price(collective, "ring", s, truth).time * 1e6 for s in SIZES]
    cal = collectives.calibrate(list(zip(SIZES, _jitter(times, noise, seed))), graph,
                                collective=collective)
    tol = 1e-6 + 4 * noise
    assert cal.latency == pytest.approx(latency, rel=tol)
    assert cal.bandwidth == pytest.approx(bandwidth, rel=tol)
    assert cal.rms <= noise + 1e-9
    # The calibrated graph prices a size it was not fitted on as the truth does.
    off = 3 * 2**20
    assert collectives.price(collective, "ring", off, cal.graph).time == pytest.approx(
        collectives.price(collective, "ring", off, truth).time, rel=tol)


@settings(max_examples=10, deadline=None)
@given(scale=st.floats(0.5, 8.0), bandwidth=st.floats(20e9, 300e9),
       noise=st.sampled_from([0.0, 0.001]), seed=st.integers(0, 2**16))
def test_calibrate_compute_recovers_the_reduction_factor(scale, bandwidth, noise, seed):
    graph = GRAPHS["dgx-a100"]
    truth, free = with_links(graph, 2e-6, bandwidth), with_links(graph, 0.0, 1e30)

    def t(collective, g, s, compute):
        return collectives.price(collective, "ring", s, g, compute=compute).time * 1e6

    gather = _jitter([t("all_gather", truth, s, False) for s in SIZES], noise, seed)
    reduced = _jitter([t("all_reduce", truth, s, False) + scale * t("all_reduce", free, s, True)
                       for s in SIZES], noise, seed + 1)
    links = collectives.calibrate(list(zip(SIZES, gather)), graph, collective="all_gather")
    fit = collectives.calibrate_compute(list(zip(SIZES, reduced)), links)
    assert fit.scale == pytest.approx(scale, rel=1e-6 + 60 * noise)
    assert float(np.max(np.abs(fit.residuals))) <= 3 * noise + 1e-9


@pytest.mark.parametrize("table, words", [
    (5, "rows of (size bytes, time us)"),
    ([(1024, 3.0)], "at least two different sizes"),
    ([(1024, 3.0), (1024, 3.1)], "at least two different sizes"),
    ([(1024, 3.0), (2048,)], "Row 1 of the table"),
    ([(1024, 3.0), {"size": 2048, "tim": 4.0}], "dict with 'size' and 'time'"),
    ([(1024, 3.0), (2048, float("nan"))], "Row 1: time nan must be positive and finite"),
    ([(1024, 3.0), (2048, -1.0)], "must be positive"),
    ([(1024, 3.0), (-8, 1.0)], "Row 1: size -8 must be a positive whole number"),
    ([(1024, 3.0), (10.5, 1.0)], "whole number of bytes"),
    ("# nccl-tests printed no rows\n", "got 0 rows"),
])
def test_bad_tables_say_what_is_wrong_and_what_to_give(table, words):
    with pytest.raises(ValueError) as info:
        collectives.calibrate(table, "dgx-a100")
    assert words in str(info.value)


def test_calibrate_compute_needs_the_links_calibration():
    rows = [(s, 10.0 + s / 1e4) for s in SIZES]
    with pytest.raises(TypeError, match="Calibration that calibrate"):
        collectives.calibrate_compute(rows, "dgx-a100")
