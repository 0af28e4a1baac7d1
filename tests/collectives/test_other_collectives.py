"""Reduce-scatter, all-gather, broadcast, reduce and all-to-all."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist import collectives
from simdist.hardware.backend import to_host
from simdist.testing.strategies import (
    algorithm_params,
    collective_dtypes,
    per_replica_arrays,
    replica_counts,
)
from tests.collectives._helpers import algorithms_for

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py


@given(p=replica_counts(), dtype=collective_dtypes(), data=st.data())
def test_all_gather_concatenates_in_replica_order(p, dtype, data):
    rows = data.draw(st.lists(st.integers(0, 4), min_size=p, max_size=p))
    values = [np.full((r, 2), i, dtype=dtype) for i, r in enumerate(rows)]
    # Recursive doubling needs equal inputs (it swaps whole ranges); the ring takes any.
    algos = algorithms_for("all_gather", p) if len(set(rows)) == 1 else ["ring"]
    for algo in algos:
        out = collectives.all_gather(values, algo)
        expected = np.concatenate(values)
        for v in out.values:
            np.testing.assert_array_equal(to_host(v), expected)


@given(p=replica_counts(), dtype=collective_dtypes(), data=st.data())
def test_reduce_scatter_then_all_gather_is_all_reduce(p, dtype, data):
    values = data.draw(per_replica_arrays(p, dtype))
    pairs = [("ring", "ring", "ring")]
    if "halving" in algorithms_for("reduce_scatter", p):
        pairs.append(("halving", "doubling", "halving_doubling"))
    for rs_name, ag_name, ar_name in pairs:
        scattered = collectives.reduce_scatter(values, rs_name)
        sizes = [len(x) for x in np.array_split(values[0], p)]
        assert [v.shape[0] for v in scattered.values] == sizes
        gathered = collectives.all_gather(scattered.values, ag_name)
        reduced = collectives.all_reduce(values, ar_name)
        for g, r in zip(gathered.values, reduced.values):
            assert to_host(g).tobytes() == to_host(r).tobytes()


@given(p=replica_counts(), data=st.data())
def test_broadcast_and_reduce_from_any_root(p, data):
    values = data.draw(per_replica_arrays(p, "int64", shape=(3, 2)))
    for algo in algorithms_for("broadcast", p):
        params = data.draw(algorithm_params(collectives.ALGORITHMS[f"broadcast.{algo}"], p))
        root = params.pop("root")
        out = collectives.broadcast(values, algo, root=root, **params)
        for v in out.values:
            np.testing.assert_array_equal(to_host(v), values[root])
        red = collectives.reduce(values, algo, op="sum", root=root, **params)
        np.testing.assert_array_equal(to_host(red.values[root]), np.sum(values, axis=0))
        assert all(v is None for i, v in enumerate(red.values) if i != root)


def test_broadcast_accepts_none_on_non_roots():
    out = collectives.broadcast([None, np.arange(3.0), None], root=1)
    for v in out.values:
        np.testing.assert_array_equal(to_host(v), [0.0, 1.0, 2.0])


@given(p=replica_counts(), k=st.integers(1, 3), dtype=collective_dtypes())
def test_all_to_all_transposes_slots(p, k, dtype):
    # every element distinct (modulo 127 for one-byte dtypes), so a swapped slot shows
    modulus = 127 if np.dtype(dtype).itemsize == 1 else 1 << 11
    values = [((np.arange(p * k) + p * k * i) % modulus).astype(dtype) for i in range(p)]
    for algo in algorithms_for("all_to_all", p):
        out = collectives.all_to_all(values, algo)
        for j in range(p):
            for i in range(p):
                np.testing.assert_array_equal(to_host(out.values[j][i * k:(i + 1) * k]),
                                              values[i][j * k:(j + 1) * k])


def test_all_to_all_of_empty_arrays_gives_empty_arrays():
    out = collectives.all_to_all([np.zeros(0, np.float32)] * 3, "pairwise")
    assert [v.shape for v in out.values] == [(0,)] * 3


def test_all_to_all_needs_divisible_axis():
    with pytest.raises(ValueError, match="divide"):
        collectives.all_to_all([np.arange(5)] * 2)
