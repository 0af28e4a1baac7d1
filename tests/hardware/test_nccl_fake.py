"""simdist.hardware.nccl and the ``nccl`` timing engine against a stand-in for CuPy/NCCL.

No GPU has run the real path (README, "Real hardware"); this checks, on the CPU, the
logic around the calls: one grouped launch per collective (work happens at groupEnd, as
in NCCL), the buffer each rank receives, CUDA-event seconds per rank, the trace, and that
``measure(engine="nccl")`` times through it. The stand-in's arrays are NumPy arrays whose
``data.ptr`` names them, as CuPy's device pointers do.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from simdist import collectives
from simdist.hardware import nccl
from simdist.hardware.trace import Trace

_BY_PTR: dict = {}


class _Array(np.ndarray):
    @property
    def data(self):
        _BY_PTR[id(self)] = self
        return types.SimpleNamespace(ptr=id(self))


def _array(host):
    return np.array(host).view(_Array)


class _Comm:
    pending: list = []

    def allReduce(self, send, recv, count, dtype, op, stream):  # noqa: N802 - NCCL's name
        self.pending.append(("all_reduce", send, recv, count))

    def allGather(self, send, recv, count, dtype, stream):  # noqa: N802
        self.pending.append(("all_gather", send, recv, count))


def _group_end():
    ops, _Comm.pending[:] = list(_Comm.pending), []
    sends = [_BY_PTR[s][:n] for _, s, _, n in ops]
    for kind, _, recv, _ in ops:
        _BY_PTR[recv][...] = sum(sends) if kind == "all_reduce" else np.concatenate(sends)


class _Device:
    def __init__(self, index):
        self.index = index

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.fixture
def fake_cupy(monkeypatch):
    nccl_mod = types.ModuleType("cupy.cuda.nccl")
    nccl_mod.__dict__.update(
        groupStart=lambda: None, groupEnd=_group_end, NCCL_SUM=0, NCCL_FLOAT32=7,
        NcclCommunicator=types.SimpleNamespace(initAll=lambda devs: [_Comm() for _ in devs]))
    event = type("Event", (), {"record": lambda self, s: None, "synchronize": lambda self: None})
    cuda = types.ModuleType("cupy.cuda")
    cuda.__dict__.update(
        nccl=nccl_mod, Device=_Device, Event=event,
        get_current_stream=lambda: types.SimpleNamespace(ptr=0),
        get_elapsed_time=lambda a, b: 2.0,  # ms
        runtime=types.SimpleNamespace(getDeviceCount=lambda: 3))
    cupy = types.ModuleType("cupy")
    cupy.__dict__.update(cuda=cuda, empty_like=lambda a: _array(np.empty_like(a)),
                         empty=lambda n, dtype: _array(np.empty(n, dtype)),
                         ones=lambda n, dtype: _array(np.ones(n, dtype)))
    for name, mod in (("cupy", cupy), ("cupy.cuda", cuda), ("cupy.cuda.nccl", nccl_mod)):
        monkeypatch.setitem(sys.modules, name, mod)
    nccl.reset()
    yield cupy
    nccl.reset()


def test_all_gather_and_all_reduce_run_grouped_and_are_timed_per_rank(fake_cupy):
    host = [np.arange(4, dtype=np.float32) + 10 * r for r in range(3)]
    trace = Trace()
    outs, seconds = nccl.all_gather([_array(h) for h in host], [0, 1, 2], trace=trace,
                                    start=1.0)
    assert all(np.array_equal(o, np.concatenate(host)) for o in outs)
    assert seconds == {0: 2e-3, 1: 2e-3, 2: 2e-3}
    events = trace.filter(cat="measured")
    assert [e.name for e in events] == [f"all_gather/nccl rank {r}" for r in range(3)]
    assert all(e.start == 1.0 and e.end == pytest.approx(1.002) for e in events)
    outs, _ = nccl.all_reduce([_array(h) for h in host], [0, 1, 2], "sum")
    assert all(np.array_equal(o, sum(host)) for o in outs)


def test_measure_with_the_nccl_engine_times_through_nccl(fake_cupy):
    m = collectives.measure("all_gather", [3 * 4 * 256, 3 * 4 * 4096], num_devices=3,
                            repeats=2, engine="nccl")
    assert m.engine == "nccl" and "CUDA events" in m.where
    assert [r.measured for r in m.rows] == [2e-3, 2e-3]  # the events' 2 ms, median


class _Peers:
    """One process's view of the cluster's Peers: what the others send is given."""

    def __init__(self, theirs):
        self.sent, self.theirs = [], theirs

    def send(self, peer, tag, payload):
        self.sent.append((peer, tag, payload))

    def recv(self, peer, tag):
        return self.theirs[peer]


def test_processes_whose_ranks_share_one_gpu_skip_nccl_alike(monkeypatch):
    """Two workers on one host each map their rank onto GPU 0 (found on an H200: NCCL
    raised ncclInvalidUsage). They trade GPU identities once and both keep the executor's
    result; on two hosts the same device indices are distinct GPUs and NCCL runs."""
    from simdist.collectives.executor import Exchange

    monkeypatch.setattr(nccl, "_gpu_identity", lambda d: f"host-a/0000:{d:02x}:00.0")
    nccl.reset()
    same_host = Exchange([0, 1], 0, _Peers({1: {1: "host-a/0000:00:00.0"}}))
    assert nccl.distinct_across_processes([0, 0], same_host) is False
    assert same_host.peers.sent == [(1, ("nccl-gpu-identities", (0, 0)),
                                     {0: "host-a/0000:00:00.0"})]
    assert nccl.distinct_across_processes([0, 0], same_host) is False
    assert len(same_host.peers.sent) == 1          # traded once per device group
    nccl.reset()
    two_hosts = Exchange([0, 1], 0, _Peers({1: {1: "host-b/0000:00:00.0"}}))
    assert nccl.distinct_across_processes([0, 0], two_hosts) is True
    nccl.reset()
