"""The CuPy backend on real GPUs (``pytest -m gpu``), and its GPU-free planning logic.

The ``gpu`` tests are skipped, with the reason, where CuPy or a CUDA GPU is missing. They
check real things: values live on the simulated device's real GPU, the executor's schedule
on CuPy arrays gives NumPy's bits, NCCL's all-reduce equals the NumPy sum with identical
bits on every GPU, and the trace holds CUDA-event measurements beside simulated steps.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.hardware import backend, cupy_adapter, nccl


def _gpu_count() -> tuple[int, str]:
    try:
        import cupy
    except ImportError:
        return 0, "CuPy is not installed (pip install -e '.[gpu]')"
    try:
        return cupy_adapter.check_gpus(cupy), ""
    except RuntimeError as e:
        return 0, str(e)


GPUS, WHY = _gpu_count()
needs_gpu = pytest.mark.skipif(GPUS < 1, reason=f"needs a CUDA GPU: {WHY}")
needs_two = pytest.mark.skipif(GPUS < 2, reason=f"NCCL needs two or more GPUs; {GPUS} seen "
                                                f"{'(' + WHY + ')' if WHY else ''}")


@pytest.fixture
def on_cupy():
    before = backend.get_backend()
    backend.set_backend("cupy")
    nccl.reset()
    yield backend.native
    backend.set_backend(before)
    nccl.reset()


# --- GPU-free: the plan NCCL runs on --------------------------------------------------
def test_round_robin_maps_simulated_gpus_onto_real_ones(monkeypatch):
    monkeypatch.setattr(cupy_adapter, "real_device_count", lambda: 2)
    names = [f"/job:localhost/replica:0/task:0/device:GPU:{i}" for i in range(5)]
    assert [cupy_adapter.real_device_index(n) for n in names] == [0, 1, 0, 1, 0]
    assert cupy_adapter.real_device_index("/job:localhost/replica:0/task:0/device:CPU:0") == 0


def test_nccl_runs_only_with_one_distinct_gpu_per_rank():
    assert nccl.plan([0, 1, 2, 3]) == [0, 1, 2, 3]
    assert nccl.plan([0, 1, 0, 1]) is None  # round-robin doubled a GPU: NCCL refuses
    assert nccl.plan([0]) is None
    # Two processes (multi-worker), each with GPUs 0 and 1: distinct within each process.
    assert nccl.plan([0, 1, 0, 1], owner=[0, 0, 1, 1]) == [0, 1, 0, 1]
    assert nccl.plan([0, 0, 0, 1], owner=[0, 0, 1, 1]) is None
    assert nccl.supports(np.float32, "mean") and nccl.supports(np.int64, "max")
    assert not nccl.supports(np.bool_, "max") and not nccl.supports(np.float32, "any")


# --- on real GPUs ---------------------------------------------------------------------
@pytest.mark.gpu
@needs_gpu
def test_tensors_live_on_their_simulated_devices_real_gpu(on_cupy):
    import simdist as tf

    strategy = tf.distribute.MirroredStrategy()
    devices = strategy.extended.worker_devices
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([1.0, 2.0]) * float(ctx.replica_id_in_sync_group))
    for i, t in enumerate(strategy.experimental_local_results(values)):
        assert isinstance(t._value, on_cupy.ndarray)
        assert t._value.device.id == cupy_adapter.real_device_index(devices[i])
        np.testing.assert_array_equal(t.numpy(), [i * 1.0, i * 2.0])


@pytest.mark.gpu
@needs_gpu
def test_executor_on_cupy_gives_numpys_bits(on_cupy):
    from simdist import collectives

    rng = np.random.default_rng(0)
    host = [rng.standard_normal(1000).astype(np.float32) for _ in range(4)]
    backend.set_backend("numpy")
    want = collectives.all_reduce(host, "ring")  # on the NumPy backend: computed on the host
    backend.set_backend("cupy")
    got = collectives.all_reduce([on_cupy.asarray(h) for h in host], "ring")
    for g, w in zip(got.values, want.values):
        assert isinstance(g, on_cupy.ndarray) and isinstance(w, np.ndarray)
        assert backend.to_host(g).tobytes() == w.tobytes()


@pytest.mark.gpu
@needs_two
def test_nccl_all_reduce_equals_numpy_sum_with_identical_bits(on_cupy):
    from simdist.hardware.trace import Trace

    n = GPUS
    host = [np.arange(4096, dtype=np.int64) * (r + 1) for r in range(n)]  # exact in ints
    arrays = []
    for r, h in enumerate(host):
        with on_cupy.cuda.Device(r):
            arrays.append(on_cupy.asarray(h))
    trace = Trace()
    outs, seconds = nccl.all_reduce(arrays, list(range(n)), "sum", trace=trace, start=1.0)
    want = np.sum(host, axis=0)
    bits = {backend.to_host(o).tobytes() for o in outs}
    assert bits == {want.tobytes()}
    assert [o.device.id for o in outs] == list(range(n))
    measured = trace.filter(cat="measured")
    assert len(measured) == n and all(e.args["source"] == "cuda_events" for e in measured)
    assert all(s > 0 for s in seconds.values())


@pytest.mark.gpu
@needs_two
def test_nccl_all_gather_concatenates_in_rank_order(on_cupy):
    n = GPUS
    host = [np.arange(1000, dtype=np.float32) + 1000 * r for r in range(n)]
    arrays = []
    for r, h in enumerate(host):
        with on_cupy.cuda.Device(r):
            arrays.append(on_cupy.asarray(h))
    outs, seconds = nccl.all_gather(arrays, list(range(n)))
    want = np.concatenate(host)
    assert {backend.to_host(o).tobytes() for o in outs} == {want.tobytes()}
    assert all(s > 0 for s in seconds.values())


@pytest.mark.gpu
@needs_two
def test_measure_on_nccl_calibrates_links_on_an_all_gather(on_cupy):
    from simdist import collectives

    m = collectives.measure("all_reduce", [2**k for k in range(12, 27, 2)], engine="auto")
    assert m.engine == "nccl" and m.num_devices == GPUS and "CUDA events" in m.where
    assert all(r.measured > 0 for r in m.rows)
    assert m.calibration is not None and all(r.calibrated is not None for r in m.rows)


@pytest.mark.gpu
@needs_two
def test_mirrored_strategy_reduces_through_nccl_and_traces_both_times(on_cupy):
    import simdist as tf
    from simdist.hardware.machine import get_machine

    strategy = tf.distribute.MirroredStrategy(
        cross_device_ops=tf.distribute.NcclAllReduce())
    per_replica = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.fill([257], float(ctx.replica_id_in_sync_group + 1)))
    out = strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
    p = strategy.num_replicas_in_sync
    np.testing.assert_array_equal(out.numpy(), np.full(257, p * (p + 1) / 2, np.float32))
    trace = get_machine().trace
    assert trace.filter(cat="collective"), "the simulated steps are traced"
    if len({cupy_adapter.real_device_index(d) for d in strategy.extended.worker_devices}) == p:
        assert trace.filter(cat="measured"), "NCCL's CUDA-event time is traced"


def test_benchmark_without_gpus_measures_simdist_on_this_host_and_calibrates():
    if GPUS >= 2:
        pytest.skip("GPUs present: the benchmark measures NCCL (run it by hand)")
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    # this checkout's simdist, on NumPy whatever backend this run chose
    env = dict(os.environ, PYTHONPATH=str(root), SIMDIST_BACKEND="numpy")
    out = subprocess.run([sys.executable, "benchmarks/bench_simulated_vs_measured.py",
                          "--repeats", "2"],
                         capture_output=True, text=True, cwd=root, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "no NCCL measurement: " in text and ("CuPy is not installed" in text or "GPU" in text)
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in text.splitlines()
            if line.startswith("|") and line.split("|")[1].strip().isdigit()]
    gather, reduce, calibrated = rows[:7], rows[7:14], rows[14:]
    assert "all_gather: simdist's ring all_gather on 4 NumPy host arrays" in text
    assert "all_reduce: simdist's ring all_reduce on 4 NumPy host arrays" in text
    for table in (gather, reduce):
        simulated = [float(r[1]) for r in table]
        assert simulated == sorted(simulated) and simulated[0] > 0
        assert all(float(r[2]) > 0 for r in table)  # measured with a real clock
    if "no links fit on the all-gather" in text:  # a loaded host's clock: said, not hidden
        assert "positive bandwidth" in text and not calibrated
        return
    assert "links fitted on the all-gather: link latency" in text
    if "no links fit on the all-reduce alone" in text:  # flat timings there too: said
        assert "no compute fit" in text and not calibrated
        return
    assert len(calibrated) == 7 and all(float(r[2]) > 0 for r in calibrated)
    assert "rms relative error: before calibration" in text
