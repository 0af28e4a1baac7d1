"""Property tests every all-reduce algorithm must satisfy, whatever its summation order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist import collectives
from tests.collectives._helpers import ALL_REDUCE, params_for, reference, tame_for_prod
from tests.strategies import REDUCE_OP_NAMES, collective_dtypes, per_replica_arrays, replica_counts


@pytest.mark.parametrize("name", ALL_REDUCE)
@given(data=st.data())
def test_all_reduce_is_correct_and_identical_on_every_replica(name, data):
    p = data.draw(replica_counts(), label="p")
    dtype = data.draw(collective_dtypes(), label="dtype")
    op = data.draw(st.sampled_from(REDUCE_OP_NAMES), label="op")
    values = data.draw(per_replica_arrays(p, dtype), label="values")
    if op == "prod":
        values = tame_for_prod(values)
    params = data.draw(params_for(name, p), label="params")
    result = collectives.all_reduce(values, algorithm=name, op=op, **params)

    assert len(result.values) == p
    first = result.values[0]
    for v in result.values:  # bit-identical: the final phase copies, never re-adds
        assert v.shape == values[0].shape
        assert v.tobytes() == first.tobytes()

    ref = reference(values, op)
    if op == "mean":
        summed = collectives.all_reduce(values, algorithm=name, op="sum", **params).values[0]
        np.testing.assert_array_equal(first, summed / p)
        first, op = summed, "sum"  # and the sum it divides must itself match NumPy's
    assert first.dtype == values[0].dtype
    if first.dtype.kind != "f" or op in ("min", "max"):
        np.testing.assert_array_equal(first, ref.astype(first.dtype))
    elif op == "sum":
        eps = np.finfo(first.dtype).eps
        bound = max(p - 1, 1) * eps * np.abs(np.stack(values)).astype(np.float64).sum(axis=0)
        assert np.all(np.abs(first.astype(np.float64) - ref) <= bound)
    else:
        eps = np.finfo(first.dtype).eps
        np.testing.assert_allclose(first.astype(np.float64), ref, rtol=2 * p * eps)


@pytest.mark.parametrize("op", ["SUM", "Mean", "max"])
def test_op_accepts_any_case_and_reduce_op_objects(op):
    class ReduceOp:  # shaped like tf.distribute.ReduceOp members
        def __init__(self, value):
            self.value = value

    values = [np.arange(4, dtype=np.float32) * (i + 1) for i in range(3)]
    a = collectives.all_reduce(values, op=op).values[0]
    b = collectives.all_reduce(values, op=ReduceOp(op.upper())).values[0]
    np.testing.assert_array_equal(a, b)


def test_mean_divides_after_the_sum_and_ints_true_divide():
    values = [np.array([1, 2], dtype=np.int32), np.array([2, 2], dtype=np.int32)]
    out = collectives.all_reduce(values, op="mean").values[0]
    np.testing.assert_array_equal(out, [1.5, 2.0])  # TF's v / n on ints true-divides


def test_shapes_are_kept_and_zero_size_works():
    values = [np.ones((2, 3, 5), np.float32) for _ in range(4)]
    assert collectives.all_reduce(values, "tree").values[1].shape == (2, 3, 5)
    empty = [np.zeros((0,), np.float32)] * 5
    result = collectives.all_reduce(empty, "ring")
    assert all(v.shape == (0,) for v in result.values) and result.cost.time == 0


def test_algorithms_sum_in_their_own_order():
    rng = np.random.default_rng(1)
    values = [rng.standard_normal(257).astype(np.float32) * 10.0 ** rng.integers(-3, 4)
              for _ in range(8)]
    results = {n: collectives.all_reduce(values, n).values[0].tobytes() for n in ALL_REDUCE}
    assert len(set(results.values())) > 1
