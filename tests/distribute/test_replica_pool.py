"""MirroredStrategy's replica threads are a pool reused across strategy.run calls.

Each run's replica tasks start as on new threads (no scope, tape or seed generator left
over from the last task), a run that finds the pool busy (nested in a merge function)
gets threads of its own, and the pool ends with its strategy, at a world reset and when
a run fails.
"""

import gc
import os
import subprocess
import sys
import threading
import weakref

import pytest

import simdist as tf
from simdist.distribute import mirrored_run
from simdist.framework import context, tape
from simdist.keras import backend
from simdist.testing import reset_world


def _replica_threads():
    return [t for t in threading.enumerate() if t.name.startswith("replica-")]


def _idents(strategy, fn=None):
    """The thread objects that ran each replica of one run (objects, not idents: the OS
    reuses the ids of ended threads)."""
    ran = {}

    def record():
        if fn is not None:
            fn()
        ran[int(tf.distribute.get_replica_context().replica_id_in_sync_group)] = \
            threading.current_thread()
        return 1.0

    strategy.run(record)
    return [ran[i] for i in sorted(ran)]


def test_runs_reuse_the_same_replica_threads():
    strategy = tf.distribute.MirroredStrategy()
    first, second = _idents(strategy), _idents(strategy)
    assert len(set(first)) == strategy.num_replicas_in_sync
    assert threading.current_thread() not in first
    assert first == second
    assert len(_replica_threads()) == strategy.num_replicas_in_sync


def test_each_task_starts_with_fresh_per_thread_state():
    strategy = tf.distribute.MirroredStrategy()

    def leave_state_behind():
        # Scopes entered and never left, a per-thread seed generator set.
        tf.device("/cpu:0").__enter__()
        tf.GradientTape().__enter__()
        backend._SEED_GENERATOR.generator = object()

    seen = []

    def look():
        seen.append((context.explicit_device() is None or
                     context.explicit_device().device_type != "CPU",
                     tape.active(),
                     getattr(backend._SEED_GENERATOR, "generator", None)))

    _idents(strategy, leave_state_behind)
    _idents(strategy, look)
    # The task's own device scope (its replica's GPU) is the only one; no tape; no seed.
    assert seen == [(True, False, None)] * strategy.num_replicas_in_sync


def test_a_run_nested_in_a_merge_function_gets_threads_of_its_own():
    strategy = tf.distribute.MirroredStrategy()
    pooled = set(_idents(strategy))
    inner = []

    def merge_fn(s):
        inner.extend(_idents(s))
        return 1.0

    def fn():
        return tf.distribute.get_replica_context().merge_call(merge_fn)

    strategy.run(fn)
    assert len(set(inner)) == strategy.num_replicas_in_sync
    assert not set(inner) & pooled
    # The nested run's threads ended with it; the pool is still the same.
    assert len(_replica_threads()) == strategy.num_replicas_in_sync
    assert set(_idents(strategy)) == pooled


def test_the_pool_ends_with_its_strategy_and_at_a_world_reset():
    strategy = tf.distribute.MirroredStrategy()
    _idents(strategy)
    threads = _replica_threads()
    assert len(threads) == strategy.num_replicas_in_sync
    del strategy
    gc.collect()
    for t in threads:
        t.join(mirrored_run.ABORT_GRACE_S)
    assert _replica_threads() == []

    strategy = tf.distribute.MirroredStrategy()
    _idents(strategy)
    reset_world()
    assert _replica_threads() == []
    # The strategy starts a new pool on its next run.
    assert len(set(_idents(strategy))) == strategy.num_replicas_in_sync


def test_an_idle_pool_keeps_nothing_of_its_last_run():
    """A custom loop's step (apply_gradients merges into the optimizer) leaves no
    reference behind in the replica threads: the dropped optimizer, model and strategy
    are freed, and the pool's threads end with them."""
    def train():
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
            optimizer = tf.keras.optimizers.Adam()

        def step(x):
            with tf.GradientTape() as g:
                loss = tf.reduce_sum(model(x))
            grads = g.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        for _ in range(2):
            strategy.run(step, args=(tf.ones((4, 3)),))
        assert len(_replica_threads()) == strategy.num_replicas_in_sync
        return [weakref.ref(o) for o in (optimizer, model, strategy)]

    dropped = train()
    threads = _replica_threads()
    gc.collect()
    assert [r() for r in dropped] == [None, None, None]
    for t in threads:
        t.join(mirrored_run.ABORT_GRACE_S)
    assert _replica_threads() == []


def test_a_failed_run_ends_the_pool_and_the_next_run_starts_a_new_one():
    strategy = tf.distribute.MirroredStrategy()
    before = set(_idents(strategy))

    def fn():
        if int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
            raise ValueError("fails")
        return 1.0

    try:
        strategy.run(fn)
    except ValueError:
        pass
    assert _replica_threads() == []
    after = set(_idents(strategy))
    assert len(after) == strategy.num_replicas_in_sync and not after & before


_FORKED = """
import os, sys
import simdist as tf
strategy = tf.distribute.MirroredStrategy()
run = lambda: [float(v) for v in strategy.experimental_local_results(strategy.run(
    lambda: tf.distribute.get_replica_context().all_reduce("sum", tf.constant(1.0))))]
run()
pid = os.fork()
if pid == 0:  # the child has none of the parent's threads: its first run starts a pool
    print("CHILD", run(), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("PARENT", run())
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_starts_its_own_pool():
    env = dict(os.environ, SIMDIST_MACHINE="default")
    proc = subprocess.run([sys.executable, "-W", "ignore", "-c", _FORKED], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "CHILD [4.0, 4.0, 4.0, 4.0]" in proc.stdout
    assert "PARENT [4.0, 4.0, 4.0, 4.0]" in proc.stdout
