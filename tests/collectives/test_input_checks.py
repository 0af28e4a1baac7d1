"""Bad input to simdist.collectives: clear errors, never a silent wrong value or price.

- values that are not numbers (str, bytes, object) are refused by every collective, and
  bool by the arithmetic reductions (sum/mean/prod would be a logical OR/AND);
- ``price`` takes a whole, finite, in-range byte count of whole elements, and any
  non-empty message pays at least one step's latency.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives.pricing import MAX_NBYTES
from simdist.hardware.backend import to_host

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py

NOT_NUMBERS = {"str": np.array(["a", "b"]), "bytes": np.array([b"a", b"b"]),
               "object": np.array([1, None], dtype=object)}
CALLS = {
    "all_reduce": lambda v: collectives.all_reduce(v),
    "reduce_scatter": lambda v: collectives.reduce_scatter(v),
    "all_gather": lambda v: collectives.all_gather(v),
    "broadcast": lambda v: collectives.broadcast(v),
    "reduce": lambda v: collectives.reduce(v),
    "all_to_all": lambda v: collectives.all_to_all(v),
}


@pytest.mark.parametrize("kind", sorted(NOT_NUMBERS))
@pytest.mark.parametrize("call", sorted(CALLS))
def test_non_numeric_values_are_refused_by_every_collective(call, kind):
    values = [NOT_NUMBERS[kind]] * 2
    with pytest.raises(TypeError, match="take numbers"):
        CALLS[call](values)


@pytest.mark.parametrize("op", ["sum", "mean", "prod"])
@pytest.mark.parametrize("call", [collectives.all_reduce, collectives.reduce_scatter,
                                  collectives.reduce])
def test_bool_arithmetic_reductions_are_refused(call, op):
    values = [np.array([True, False]), np.array([True, True])]
    with pytest.raises(TypeError, match="bool"):
        call(values, op=op)


def test_bool_min_max_and_moves_stay_allowed():
    values = [np.array([True, False]), np.array([True, True])]
    assert to_host(collectives.all_reduce(values, op="max").values[0]).tolist() == [True, True]
    assert to_host(collectives.all_reduce(values, op="min").values[0]).tolist() == [True, False]
    assert to_host(collectives.all_gather(values).values[0]).tolist() == [True, False, True, True]


@pytest.mark.parametrize("nbytes, error", [
    (1.5, ValueError), (float("nan"), ValueError), (float("inf"), ValueError),
    (-4, ValueError), (MAX_NBYTES + 4, ValueError), (10 ** 30, ValueError),
    (True, TypeError), ("8", TypeError), (None, TypeError), (6, ValueError),
])
def test_bad_sizes_are_clear_errors(nbytes, error):
    with pytest.raises(error, match="nbytes"):
        collectives.price("all_reduce", "ring", nbytes, num_devices=4)


def test_integral_floats_and_numpy_ints_are_sizes():
    ring = collectives.price("all_reduce", "ring", 1024, num_devices=4).time
    assert collectives.price("all_reduce", "ring", 1024.0, num_devices=4).time == ring
    assert collectives.price("all_reduce", "ring", np.int64(1024), num_devices=4).time == ring


ALGORITHMS = sorted((a.collective, name) for name, a in collectives.ALGORITHMS.items())


@given(st.sampled_from(ALGORITHMS), st.integers(1, 3), st.integers(2, 8))
def test_a_tiny_message_pays_latency(algorithm, nbytes, p):
    collective, name = algorithm
    assume(collectives.ALGORITHMS[name].supports(p))
    tiny = collectives.price(collective, name, nbytes, num_devices=p, dtype="uint8")
    assert math.isfinite(tiny.time) and tiny.time > 0
    # At least the latency of the algorithm's steps: no more than a slightly larger message.
    assert tiny.time <= collectives.price(collective, name, 64, num_devices=p,
                                          dtype="uint8").time
    assert collectives.price(collective, name, 0, num_devices=p, dtype="uint8").time == 0.0


@given(st.integers(1, 2 ** 40), st.integers(2, 8))
def test_ring_price_grows_with_size_and_stays_finite(elements, p):
    small = collectives.price("all_reduce", "ring", 4 * elements, num_devices=p).time
    large = collectives.price("all_reduce", "ring", 8 * elements, num_devices=p).time
    assert 0 < small <= large and math.isfinite(large)


def test_the_largest_size_is_priced():
    cost = collectives.price("all_reduce", "ring", MAX_NBYTES, num_devices=4)
    assert math.isfinite(cost.time) and cost.time > 0
