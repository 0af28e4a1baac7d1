"""Asynchronous training on the simulated parameter-server cluster: workers on their own
clocks, stragglers, interleaved pulls and pushes, staleness, reproducibility, and TF's
handling of worker, ps and coordinator failures (cluster_coordinator.py's semantics:
a failed worker's function goes back to the queue and runs elsewhere; a ps failure is an
UnavailableError from join; the queue is cancelled)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from ps_helpers import cpu_cluster

import simdist as tf


def _training(num_workers=3, slowdown=None, jitter=0.0, seed=0, steps=12):
    """A tiny "training": each step pulls w, computes, pushes w += 1."""
    strategy, coord = cpu_cluster(num_workers, 2)
    sim = strategy.extended.simulation
    for worker, factor in (slowdown or {}).items():
        sim.set_worker_speed(worker, factor)
    sim.step_jitter_s = jitter
    sim.set_seed(seed)
    with strategy.scope():
        w = tf.Variable(np.zeros((64, 64), np.float32), name="w")
        b = tf.Variable(0.0, name="b")

    @tf.function
    def step():
        x = tf.matmul(w, w) + b  # reads (pulls) w and b
        w.assign_add(tf.ones_like(x))  # pushes w
        b.assign_add(1.0)
        return tf.reduce_sum(x)

    results = [coord.schedule(step) for _ in range(steps)]
    return strategy, coord, sim, (w, b), results


def test_every_write_makes_the_next_version_and_no_update_is_lost():
    _, coord, sim, (w, b), results = _training()
    coord.join()
    assert float(b.numpy()) == 12.0  # assign_add commutes: all 12 pushes landed
    np.testing.assert_array_equal(w.numpy(), np.full((64, 64), 12.0, np.float32))
    written = sorted(s["wrote"]["w:0"] for s in sim.steps)
    assert written == list(range(1, 13))
    for s in sim.steps:  # staleness: the writes of others between my last read and my write
        mine = [e for e in sim.events if e["step"] == s["step"] and e["var"] == "w:0"]
        push = next(e for e in mine if e["kind"] == "push")
        last_pull = [e for e in mine if e["kind"] == "pull"][-1]
        assert s["staleness"]["w:0"] == push["version"] - 1 - last_pull["version"]
        assert s["read"]["w:0"] == mine[0]["version"]


def test_one_worker_is_never_stale():
    _, coord, sim, _, _ = _training(num_workers=1, steps=5)
    coord.join()
    assert sim.staleness_summary() == {"writes": 10, "max": 0, "mean": 0.0}


def test_concurrent_workers_read_stale_values():
    _, coord, sim, _, _ = _training()
    coord.join()
    assert sim.staleness_summary()["max"] >= 1
    assert {s["worker"] for s in sim.steps} == {0, 1, 2}


def test_a_straggler_runs_fewer_steps_and_pushes_staler_updates():
    _, coord, sim, _, _ = _training(slowdown={2: 5.0}, steps=18)
    coord.join()
    per_worker = {i: [s for s in sim.steps if s["worker"] == i] for i in range(3)}
    assert len(per_worker[2]) < len(per_worker[0])
    assert len(per_worker[2]) < len(per_worker[1])
    mean = {i: np.mean([s["staleness"]["w:0"] for s in ss]) for i, ss in per_worker.items()}
    assert mean[2] > max(mean[0], mean[1])


def test_pulls_and_pushes_happen_in_simulated_time_order():
    _, coord, sim, _, _ = _training(slowdown={1: 2.5}, jitter=1e-4)
    coord.join()
    times = [e["start"] if e["kind"] == "pull" else e["end"] for e in sim.events]
    assert times == sorted(times)
    assert {e["kind"] for e in sim.events} == {"pull", "push"}


@given(st.integers(1, 4), st.floats(1.0, 6.0), st.integers(0, 3))
def test_same_seed_same_run(num_workers, slowdown, seed):
    def trace():
        _, coord, sim, _, results = _training(num_workers, {0: slowdown}, 2e-4, seed, 6)
        coord.join()
        return [(s["worker"], s["read"], s["wrote"]) for s in sim.steps], \
            [float(r.fetch()) for r in results]

    assert trace() == trace()


def test_done_is_false_until_the_workers_have_finished():
    _, coord, _, _, results = _training(steps=4)
    assert coord.done() is False
    coord.join()
    assert coord.done() is True
    assert all(r.fetch() is not None for r in results)


def test_a_failed_workers_function_runs_again_on_another_worker():
    _, coord, sim, (w, b), results = _training(steps=9)
    sim.fail_worker(1, at_time=1e-4)  # after it took its first function
    coord.join()
    failed = [s for s in sim.steps if s["status"] == "failed over"]
    assert [s["worker"] for s in failed] == [1]
    ok = [s for s in sim.steps if s["status"] == "ok"]
    assert sorted(s["closure"] for s in ok) == sorted({s["closure"] for s in sim.steps})
    assert failed[0]["closure"] in {s["closure"] for s in ok}
    assert all(s["worker"] != 1 for s in ok)
    assert [r.fetch() is not None for r in results] == [True] * 9
    # The failed attempt had pulled but not pushed: each function pushed b exactly once.
    assert float(b.numpy()) == 9.0


def test_a_recovered_worker_rebuilds_its_iterator_and_works_again():
    strategy, coord = cpu_cluster(2, 1)
    sim = strategy.extended.simulation
    with strategy.scope():
        v = tf.Variable(0.0)
    iterator = iter(coord.create_per_worker_dataset(lambda: tf.data.Dataset.range(100)))

    @tf.function
    def step(it):
        x = next(it)
        v.assign_add(1.0)
        return x

    first = [coord.schedule(step, args=(iterator,)) for _ in range(4)]
    coord.join()
    sim.fail_worker(1, at_time=sim.now(), recover_after=1e-3)
    later = [coord.schedule(step, args=(iterator,)) for _ in range(40)]
    coord.join()
    got = [int(r.fetch()) for r in first + later]
    ran_on = [s["worker"] for s in sim.steps if s["status"] == "ok"]
    assert ran_on.count(1) > 2  # it came back and took work again
    recovered = [s for s in sim.steps if s["worker"] == 1 and s["start"] > sim.now() - 1]
    assert recovered
    # After recovery worker 1 reads its dataset from the start again, as TF rebuilds it.
    assert got.count(0) == 3


def test_a_ps_failure_raises_unavailable_from_join_and_cancels_the_queue():
    _, coord, sim, _, results = _training(steps=8)
    sim.fail_ps(0, at_time=2e-4)
    with pytest.raises(tf.errors.UnavailableError, match="/job:ps"):
        coord.join()
    errors = [type(e).__name__ for e in (_error(r) for r in results) if e is not None]
    assert "CancelledError" in errors
    coord.join()  # the error was raised once, as TF


def _error(remote):
    try:
        remote.fetch()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return e
    return None


def test_a_coordinator_failure_stops_schedule_and_join():
    _, coord, sim, _, _ = _training(steps=1)
    sim.fail_coordinator(at_time=0.0)
    with pytest.raises(tf.errors.UnavailableError, match="coordinator"):
        coord.join()
    with pytest.raises(tf.errors.UnavailableError, match="coordinator"):
        coord.schedule(tf.function(lambda: 1.0))


def test_no_worker_left_raises_instead_of_waiting_forever():
    _, coord, sim, _, _ = _training(num_workers=2, steps=4)
    sim.fail_worker(0, at_time=0.0)
    sim.fail_worker(1, at_time=0.0)
    with pytest.raises(tf.errors.UnavailableError, match="Every worker is unavailable"):
        coord.join()


def test_knob_errors_say_what_is_wrong():
    _, _, sim, _, _ = _training(num_workers=2, steps=0)
    with pytest.raises(ValueError, match="no worker 5"):
        sim.fail_worker(5, at_time=0.0)
    with pytest.raises(ValueError, match="no ps 3"):
        sim.fail_ps(3, at_time=0.0)
    with pytest.raises(ValueError, match="slowdown must be > 0"):
        sim.set_worker_speed(0, 0)


def test_pulls_and_pushes_are_in_the_machines_trace():
    strategy, coord, sim, _, _ = _training(steps=3)
    coord.join()
    device = sim.workers[0].device
    spans = [e for e in device.trace.events if e.device == device.name
             and e.name.startswith(("pull ", "push "))]
    mine = [e for e in sim.events if e["worker"] == 0]
    assert len(spans) == len(mine) > 0
    assert {e.cat for e in spans} == {"transfer"}


def test_each_workers_batches_are_placed_on_that_worker():
    strategy, coord = cpu_cluster(3, 1)

    @tf.function
    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(
            lambda _: tf.data.Dataset.range(100).batch(2))

    iterator = iter(coord.create_per_worker_dataset(per_worker_dataset_fn))

    @tf.function
    def step(it):
        return next(it)

    remotes = [coord.schedule(step, args=(iterator,)) for _ in range(9)]
    coord.join()
    worker_of = {s["closure"]: s["worker"] for s in strategy.extended.simulation.steps}
    ran_on = [worker_of[r._closure.id] for r in remotes]
    assert len(set(ran_on)) == 3
    assert [r.get().device for r in remotes] == [
        f"/job:worker/replica:0/task:{w}/device:CPU:0" for w in ran_on]
