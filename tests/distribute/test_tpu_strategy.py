"""TPUStrategy on simulated Cloud TPUs, against TF's source and documentation:
tensorflow/python/distribute/tpu_strategy.py (run's eager check, input rules, logical
devices), cluster_resolver/tpu/tpu_cluster_resolver.py, tpu/tpu_strategy_util.py,
tpu/device_assignment.py, and TF's "Use TPUs" guide (site/en/guide/tpu.ipynb); on a machine
with no TPU, against what TF 2.21 did (fixtures/tf_tpu_absent.json, record_tf_tpu.py)."""

import json
import os

import numpy as np
import pytest

import simdist as tf
from simdist.testing import reset_world
from simdist.testing.log_capture import tf_logs

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_tpu_absent.json")) as _f:
    ABSENT = json.load(_f)["results"]


def _raises_as_recorded(fn, name):
    want = ABSENT[name]
    with pytest.raises(Exception) as info:
        fn()
    assert type(info.value).__name__ == want["error"]
    first = str(info.value).split(":")[0]
    assert want["message"].startswith(first), (str(info.value), want["message"])


def test_no_tpu_simulated_gives_tfs_errors():
    resolver_cls = tf.distribute.cluster_resolver.TPUClusterResolver
    _raises_as_recorded(lambda: resolver_cls(tpu=""), "resolver ''")
    _raises_as_recorded(resolver_cls, "resolver None")
    local = resolver_cls(tpu="local")
    assert local.master() == ABSENT["local master"]["value"]
    assert local.cluster_spec().as_dict() == ABSENT["local cluster_spec"]["value"]
    assert local.num_accelerators() == ABSENT["local num_accelerators"]["value"]
    _raises_as_recorded(lambda: tf.tpu.experimental.initialize_tpu_system(local),
                        "initialize_tpu_system")
    _raises_as_recorded(lambda: tf.distribute.TPUStrategy(local), "TPUStrategy")
    names = [d.name for d in tf.config.list_logical_devices("TPU")]
    assert names == ABSENT["list_logical_devices TPU"]["value"]


def connect(preset="tpu-v3-8", tpu="local"):
    reset_world(preset)
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu)
    tf.config.experimental_connect_to_cluster(resolver)
    topology = tf.tpu.experimental.initialize_tpu_system(resolver)
    return resolver, topology


@pytest.mark.parametrize("preset,cores,hosts,mesh", [
    # Cloud TPU docs: v2-8/v3-8 = 4 chips of 2 TensorCores on one host; v4-8 = 4 megacore
    # chips on one host; v4-32 = 16 chips (2x2x4) on 4 hosts. TF's mesh_shape is
    # [x, y, z, cores_per_chip] (tpu/topology.py).
    ("tpu-v2-8", 8, 1, [2, 2, 1, 2]), ("tpu-v3-8", 8, 1, [2, 2, 1, 2]),
    ("tpu-v4-8", 4, 1, [2, 2, 1, 1]), ("tpu-v4-32", 16, 4, [2, 2, 4, 1]),
])
def test_slices_connect_with_tfs_device_names(preset, cores, hosts, mesh):
    resolver, topology = connect(preset, tpu="my-tpu")
    names = [d.name for d in tf.config.list_logical_devices("TPU")]
    per_host = cores // hosts
    assert names == [f"/job:worker/replica:0/task:{t}/device:TPU:{i}"
                     for t in range(hosts) for i in range(per_host)]
    assert topology.mesh_shape.tolist() == mesh
    assert (topology.num_tasks, topology.num_tpus_per_task) == (hosts, per_host)
    assert resolver.num_accelerators() == {"TPU": per_host}
    assert len(resolver.cluster_spec().as_dict()["worker"]) == hosts
    strategy = tf.distribute.TPUStrategy(resolver)
    assert strategy.num_replicas_in_sync == cores
    assert strategy.extended.num_hosts == hosts


def test_tpus_are_listed_only_once_connected():
    reset_world("tpu-v3-8")
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
    assert tf.config.list_logical_devices("TPU") == []
    tf.config.experimental_connect_to_cluster(resolver)
    assert len(tf.config.list_logical_devices("TPU")) == 8
    with pytest.raises(ValueError, match="must be a `ClusterSpec` or a `ClusterResolver`"):
        tf.config.experimental_connect_to_cluster("grpc://10.0.0.2:8470")


def test_run_refuses_pure_eager_and_accepts_tf_function():
    resolver, _ = connect()
    strategy = tf.distribute.TPUStrategy(resolver)
    a = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with pytest.raises(NotImplementedError, match="does not support pure eager execution"):
        strategy.run(lambda x, y: tf.matmul(x, y), args=(a, b))
    z = strategy.run(tf.function(lambda x, y: tf.matmul(x, y)), args=(a, b))
    parts = strategy.experimental_local_results(z)
    assert len(parts) == 8
    assert {p.device for p in parts} == {f"/job:localhost/replica:0/task:0/device:TPU:{i}"
                                         for i in range(8)}
    np.testing.assert_allclose(parts[5].numpy(), [[22.0, 28.0], [49.0, 64.0]])

    @tf.function
    def step():  # a plain function run inside a tf.function is allowed
        ids = strategy.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
        return strategy.reduce("SUM", ids, axis=None)

    assert int(step()) == sum(range(8))


def test_a_tf_function_that_merges_runs_on_tpu_eagerly_or_nested():
    """tpu_strategy.py: an eager TPUStrategy.run wraps the replicated computation in a
    tf.function (tpu_run), and _TPUReplicaContext merges as the base ReplicaContext (no
    check of the graph, which MirroredStrategy's replicas make: function_distribute_cases).
    So a tf.function that all-reduces, passed to run or nested in the replica function, or
    an object whose __call__ is one, runs on a TPU (lesson 13's replica_sum)."""
    resolver, _ = connect()
    strategy = tf.distribute.TPUStrategy(resolver)

    @tf.function
    def replica_sum(x):
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("SUM", x * tf.cast(ctx.replica_id_in_sync_group, tf.float32))

    class Step:
        @tf.function
        def __call__(self, x):
            return replica_sum(x)

    @tf.function
    def outer(x):
        return strategy.run(lambda x: replica_sum(x + 1.0), args=(x,))

    for run in (lambda x: strategy.run(replica_sum, args=(x,)),
                lambda x: strategy.run(Step(), args=(x,)), outer):
        for x, want in ((1.0, 28.0), (2.0, 56.0)):
            parts = strategy.experimental_local_results(run(tf.constant(x)))
            assert [float(p) for p in parts] == [want + 28.0 * (run is outer)] * 8


def test_the_replica_function_is_traced_once_for_all_replicas():
    """tpu_strategy.py's _tpu_function_creator: tpu_function calls tpu.replicate(
    replicated_fn, replicate_inputs), which traces replicated_fn once; each replica's id
    is an int32 input (constant_op.constant(i) in replicate_inputs), so a Python print in
    the replica function runs once per trace while the values stay per replica."""
    resolver, _ = connect()
    strategy = tf.distribute.TPUStrategy(resolver)
    traced = []

    @tf.function
    def step(x):
        def fn(x):
            traced.append("fn")
            rid = tf.distribute.get_replica_context().replica_id_in_sync_group
            return x + tf.cast(rid, tf.float32)
        return strategy.run(fn, args=(x,))

    for x in (1.0, 2.0):
        parts = strategy.experimental_local_results(step(tf.constant(x)))
        assert [float(p) for p in parts] == [x + i for i in range(len(parts))]
    assert traced == ["fn"]


def test_gradients_are_all_reduced_over_the_torus():
    resolver, _ = connect()
    strategy = tf.distribute.TPUStrategy(resolver)
    with strategy.scope():
        v = tf.Variable(np.ones(64, np.float32))

    @tf.function
    def step():
        def fn():
            rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                          tf.float32)
            return tf.distribute.get_replica_context().all_reduce("SUM", v * rid)
        return strategy.run(fn)

    from simdist.hardware.machine import get_machine

    machine = get_machine()
    machine.trace.clear()
    out = strategy.experimental_local_results(step())
    for part in out:
        np.testing.assert_allclose(part.numpy(), np.full(64, 28.0))
    sends = [e for e in machine.trace.events if e.cat == "transfer"]
    assert sends and all(e.args["collective"] == "all_reduce/torus_2d" for e in sends)
    # the 2D all-reduce only ever sends to a direct neighbour (on-chip link or ICI)
    graph = machine.topology.graph
    assert all(graph.has_edge(e.device, e.args["dst_device"]) for e in sends)


def test_input_rules_are_tpu_extendeds():
    resolver, _ = connect()
    strategy = tf.distribute.TPUStrategy(resolver)
    ds = tf.data.Dataset.range(20).batch(8)
    options = tf.distribute.InputOptions(
        experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA)
    with pytest.raises(NotImplementedError, match="only supported in"):
        strategy.experimental_distribute_dataset(ds, options)
    with pytest.raises(NotImplementedError, match="only supported in"):
        strategy.distribute_datasets_from_function(lambda ctx: ds, options)
    # TPUExtended sets experimental_enable_get_next_as_optional = True, as MirroredExtended:
    # the partial last batch (4 of 8) is split the way MirroredStrategy splits it.
    assert strategy.extended.experimental_enable_get_next_as_optional
    mirrored = tf.distribute.MirroredStrategy(
        [d.name for d in tf.config.list_logical_devices("TPU")])

    def shapes(s):
        return [[tuple(p.shape) for p in s.experimental_local_results(batch)]
                for batch in s.experimental_distribute_dataset(ds)]

    assert shapes(strategy) == shapes(mirrored)
    assert shapes(strategy)[-1] == [(1,)] * 4 + [(0,)] * 4


def test_device_assignment_and_logical_devices():
    resolver, topology = connect()
    one = tf.tpu.experimental.DeviceAssignment.build(topology, num_replicas=1)
    assert (one.num_replicas, one.num_cores_per_replica) == (1, 1)
    assert tf.distribute.TPUStrategy(
        resolver, experimental_device_assignment=one).num_replicas_in_sync == 1
    two_cores = tf.tpu.experimental.DeviceAssignment.build(
        topology, computation_shape=[1, 1, 1, 2], num_replicas=4)
    assert two_cores.core_assignment.shape == (4, 2, 4)
    # both cores of a replica sit on one chip
    for r in range(4):
        assert two_cores.coordinates(r, 0)[:3] == two_cores.coordinates(r, 1)[:3]
    with pytest.raises(ValueError, match="requested 5 replicas but only 4 replicas"):
        tf.tpu.experimental.DeviceAssignment.build(topology, computation_shape=[1, 1, 1, 2],
                                                   num_replicas=5)
    strategy = tf.distribute.experimental.TPUStrategy(resolver, device_assignment=two_cores)
    assert strategy.num_replicas_in_sync == 4
    with pytest.raises(ValueError, match="only total of 2 logical devices in replica"):
        strategy.experimental_assign_to_logical_device(tf.constant(1.0), 2)
    with pytest.raises(ValueError, match="should be the same as the number of logical"):
        strategy.experimental_split_to_logical_devices(tf.zeros([4, 4]), [1, 1])
    with pytest.raises(ValueError, match="must be divisible by corresponding value"):
        strategy.experimental_split_to_logical_devices(tf.zeros([3, 4]), [2, 1])

    @tf.function
    def step(x):
        def fn(x):
            y = strategy.experimental_assign_to_logical_device(x * 2.0, 1)
            return strategy.experimental_split_to_logical_devices(y, [2, 1]), y.device
        return strategy.run(fn, args=(x,))

    # traced as TF traces them (sharding annotations), not run eagerly: a second call
    # runs the graph with its values
    with tf_logs(contains="could not trace") as fallbacks:
        values, devices = step(tf.ones([4, 4]))
        again, _ = step(tf.ones([4, 4]) * 3.0)
    assert fallbacks.messages == [] and step.experimental_get_tracing_count() == 1
    replica_cores = [two_cores.tpu_device(r, 1, job="localhost") for r in range(4)]
    # inside the replicated computation a graph tensor asks for no device (TF's
    # tpu.replicate builds it under no device scope: the replicas' '' regroup to one);
    # the values land on core 1
    assert devices == ""
    np.testing.assert_allclose(strategy.experimental_local_results(values)[3].numpy(), 2.0)
    assert [v.device for v in strategy.experimental_local_results(again)] == replica_cores
    np.testing.assert_allclose(strategy.experimental_local_results(again)[3].numpy(), 6.0)


def test_initialize_twice_warns_and_shutdown():
    resolver, _ = connect()
    with pytest.warns(UserWarning, match="has already been initialized"):
        tf.tpu.experimental.initialize_tpu_system(resolver)
    tf.tpu.experimental.shutdown_tpu_system(resolver)
    with pytest.warns(UserWarning, match="that has not been initialized"):
        tf.tpu.experimental.shutdown_tpu_system(resolver)


def test_keras_fit_with_steps_per_execution_on_tpu():
    resolver, _ = connect()
    strategy = tf.distribute.TPUStrategy(resolver)
    rng = np.random.RandomState(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = (x.sum(axis=1) > 0).astype(np.int64)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))])
        model.compile(optimizer="sgd", steps_per_execution=3, metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    ends = []
    cb = tf.keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: ends.append(b))
    hist = model.fit(x, y, batch_size=16, epochs=2, verbose=0, callbacks=[cb])
    assert ends == [2, 3, 2, 3]  # 4 steps an epoch: executions of 3 then 1
    assert int(model.optimizer.iterations.numpy()) == 8
    assert hist.history["loss"][1] < hist.history["loss"][0]
    with strategy.scope():
        eager = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(4,))])
        eager.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    with pytest.raises(NotImplementedError, match="pure eager"):
        eager.fit(x, np.zeros((64, 3), np.float32), batch_size=16, verbose=0)


def test_mixed_bfloat16_training_on_tpu():
    # TF's mixed precision guide: on TPUs use 'mixed_bfloat16'; no loss scaling is needed
    # (bfloat16 has float32's exponent range), so compile keeps the optimizer as it is.
    resolver, _ = connect("tpu-v4-8")
    strategy = tf.distribute.TPUStrategy(resolver)
    tf.keras.mixed_precision.set_global_policy("mixed_bfloat16")
    rng = np.random.RandomState(1)
    x = rng.normal(size=(32, 4)).astype(np.float32)
    y = x @ rng.normal(size=(4, 1)).astype(np.float32)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    assert type(model.optimizer).__name__ == "SGD"
    hist = model.fit(x, y, batch_size=8, epochs=3, verbose=0)
    assert hist.history["loss"][-1] < hist.history["loss"][0]
    assert model.predict(x[:4], verbose=0).dtype.name == "bfloat16"
    assert {w.dtype.name for w in model.weights} == {"float32"}
    # outputs are rounded to bfloat16: 8 significant bits, so x / 3 is not float32's
    out = model(tf.constant(x[:1])).numpy().astype(np.float64)
    assert np.all(out == out.astype(np.float32).astype(tf.bfloat16.as_numpy_dtype))
