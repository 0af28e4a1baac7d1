"""Property tests every all-reduce algorithm must satisfy, whatever its summation order:
simdist.testing.check_all_reduce (the check learners run on their own all-reduce)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist import collectives
from simdist.hardware.backend import to_host
from simdist.testing import check_all_reduce
from tests.collectives._helpers import ALL_REDUCE, params_for

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py


@pytest.mark.parametrize("name", ALL_REDUCE)
def test_all_reduce_is_correct_and_identical_on_every_replica(name):
    def fn(values, op):
        params = params_for(name, len(values), values[0].size)
        result = collectives.all_reduce(values, algorithm=name, op=op, **params).values
        if op == "MEAN":  # TF divides the finished sum by p (cross_device_ops.py)
            summed = collectives.all_reduce(values, algorithm=name, op="sum", **params)
            np.testing.assert_array_equal(to_host(result[0]),
                                          to_host(summed.values[0]) / len(values))
        return result

    check_all_reduce(fn, ops=("SUM", "MEAN", "MIN", "MAX", "PROD"), max_examples=40,
                     max_replicas=17, derandomize=False)


@pytest.mark.parametrize("op", ["SUM", "Mean", "max"])
def test_op_accepts_any_case_and_reduce_op_objects(op):
    class ReduceOp:  # shaped like tf.distribute.ReduceOp members
        def __init__(self, value):
            self.value = value

    values = [np.arange(4, dtype=np.float32) * (i + 1) for i in range(3)]
    a = collectives.all_reduce(values, op=op).values[0]
    b = collectives.all_reduce(values, op=ReduceOp(op.upper())).values[0]
    np.testing.assert_array_equal(to_host(a), to_host(b))


def test_mean_divides_after_the_sum_and_ints_true_divide():
    values = [np.array([1, 2], dtype=np.int32), np.array([2, 2], dtype=np.int32)]
    out = collectives.all_reduce(values, op="mean").values[0]
    np.testing.assert_array_equal(to_host(out), [1.5, 2.0])  # TF's v / n on ints true-divides


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
    results = {n: to_host(collectives.all_reduce(values, n).values[0]).tobytes()
               for n in ALL_REDUCE}
    assert len(set(results.values())) > 1


@pytest.mark.parametrize("name", ALL_REDUCE)
def test_a_nan_has_the_same_bits_on_every_replica(name):
    # Found by the property above (recursive doubling on 7 ranks): inf + -inf makes the
    # default NaN (sign bit set on x86) while NaN + x keeps x's NaN, so partners that add
    # in their own operand orders ended with different NaN bits.
    values = [np.array(v, dtype=np.float16) for v in
              (np.nan, -0.921, -1.836, -1.934, np.inf, -np.inf, 0.4265)]
    with np.errstate(invalid="ignore"):
        result = collectives.all_reduce(values, algorithm=name, op="sum",
                                        **params_for(name, 7, 1)).values
    assert np.isnan(to_host(result[0]))
    assert len({to_host(r).tobytes() for r in result}) == 1
