"""A failed strategy.run ends with the real error even when a replica swallows the abort.

A retry wrapper with a bare ``except:`` around a collective catches simdist's internal
abort (a BaseException) when another replica has failed. The run must still raise the
original exception, in bounded time, and leave no replica thread behind.
"""

import os
import subprocess
import sys
import textwrap
import threading

import pytest

import simdist as tf


def _replica_threads():
    return [t for t in threading.enumerate() if t.name.startswith("replica-")]


def _run_bounded(fn, strategy, limit_s=120):
    """strategy.run(fn) in a helper thread, so a hang fails the test instead of the suite."""
    outcome = {}

    def target():
        try:
            outcome["result"] = strategy.run(fn)
        except BaseException as e:  # noqa: BLE001 - inspected by the test
            outcome["exc"] = e

    helper = threading.Thread(target=target, daemon=True)
    helper.start()
    helper.join(limit_s)
    assert not helper.is_alive(), "strategy.run hung"
    return outcome


def _retrying(call, attempts):
    """A retry wrapper as users write them: a bare except around the collective."""
    for _ in range(attempts):
        try:
            return call()
        except:  # noqa: E722 - the mistake under test
            continue
    return None


@pytest.mark.parametrize("collective", ["all_reduce", "all_gather", "merge_call"])
def test_bare_except_retry_still_raises_the_real_error_and_leaves_no_thread(collective):
    strategy = tf.distribute.MirroredStrategy()
    calls = {
        "all_reduce": lambda ctx: ctx.all_reduce("sum", tf.ones([2])),
        "all_gather": lambda ctx: ctx.all_gather(tf.ones([2]), axis=0),
        "merge_call": lambda ctx: ctx.merge_call(lambda s: 1.0),
    }

    def fn():
        ctx = tf.distribute.get_replica_context()
        ctx.all_reduce("sum", tf.ones([2]))
        if int(ctx.replica_id_in_sync_group) == 1:
            raise ValueError("the real error")
        _retrying(lambda: calls[collective](ctx), attempts=5)
        return tf.ones([1])

    outcome = _run_bounded(fn, strategy)
    exc = outcome.get("exc")
    assert isinstance(exc, ValueError) and str(exc) == "the real error"
    notes = "\n".join(exc.__notes__)
    assert "raised in replica 1" in notes
    assert "caught simdist's abort" in notes and "catch Exception" in notes
    assert _replica_threads() == []


def test_a_replica_that_swallows_the_abort_then_returns_does_not_hide_the_error():
    strategy = tf.distribute.MirroredStrategy()

    def fn():
        ctx = tf.distribute.get_replica_context()
        if int(ctx.replica_id_in_sync_group) == 3:
            raise KeyError("boom")
        try:
            ctx.merge_call(lambda s: None)
        except BaseException:  # noqa: BLE001 - swallowed on purpose
            pass
        return 1.0

    outcome = _run_bounded(fn, strategy)
    assert isinstance(outcome.get("exc"), KeyError)
    assert _replica_threads() == []
    # The strategy still works afterwards.
    out = strategy.run(
        lambda: tf.distribute.get_replica_context().all_reduce("sum", tf.constant(1.0)))
    assert [float(v) for v in strategy.experimental_local_results(out)] == [4.0] * 4


def test_a_failing_merge_function_unwinds_swallowing_replicas_too():
    strategy = tf.distribute.MirroredStrategy()

    def merge_fn(s):
        raise RuntimeError("merge failed")

    def fn():
        ctx = tf.distribute.get_replica_context()
        _retrying(lambda: ctx.merge_call(merge_fn), attempts=3)
        return 1.0

    outcome = _run_bounded(fn, strategy)
    assert str(outcome.get("exc")) == "merge failed"
    assert _replica_threads() == []


_FOREVER = textwrap.dedent("""
    import warnings
    import simdist as tf
    from simdist.distribute import mirrored_run
    mirrored_run.ABORT_GRACE_S = 0.2
    strategy = tf.distribute.MirroredStrategy()

    def fn():
        ctx = tf.distribute.get_replica_context()
        if int(ctx.replica_id_in_sync_group) == 2:
            raise ValueError("the real error")
        while True:  # retries for ever, swallowing every abort
            try:
                return ctx.all_reduce("sum", tf.constant(1.0))
            except:  # noqa: E722
                pass

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            strategy.run(fn)
        except ValueError as e:
            print("RAISED", e)
            print("NOTES", " | ".join(e.__notes__))
    print("WARNED", [str(w.message) for w in caught if w.category is RuntimeWarning])
""")


def test_a_replica_that_swallows_every_abort_for_ever_is_abandoned_and_parked():
    # In a child process: the parked thread goes with it.
    env = dict(os.environ, SIMDIST_MACHINE="default")
    proc = subprocess.run([sys.executable, "-c", _FOREVER], capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "RAISED the real error" in out
    assert "raised in replica 2" in out
    assert "abandoned" in out.split("WARNED", 1)[1]
