"""simdist.testing's collective checks pass simdist's own algorithms and reject broken ones
(each broken function below makes one classic mistake; its check must name it)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from simdist import collectives
from simdist.collectives import Schedule, Step, Transfer
from simdist.testing import (
    check_all_gather,
    check_all_reduce,
    check_broadcast,
    check_reduce_scatter,
    check_schedule,
)


def _pow2(p):
    return p & (p - 1) == 0


def test_simdist_collectives_pass_their_checks():
    check_reduce_scatter(lambda v, op: collectives.reduce_scatter(
        v, "halving" if _pow2(len(v)) else "ring", op=op).values, max_examples=40)
    check_all_gather(lambda v: collectives.all_gather(
        v, "doubling" if _pow2(len(v)) else "ring").values, max_examples=40)
    for algo in ("binomial", "chain"):
        check_broadcast(lambda v, root, a=algo: collectives.broadcast(v, a, root=root).values,
                        max_examples=30)


# --- broken all-reduces: each must be rejected, with the smallest case --------------------
def forgets_last_replica(values, op):
    total = np.sum(values[:-1], axis=0, dtype=values[0].dtype) if len(values) > 1 else values[0]
    return [total.copy() for _ in values]


def each_replica_sums_in_its_own_order(values, op):
    """Right value, but replica r starts its sum at replica r: the bits drift apart."""
    p = len(values)
    return [np.sum(np.stack(values[r:] + values[:r]), axis=0, dtype=values[0].dtype)
            for r in range(p)]


def widens_to_float64(values, op):
    return [np.sum(np.stack(values).astype(np.float64), axis=0) for _ in values]


def mean_without_dividing(values, op):
    total = np.sum(np.stack(values), axis=0, dtype=values[0].dtype)
    return [total.copy() for _ in values]


def raises(values, op):
    return [values[0][len(values)]] * len(values)


@pytest.mark.parametrize("fn, ops, dtypes, message", [
    (forgets_last_replica, ("SUM",), None, "more than summing in any order"),
    (each_replica_sums_in_its_own_order, ("SUM",), ("float32",), "same bits"),
    (widens_to_float64, ("SUM",), ("float32",), "expected dtype float32"),
    (mean_without_dividing, ("MEAN",), ("float64",), "MEAN is off"),
    (raises, ("SUM",), None, "raised IndexError"),
])
def test_check_all_reduce_rejects_a_broken_all_reduce(fn, ops, dtypes, message):
    with pytest.raises(AssertionError, match=message) as info:
        check_all_reduce(fn, ops=ops, dtypes=dtypes, max_examples=60)
    assert "smallest failing case: p=" in str(info.value)


def test_the_failing_case_is_shrunk():
    with pytest.raises(AssertionError) as info:
        check_all_reduce(forgets_last_replica, ops=("SUM",), dtypes=("int32",),
                         special_values=False)
    # Forgetting a replica needs 2 replicas and one non-zero element to show.
    assert "p=2, dtype=int32, shape=()" in str(info.value)


def test_other_checks_reject_broken_collectives():
    whole = lambda v, op: [np.sum(v, axis=0, dtype=v[0].dtype)] * len(v)
    with pytest.raises(AssertionError, match=r"replica \d .*expected dtype .* and shape"):
        check_reduce_scatter(whole, ops=("SUM",), max_examples=60)
    reversed_order = lambda v: [np.concatenate(v[::-1])] * len(v)
    with pytest.raises(AssertionError, match="in replica order"):
        check_all_gather(reversed_order, max_examples=60)
    from_zero = lambda v, root: [v[0].copy() for _ in v]
    with pytest.raises(AssertionError, match="copy the root's"):
        check_broadcast(from_zero, max_examples=60)


# --- a user-written schedule on simdist's executor ----------------------------------------
def reduce_to_zero_then_broadcast(p, forget=False):
    """Everyone sends to replica 0, which then sends the sum back (one chunk)."""
    senders = range(1, p - 1) if forget else range(1, p)
    return Schedule("all_reduce", "to_zero", p, 1, [
        Step("reduce", [Transfer(r, 0, 0, True) for r in senders]),
        Step("broadcast", [Transfer(0, r, 0, False) for r in range(1, p)]),
    ])


def test_check_schedule_runs_a_user_schedule_on_the_executor():
    check_schedule(reduce_to_zero_then_broadcast, max_examples=40)
    with pytest.raises(AssertionError, match="smallest failing case: p=2"):
        check_schedule(lambda p: reduce_to_zero_then_broadcast(p, forget=True),
                       max_examples=40)
    with pytest.raises(ValueError, match="check_schedule checks one of"):
        check_schedule(reduce_to_zero_then_broadcast, "all_to_all")


def test_importing_simdist_does_not_import_hypothesis():
    code = ("import sys, simdist, simdist.testing\n"
            "from simdist.testing import reset_world\n"
            "assert 'hypothesis' not in sys.modules\n"
            "import simdist.testing.strategies\n"
            "assert 'hypothesis' in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_reduce_op_members_are_passed_through():
    import simdist as tf

    seen = set()

    def fn(values, op):
        seen.add(type(op).__name__)
        return collectives.all_reduce(values, op=op).values

    check_all_reduce(fn, ops=(tf.distribute.ReduceOp.SUM, tf.distribute.ReduceOp.MEAN),
                     max_examples=20)
    assert seen == {"ReduceOp"}
