"""The executor's lazy start (buffers filled from the inputs on first touch, no upfront
copy) gives bit-for-bit the results of copying every input first, and never writes into
or hands back the caller's arrays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives import ALGORITHMS
from simdist.collectives.executor import execute
from simdist.hardware.backend import to_host
from tests.collectives._helpers import params_for

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py

OPS = ("sum", "prod", "max", "min")


def copied_first(name, arrays, op, params):
    """The executor run the old way: every rank's buffer a copy of its input."""
    algo = ALGORITHMS[name]
    sched = algo.schedule(len(arrays), **params)
    n = arrays[0].size
    buffers = [a.reshape(-1).copy() for a in arrays]
    buffers += [np.empty(n, arrays[0].dtype) for _ in range(sched.num_servers)]
    inputs = None if sched.inplace else [b.copy() for b in buffers]
    execute(sched, buffers, op, algo.layout.bounds(arrays, sched.num_chunks), inputs)
    return buffers[:len(arrays)]


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(n for n, a in ALGORITHMS.items()
                                   if a.collective == "all_reduce")),
       p=st.integers(1, 9), n=st.integers(0, 40), op=st.sampled_from(OPS),
       dtype=st.sampled_from(["float32", "float64", "int32"]), seed=st.integers(0, 99))
def test_lazy_all_reduce_equals_copying_the_inputs_first(name, p, n, op, dtype, seed):
    rng = np.random.default_rng(seed)
    arrays = [(rng.standard_normal(n) * 5).astype(dtype) for _ in range(p)]
    before = [a.copy() for a in arrays]
    params = params_for(name, p, n)
    got = collectives.all_reduce(arrays, name, op=op, **params).values
    want = copied_first(name, before, op, params)
    for g, w, a, b in zip(got, want, arrays, before):
        g, w = to_host(g), to_host(w)
        assert g.tobytes() == w.tobytes()
        assert a.tobytes() == b.tobytes()  # the inputs are untouched
        assert not np.shares_memory(g, a)


def test_one_array_passed_for_every_replica_is_read_not_shared():
    # [a] * p: every rank's input is the same object; each result is still its own array.
    a = np.arange(6, dtype=np.float32)
    out = collectives.all_reduce([a] * 4, "ring").values
    np.testing.assert_array_equal(to_host(out[0]), a * 4)
    np.testing.assert_array_equal(a, np.arange(6, dtype=np.float32))
    out[0][0] = -1
    assert out[1][0] == 0 and a[0] == 0


def test_other_collectives_leave_the_inputs_alone():
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal((6, 2)).astype(np.float32) for _ in range(3)]
    before = [a.copy() for a in arrays]
    for call in (lambda: collectives.reduce_scatter(arrays),
                 lambda: collectives.all_to_all(arrays),
                 lambda: collectives.broadcast(arrays, root=1),
                 lambda: collectives.reduce(arrays, root=2)):
        result = call()
        for v, a in zip(result.values, arrays):
            assert v is None or not np.shares_memory(to_host(v), a)
    for a, b in zip(arrays, before):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(to_host(collectives.broadcast(arrays, root=1).values[2]),
                                  arrays[1])
