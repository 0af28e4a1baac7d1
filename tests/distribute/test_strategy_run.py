"""strategy.run / reduce / merge_call on simulated devices: examples and properties."""

import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simdist as tf

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py


def test_default_machine_mirrors_over_four_gpus():
    strategy = tf.distribute.MirroredStrategy()
    assert strategy.num_replicas_in_sync == 4
    assert strategy.extended.worker_devices == tuple(
        f"/job:localhost/replica:0/task:0/device:GPU:{i}" for i in range(4)
    )


def test_seed_custom_reduction_example_prints_tf_numbers(capsys):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        @tf.function
        def replica_fn():
            return tf.constant([1.0, 2.0, 3.0])

        per_replica_result = strategy.run(replica_fn)
        reduced_sum = strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_result)
        reduced_mean = strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_result)
        print(f"Sum: {reduced_sum}")
        print(f"Mean: {reduced_mean}")
    assert capsys.readouterr().out == "Sum: [ 4.  8. 12.]\nMean: [1. 2. 3.]\n"


def test_each_replica_runs_on_its_own_device():
    strategy = tf.distribute.MirroredStrategy()

    def fn():
        ctx = tf.distribute.get_replica_context()
        return tf.cast(ctx.replica_id_in_sync_group, tf.float32) * 10.0

    out = strategy.experimental_local_results(strategy.run(fn))
    assert [float(t) for t in out] == [0.0, 10.0, 20.0, 30.0]
    assert [t.device for t in out] == list(strategy.extended.worker_devices)


def test_merge_call_runs_once_with_per_replica_args():
    strategy = tf.distribute.MirroredStrategy()
    calls = []

    def merge_fn(strat, value):
        calls.append(value)
        assert tf.distribute.in_cross_replica_context()
        return strat.extended.reduce_to("SUM", value, destinations=value)

    def fn():
        ctx = tf.distribute.get_replica_context()
        x = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
        return ctx.merge_call(merge_fn, args=(x,))

    out = strategy.experimental_local_results(strategy.run(fn))
    assert len(calls) == 1
    assert isinstance(calls[0], tf.distribute.PerReplica)
    assert [float(t) for t in out] == [10.0] * 4
    assert [t.device for t in out] == list(strategy.extended.worker_devices)


def test_exception_in_one_replica_surfaces_with_replica_id_and_no_thread_leaks():
    strategy = tf.distribute.MirroredStrategy()
    before = threading.active_count()

    def fn():
        ctx = tf.distribute.get_replica_context()
        ctx.merge_call(lambda s: None)
        if int(ctx.replica_id_in_sync_group) == 2:
            raise KeyError("boom")
        return ctx.merge_call(lambda s: 1.0)

    with pytest.raises(KeyError) as info:
        strategy.run(fn)
    assert any("replica 2" in note for note in info.value.__notes__)
    assert threading.active_count() == before


def test_mismatched_merge_calls_are_an_error():
    strategy = tf.distribute.MirroredStrategy()

    def fn():
        ctx = tf.distribute.get_replica_context()
        if int(ctx.replica_id_in_sync_group) == 0:
            ctx.merge_call(lambda s: None)
        return 1.0

    with pytest.raises(RuntimeError, match="merge_call"):
        strategy.run(fn)


def test_scope_of_a_second_strategy_inside_the_first_raises():
    a = tf.distribute.MirroredStrategy()
    b = tf.distribute.MirroredStrategy()
    with a.scope():
        with a.scope():  # the same strategy again is fine
            assert tf.distribute.get_strategy() is a
        with pytest.raises(RuntimeError, match="Mixing different"):
            with b.scope():
                pass


def test_context_functions_in_and_out_of_scope():
    assert type(tf.distribute.get_strategy()).__name__ == "_DefaultDistributionStrategy"
    assert not tf.distribute.has_strategy()
    assert not tf.distribute.in_cross_replica_context()
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        assert tf.distribute.has_strategy()
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None

    def fn():
        assert not tf.distribute.in_cross_replica_context()
        return tf.distribute.get_strategy() is strategy

    assert all(strategy.experimental_local_results(strategy.run(fn)))


def test_experimental_set_strategy_and_clear():
    strategy = tf.distribute.MirroredStrategy()
    tf.distribute.experimental_set_strategy(strategy)
    assert tf.distribute.get_strategy() is strategy
    tf.distribute.experimental_set_strategy(None)
    assert not tf.distribute.has_strategy()


@given(values=st.lists(st.floats(-1e3, 1e3, width=32), min_size=4, max_size=4))
def test_mean_is_sum_over_replicas(values):
    strategy = tf.distribute.MirroredStrategy()
    pr = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(values[ctx.replica_id_in_sync_group]))
    total = strategy.reduce("SUM", pr, axis=None).numpy()
    mean = strategy.reduce("MEAN", pr, axis=None).numpy()
    assert mean == np.float32(total / np.float32(4))
    exact = np.sum(np.float32(values), dtype=np.float64)
    assert abs(float(total) - exact) <= 3 * np.finfo(np.float32).eps * np.abs(values).sum()


@given(values=st.lists(st.floats(-1e3, 1e3, width=32), min_size=4, max_size=4))
def test_all_reduce_gives_every_replica_the_same_bits(values):
    strategy = tf.distribute.MirroredStrategy()
    pr = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([values[ctx.replica_id_in_sync_group]]))

    def fn(x):
        return tf.distribute.get_replica_context().all_reduce("SUM", x)

    results = strategy.experimental_local_results(strategy.run(fn, (pr,)))
    outs = [t.numpy().tobytes() for t in results]
    assert len(set(outs)) == 1
    expected = np.float32(0)
    for v in values:
        expected = np.float32(expected + np.float32(v))
    assert np.frombuffer(outs[0], np.float32)[0] == pytest.approx(expected, rel=1e-6, abs=1e-3)


def _ragged(strategy):
    return strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.ones([ctx.replica_id_in_sync_group + 1, 2])
        * float(ctx.replica_id_in_sync_group + 1))


def test_reduce_mean_over_an_axis_weights_replicas_by_their_rows():
    strategy = tf.distribute.MirroredStrategy()
    # (1*1 + 2*2 + 3*3 + 4*4) / (1 + 2 + 3 + 4) rows = 3.0, not the mean of replica means.
    assert strategy.reduce("MEAN", _ragged(strategy), axis=0).numpy().tolist() == [3.0, 3.0]
    assert strategy.reduce("SUM", _ragged(strategy), axis=0).numpy().tolist() == [30.0, 30.0]
    with pytest.raises(TypeError, match="SUM or ReduceOp.MEAN"):
        strategy.reduce("MAX", _ragged(strategy), axis=0)


def test_min_max_gather_and_all_gather():
    strategy = tf.distribute.MirroredStrategy()

    def rid():
        return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)

    ids = strategy.run(rid)
    assert float(strategy.reduce("MAX", ids, axis=None)) == 3.0
    assert float(strategy.reduce(tf.distribute.ReduceOp.MIN, ids, axis=None)) == 0.0
    assert strategy.gather(_ragged(strategy), axis=0).shape == (10, 2)
    out = strategy.run(lambda: tf.distribute.get_replica_context().all_gather(
        tf.ones([2]) * rid(), axis=0))
    for t in strategy.experimental_local_results(out):
        assert t.numpy().tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError, match="not a valid ReduceOp"):
        strategy.reduce("PRODUCT", ids, axis=None)


def test_all_reduce_has_a_gradient_that_all_reduces():
    strategy = tf.distribute.MirroredStrategy()

    def step():
        ctx = tf.distribute.get_replica_context()
        x = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = ctx.all_reduce("SUM", x * x)
        return tape.gradient(y, x)

    grads = strategy.experimental_local_results(strategy.run(step))
    # d/dx_i of sum_j x_j^2, with the upstream gradient all-reduced: 4 * 2 * x_i.
    assert [float(g) for g in grads] == [8.0, 16.0, 24.0, 32.0]
