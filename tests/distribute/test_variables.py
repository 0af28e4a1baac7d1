"""Distributed variables: creation in scope and TF's aggregation rules in each context."""

import pytest

import simdist as tf

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py


def _replica_value(scale=1.0):
    ctx = tf.distribute.get_replica_context()
    return (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0) * scale


def _locals(strategy, v):
    return [float(c.numpy()) for c in strategy.experimental_local_results(v)]


def test_variable_in_scope_is_mirrored_on_every_device():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(tf.random.normal([3]))
    assert type(v).__name__ == "MirroredVariable"
    comps = strategy.experimental_local_results(v)
    assert [c.device for c in comps] == list(strategy.extended.worker_devices)
    for c in comps[1:]:
        assert (c.numpy() == comps[0].numpy()).all()
    assert isinstance(v, tf.Variable)


def test_cross_replica_assign_updates_every_copy():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(1.0)
        v.assign(5.0)
    assert _locals(strategy, v) == [5.0] * 4


@pytest.mark.parametrize("aggregation, expected", [
    (tf.VariableAggregation.SUM, 1.0 + 1 + 2 + 3 + 4),
    (tf.VariableAggregation.MEAN, 1.0 + 2.5),
    (tf.VariableAggregation.ONLY_FIRST_REPLICA, 1.0 + 1),
])
def test_replica_assign_add_aggregates_then_updates_all(aggregation, expected):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(1.0, aggregation=aggregation)
    strategy.run(lambda: v.assign_add(_replica_value()))
    assert _locals(strategy, v) == [expected] * 4


def test_replica_assign_with_aggregation_none_writes_only_the_local_copy():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(0.0)
    strategy.run(lambda: v.assign(_replica_value()))
    assert _locals(strategy, v) == [1.0, 2.0, 3.0, 4.0]


def test_sum_of_a_non_distributed_value_is_refused():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
    with pytest.raises(ValueError, match="non-DistributedValues"):
        strategy.run(lambda: v.assign(1.0))


@pytest.mark.parametrize("aggregation, expected", [
    (tf.VariableAggregation.SUM, 10.0),
    (tf.VariableAggregation.MEAN, 2.5),
    (tf.VariableAggregation.ONLY_FIRST_REPLICA, 1.0),
])
def test_sync_on_read_aggregates_when_read_across_replicas(aggregation, expected):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=aggregation)
    assert type(v).__name__ == "SyncOnReadVariable"
    assert not v.trainable
    locals_ = strategy.run(lambda: v.assign(_replica_value()) and v.read_value())
    assert [float(t) for t in strategy.experimental_local_results(locals_)] == [1, 2, 3, 4]
    assert float(v.numpy()) == expected


def test_sync_on_read_sum_assign_in_cross_replica_divides_and_assign_add_refused():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
        v.assign(8.0)
        assert _locals(strategy, v) == [2.0] * 4
        assert float(v.numpy()) == 8.0
        with pytest.raises(ValueError, match="assign_add"):
            v.assign_add(1.0)


def test_synchronization_none_is_refused_under_a_strategy():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope(), pytest.raises(ValueError, match="NONE"):
        tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE)


def test_gradients_flow_to_the_local_copy_inside_run():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        w = tf.Variable(2.0)

    def step():
        x = _replica_value()
        with tf.GradientTape() as tape:
            y = w * w * x
        return tape.gradient(y, w)

    grads = strategy.experimental_local_results(strategy.run(step))
    assert [float(g) for g in grads] == [4.0, 8.0, 12.0, 16.0]
    assert [g.device for g in grads] == list(strategy.extended.worker_devices)


def test_one_device_strategy_keeps_plain_values():
    strategy = tf.distribute.OneDeviceStrategy("/gpu:1")
    with strategy.scope():
        v = tf.Variable(3.0)
    assert v.device.endswith("GPU:1")
    out = strategy.run(lambda: v * 2.0)
    assert isinstance(out, tf.Tensor) and float(out) == 6.0
    assert strategy.reduce("SUM", out, axis=None) is out


def test_central_storage_keeps_one_copy_on_the_parameter_device():
    strategy = tf.distribute.experimental.CentralStorageStrategy()
    with strategy.scope():
        v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    assert strategy.extended.parameter_devices == ("/device:CPU:0",)  # TF's _LOCAL_CPU
    assert len(strategy.experimental_local_results(v)) == 1
    strategy.run(lambda: v.assign_add(_replica_value()))
    assert float(v.numpy()) == 3.5


def test_a_mirrored_variable_frees_each_copy_once_when_dropped():
    # Each component holds its own bytes on its device; the MirroredVariable itself holds
    # none, so dropping it frees every copy exactly once (no device goes below where it was).
    import gc

    from simdist.hardware.machine import get_machine

    strategy = tf.distribute.MirroredStrategy()
    devices = [get_machine().devices[d] for d in strategy.extended.worker_devices]
    assert len(devices) > 1
    before = [d.memory_in_use for d in devices]
    with strategy.scope():
        v = tf.Variable(tf.zeros([1000]))
    gc.collect()
    assert [d.memory_in_use - b for d, b in zip(devices, before)] == [4000] * len(devices)
    del v
    gc.collect()
    assert [d.memory_in_use for d in devices] == before


@pytest.mark.parametrize("make, synchronization", [
    (lambda: tf.distribute.MirroredStrategy(), tf.VariableSynchronization.AUTO),
    (lambda: tf.distribute.MirroredStrategy(), tf.VariableSynchronization.ON_READ),
    (lambda: tf.distribute.experimental.CentralStorageStrategy(), tf.VariableSynchronization.AUTO),
    (lambda: tf.distribute.OneDeviceStrategy("/gpu:1"), tf.VariableSynchronization.AUTO),
])
def test_a_dropped_variable_frees_its_memory_at_once(make, synchronization):
    """Its memory comes back when the last reference goes, not at a later garbage collection
    (which the cycle component -> container made it wait for: the memory a run reported
    depended on when Python happened to collect)."""
    import gc

    from simdist.hardware import machine as machine_lib

    strategy = make()
    devices = machine_lib.get_machine().devices.values()
    gc.collect()
    before = [d.memory_in_use for d in devices]
    gc.disable()
    try:
        with strategy.scope():
            v = tf.Variable(tf.zeros([256]), synchronization=synchronization,
                            aggregation=tf.VariableAggregation.SUM)
        held = [d.memory_in_use for d in devices]
        del v
        after = [d.memory_in_use for d in devices]
    finally:
        gc.enable()
    assert sum(held) - sum(before) >= 1024   # at least one copy of 256 float32s
    assert after == before
