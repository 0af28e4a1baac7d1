"""simdist.faults: a worker killed at a step, a slowed link and a straggler in a simulated
cluster of three workers (one process), deterministic and visible in the trace."""

import json

import pytest

import simdist as tf
from simdist import faults
from simdist.hardware.machine import get_machine
from simdist.testing import reset_world

LOST = "/job:worker/replica:0/task:1"


@pytest.fixture
def strategy(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["host1:2222", "host2:2222", "host3:2222"]},
        "task": {"type": "worker", "index": 0}}))
    return tf.distribute.MultiWorkerMirroredStrategy()


def _step():
    ctx = tf.distribute.get_replica_context()
    x = tf.ones([256]) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    return ctx.all_reduce("SUM", x * x)


def _events(cat=None):
    return [e for e in get_machine().trace.events if cat is None or e.cat == cat]


def test_a_killed_worker_fails_the_step_on_every_other_with_unavailable(strategy):
    done = []
    with faults.inject(faults.KillWorker(task=1, step=3), timeout=5.0):
        with pytest.raises(tf.errors.UnavailableError, match=LOST):
            for i in range(6):
                strategy.run(_step)
                done.append(i)
    assert done == [0, 1, 2]
    killed = [e for e in _events("fault") if e.name == "worker 1 killed"]
    assert {e.device.split("/device:")[0] for e in killed} == {LOST}
    waits = [e for e in _events("fault") if e.name.startswith("waiting for lost task")]
    # Every surviving replica waits the (simulated) timeout, no longer.
    assert len(waits) == len(strategy.extended.worker_devices) - len(killed)
    assert {round(e.duration, 9) for e in waits} == {5.0}
    assert LOST not in {e.device.split("/device:")[0] for e in waits}


def test_fit_raises_unavailable_and_steps_count_batches(strategy):
    x = tf.ones([96, 2])
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        model.compile("sgd", "mse")
    seen = []
    cb = tf.keras.callbacks.LambdaCallback(on_batch_begin=lambda b, logs: seen.append(b))
    with faults.inject(faults.KillWorker(task=2, step=2)):
        with pytest.raises(tf.errors.UnavailableError, match="task:2"):
            model.fit(x, x[:, :1], batch_size=24, epochs=1, verbose=0, callbacks=[cb])
    assert seen == [0, 1, 2]  # the third batch began and failed in its collectives


def test_a_straggler_slows_its_ops_and_everyone_waits_for_it(strategy):
    strategy.run(_step)  # warm: variables, first ops
    get_machine().trace.clear()
    start = max(d.clock for d in strategy.extended._devices)
    strategy.run(_step)
    plain = max(d.clock for d in strategy.extended._devices) - start
    get_machine().trace.clear()
    with faults.inject(faults.Straggler(task=2, factor=3.0)):
        start = max(d.clock for d in strategy.extended._devices)
        strategy.run(_step)
        slow = max(d.clock for d in strategy.extended._devices) - start
    by_task = {}
    for e in _events("compute"):
        by_task.setdefault((e.name, faults.task_of(e.device)), []).append(e.duration)
    mul = {t: min(d) for (n, t), d in by_task.items() if n == "Mul"}
    assert mul[2] == pytest.approx(3 * mul[0]) and mul[1] == pytest.approx(mul[0])
    assert slow > plain
    assert any(e.name == "straggler x3" for e in _events("fault"))
    # Outside inject nothing is slow any more.
    assert {d.slowdown for d in strategy.extended._devices} == {1.0}


def test_a_slow_link_paces_the_collectives_that_cross_it(strategy):
    def reduce_time():
        start = max(d.clock for d in strategy.extended._devices)
        strategy.reduce("SUM", strategy.run(lambda: tf.ones([64])), axis=None)
        return max(d.clock for d in strategy.extended._devices) - start

    reduce_time()
    plain = reduce_time()
    with faults.inject(faults.SlowLink(0, 1, 4.0)):
        slowed = reduce_time()
    assert slowed > 2 * plain
    assert [e.name for e in _events("fault")][-1] == "slow link 0<->1 x4"


def test_the_same_faults_give_the_same_trace(strategy):
    def run():
        reset_world()
        s = tf.distribute.MultiWorkerMirroredStrategy()
        with faults.inject(faults.Straggler(1, 2.0), faults.SlowLink(1, 2, 3.0),
                           faults.KillWorker(0, 2)):
            with pytest.raises(tf.errors.UnavailableError):
                for _ in range(3):
                    s.run(_step)
        return [(e.name, e.cat, e.device, e.start, e.end) for e in get_machine().trace.events]

    assert run() == run()


@pytest.mark.parametrize("bad,error", [
    ((object(),), TypeError), ((faults.KillWorker(-1, 0),), ValueError),
    ((faults.Straggler(0, 0.5),), ValueError)])
def test_bad_faults_are_refused(bad, error):
    with pytest.raises(error):
        with faults.inject(*bad):
            pass


def test_a_collective_without_faults_loaded_does_not_load_them(monkeypatch):
    """run_collective looks faults up, not imports it: with it not loaded no link is slowed,
    and an all-reduce leaves the same values, clocks and events as with it loaded (none
    injected), without loading it."""
    import sys

    def run():
        reset_world()
        s = tf.distribute.MirroredStrategy()
        out = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
            "SUM", tf.ones([64]) * tf.cast(
                tf.distribute.get_replica_context().replica_id_in_sync_group + 1,
                tf.float32)))
        m = get_machine()
        return ([v.numpy().tobytes() for v in s.experimental_local_results(out)],
                sorted((n, d.clock) for n, d in m.devices.items()),
                [(e.name, e.cat, e.device, e.start, e.end) for e in m.trace.events])

    loaded = run()
    assert loaded[2]
    monkeypatch.delitem(sys.modules, "simdist.distribute.faults")
    monkeypatch.delattr(sys.modules["simdist.distribute"], "faults")   # an import would load it
    assert run() == loaded
    assert "simdist.distribute.faults" not in sys.modules
