"""collectives.measure: the cost model's time beside a real clock's, and the fit between.

On this machine (no GPU) the measured column is simdist's own executor on the active
backend's arrays; a fake timer with known links checks the calibrated column exactly.
"""

from __future__ import annotations

import pytest

from simdist import collectives
from simdist.collectives import timing
from simdist.collectives.calibrate import with_links
from simdist.hardware import TOPOLOGIES, backend


@pytest.mark.array_api
def test_measure_times_simdist_on_this_backend_and_calibrates_the_links():
    sizes = [4096, 65536, 2**22]
    m = collectives.measure("all_gather", sizes, num_devices=4, repeats=2)
    assert m.engine == "simdist" and m.num_devices == 4 and m.dtype == "float32"
    name = backend.get_backend()
    assert "perf_counter" in m.where
    assert ("NumPy host arrays" if name == "numpy" else f"{name} arrays") in m.where
    assert [r.size for r in m.rows] == sizes
    for row, size in zip(m.rows, sizes):
        assert row.measured > 0
        assert row.simulated == collectives.price("all_gather", "ring", size, None, 4).time
        assert row.ratio == row.simulated / row.measured
    assert m.compute is None  # all_gather has no reduction to fit
    if m.calibration is None:  # real clocks on a loaded host may not grow with the size
        assert m.note.startswith("no calibrated column: ") and "bandwidth" in m.note
        assert all(r.calibrated is None for r in m.rows)
    else:
        assert m.note == ""
        assert [r.calibrated for r in m.rows] == pytest.approx(list(m.calibration.predicted))
    assert [t["measured_us"] for t in m.table()] == pytest.approx(
        [r.measured * 1e6 for r in m.rows])


def test_the_schedule_and_topology_are_the_ones_priced():
    m = collectives.measure("all_reduce", [1024, 8192], algorithm="tree",
                            topology="dgx-a100", repeats=1, calibrate=False)
    assert m.algorithm == "tree" and m.num_devices == 8  # the topology's devices
    assert m.rows[1].simulated == collectives.price("all_reduce", "tree", 8192,
                                                    "dgx-a100", 8).time
    assert all(r.calibrated is None for r in m.rows) and "calibrate=False" in m.note


def _fake_timer(truth, scale):
    """A timer that 'measures' the cost model on ``truth`` links, reductions ``scale``x."""
    free = with_links(truth, 0.0, 1e30)

    def timer(collective, algorithm, sizes, p, dtype, repeats, topology):
        def t(s):
            moved = collectives.price(collective, algorithm, s, truth, p, dtype,
                                      compute=False).time
            return moved + (scale * collectives.price(collective, algorithm, s, free, p,
                                                      dtype).time
                            if collective == "all_reduce" else 0.0)
        return [t(s) for s in sizes]

    return timer


def test_all_reduce_is_calibrated_on_an_all_gather_then_its_compute(monkeypatch):
    graph = TOPOLOGIES["dgx-a100"]()
    monkeypatch.setitem(timing.ENGINES, "simdist",
                        _fake_timer(with_links(graph, 4e-6, 80e9), 3.0))
    sizes = [2**k for k in range(10, 31, 4)]
    m = collectives.measure("all_reduce", sizes, topology=graph)
    assert m.calibration.latency == pytest.approx(4e-6, rel=1e-6)
    assert m.calibration.bandwidth == pytest.approx(80e9, rel=1e-6)
    assert m.compute.scale == pytest.approx(3.0, rel=1e-6) and m.note == ""
    for r in m.rows:
        assert r.calibrated == pytest.approx(r.measured, rel=1e-9)
        assert r.simulated != pytest.approx(r.measured, rel=1e-3)  # before: the presets


def test_when_the_compute_cannot_be_fitted_the_links_are_fitted_alone(monkeypatch):
    graph = TOPOLOGIES["dgx-a100"]()
    monkeypatch.setitem(timing.ENGINES, "simdist",
                        _fake_timer(with_links(graph, 4e-6, 80e9), 0.0))
    m = collectives.measure("all_reduce", [2**k for k in range(10, 31, 4)], topology=graph)
    assert m.compute is None and "links fitted on the all-reduce alone" in m.note
    assert all(r.calibrated is not None for r in m.rows)


@pytest.mark.parametrize("kwargs, error, words", [
    ({"collective": "allreduce"}, ValueError, "Unknown collective"),
    ({"algorithm": "butterfly"}, ValueError, "halving_doubling"),
    ({"engine": "mpi"}, ValueError, "choose one of ('auto', 'simdist', 'nccl')"),
    ({"repeats": 0}, ValueError, "repeats must be an int >= 1"),
    ({"sizes": []}, ValueError, "sizes is empty"),
    ({"sizes": 4096}, ValueError, "a list of message sizes"),
    ({"sizes": [1026]}, ValueError, "a multiple of 4 (float32 elements)"),
    ({"collective": "all_gather", "sizes": [4100]}, ValueError, "multiple of 16"),
    ({"sizes": [-4]}, ValueError, "positive int"),
])
def test_bad_arguments_say_what_to_give(kwargs, error, words):
    with pytest.raises(error) as info:
        collectives.measure(**{"num_devices": 4, **kwargs})
    assert words in str(info.value)


def test_the_nccl_engine_without_gpus_says_what_is_missing():
    if timing.gpu_count()[0] >= 2:
        pytest.skip("GPUs present: the nccl engine runs (tests/hardware/test_cupy_gpu.py)")
    with pytest.raises(RuntimeError, match="needs 2 CUDA GPUs.*engine='simdist'"):
        collectives.measure(sizes=[4096, 8192], num_devices=2, engine="nccl")
    with pytest.raises(RuntimeError, match="times \\['all_gather', 'all_reduce'\\]"):
        collectives.measure("broadcast", [4096], num_devices=2, engine="nccl")
