"""The ring all-reduces' values folded chunk by chunk (``_rings.fold``, the registry's
``fast_values``) are bit for bit what running the ring's steps gives (the executor), for
any replica count, channel rings, op, dtype, special values and cache block size; the same
for TF's ring (``ring_reducer``: aligned chunks, other start ranks)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives import ALGORITHMS
from simdist.collectives.algorithms import _rings
from simdist.collectives.executor import execute
from simdist.hardware.backend import to_host
from simdist.testing import strategies as sds


def stepped(arrays, op, rings, name="ring"):
    """The ring run step by step by the executor (the lazy start, as the API ran it)."""
    sched = ALGORITHMS[name].schedule(len(arrays), **({} if rings is None else {"rings": rings}))
    layout = ALGORITHMS[name].layout
    bounds = layout.bounds(arrays, sched.num_chunks)
    buffers, initial = layout.buffers(arrays, bounds)
    execute(sched, buffers, op, bounds, None, None, initial)
    return layout.outputs(buffers, arrays, bounds, sched, op)


@st.composite
def ring_cases(draw):
    p = draw(sds.replica_counts(9))
    channels = draw(st.integers(1, 3))
    rings = [draw(st.permutations(range(p))) for _ in range(channels)]
    dtype = draw(st.sampled_from(["float16", "float32", "float64", "int8", "int64",
                                  "complex64", "bool"]))
    op = draw(st.sampled_from(["max", "min"] if dtype == "bool" else
                              ["sum", "mean", "max", "min", "prod"]))
    if dtype == "bool":
        rng = np.random.default_rng(draw(st.integers(0, 99)))
        arrays = [rng.integers(0, 2, draw(st.just(17))).astype(bool) for _ in range(p)]
    elif dtype == "complex64":
        arrays = [a.astype(np.complex64) * (1 - 2j) for a in
                  draw(sds.per_replica_arrays(p, "float32", special=True))]
    else:
        arrays = draw(sds.per_replica_arrays(p, dtype, special=True))
    return arrays, op, rings


@settings(max_examples=60, deadline=None)
@given(case=ring_cases(), block=st.sampled_from([1, 3, 8, 1 << 21]))
def test_folded_values_are_the_stepped_values(case, block, monkeypatch_block):
    arrays, op, rings = case
    monkeypatch_block(block)
    got = collectives.all_reduce(arrays, "ring", op=op, rings=rings).values
    want = stepped(arrays, op, rings)
    for g, w in zip(got, want):
        assert to_host(g).tobytes() == to_host(w).tobytes()


@settings(max_examples=40, deadline=None)
@given(case=ring_cases(), block=st.sampled_from([1, 3, 1 << 21]))
def test_tf_rings_folded_values_are_its_stepped_values(case, block, monkeypatch_block):
    arrays, op, _ = case
    monkeypatch_block(block)
    got = collectives.all_reduce(arrays, "ring_reducer", op=op).values
    want = stepped(arrays, op, None, "ring_reducer")
    for g, w in zip(got, want):
        assert to_host(g).tobytes() == to_host(w).tobytes()


@settings(max_examples=40, deadline=None)
@given(case=ring_cases(), name=st.sampled_from(["ring", "ring_reducer"]))
def test_a_buffer_folded_at_once_has_the_chunk_by_chunk_bits(case, name, monkeypatch):
    # Inputs that fit one block are gathered into one row per operand and combined row
    # after row (_fold_gathered): the bits of the fold chunk by chunk (special values, NaN
    # payloads and signed zeros under min / max included).
    arrays, op, rings = case
    kw = {"rings": rings} if name == "ring" else {}
    at_once = collectives.all_reduce(arrays, name, op=op, **kw).values
    monkeypatch.setattr(_rings, "_fold_gathered", lambda *args: False)
    by_chunk = collectives.all_reduce(arrays, name, op=op, **kw).values
    for a, b in zip(at_once, by_chunk):
        assert to_host(a).tobytes() == to_host(b).tobytes()


@pytest.fixture
def monkeypatch_block(monkeypatch):
    def set_bytes(block):
        monkeypatch.setattr(_rings, "FOLD_BLOCK_BYTES", block)
    return set_bytes


def test_the_fold_keeps_the_schedule_cost_and_trace(monkeypatch):
    # The values come from the fold; the schedule, its price and the trace events are the
    # ring's steps as before (the same call with the fold switched off gives the same).
    arrays = [np.arange(10, dtype=np.float32) * i for i in range(4)]
    folded = collectives.all_reduce(arrays, "ring", rings=[[0, 2, 1, 3], [3, 1, 2, 0]])
    monkeypatch.setattr(ALGORITHMS["ring"], "fast_values", None)
    stepped_ = collectives.all_reduce(arrays, "ring", rings=[[0, 2, 1, 3], [3, 1, 2, 0]])
    assert list(map(repr, folded.trace.events)) == list(map(repr, stepped_.trace.events))
    assert len([e for e in folded.trace.events if e.cat == "transfer"]) == 6 * 8
    assert folded.cost == stepped_.cost
    for f, s in zip(folded.values, stepped_.values):
        assert to_host(f).tobytes() == to_host(s).tobytes()
