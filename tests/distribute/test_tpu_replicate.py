"""TPUStrategy.run inside a tf.function: the replica function is traced once for all
replicas (simdist/distribute/tpu_replicate.py).

What TF does, from its source (TF 2.21):
- tensorflow/python/distribute/tpu_strategy.py, ``TPUExtended._tpu_function_creator``:
  ``tpu_function`` builds ``replicate_inputs`` as ``[constant_op.constant(i,
  dtype=dtypes.int32), select_replica(i, args), select_replica(i, kwargs)]`` per replica
  and calls ``tpu.replicate(replicated_fn, replicate_inputs, ...)``; ``replicated_fn(
  replica_id, ...)`` runs ``fn`` under ``_TPUReplicaContext(strategy,
  replica_id_in_sync_group=replica_id)``.
- tensorflow/python/tpu/tpu.py, ``split_compile_and_replicate``: each input is one
  ``tpu_replicated_input`` over the replicas' values (line 776), and the computation is
  called once: ``outputs = computation(*computation_inputs)`` (line 877).
So ``fn``'s Python runs once per trace, and its replica id is a symbolic int32 tensor, while
every replica computes with its own values. TPU runs cannot be recorded on this machine: the
values are checked against the same program under MirroredStrategy on 8 GPUs (which traces
once per replica, as TF records it: tf_function_distribute.json) and against TF's gradient
rule for an all-reduce.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from tpu_world import tpu_strategy

import simdist as tf
from simdist.testing import reset_world


def mirrored_strategy():
    reset_world("gpus=8,kind=A100")
    return tf.distribute.MirroredStrategy()


def train(strategy, steps=3):
    """A custom loop: a tape, SGD with momentum (its slots made in the first trace), a
    metric, an ONLY_FIRST_REPLICA counter, an all-reduce, an all-gather, a cond and a while
    loop on the replica id. Returns the Python traces of ``fn`` and the numbers."""
    traced = []
    with strategy.scope():
        w = tf.Variable(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32))
        opt = tf.keras.optimizers.SGD(0.01, momentum=0.9)
        mean = tf.keras.metrics.Mean()
        counter = tf.Variable(0.0, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)

    @tf.function
    def step(x):
        def fn(x):
            traced.append(1)
            ctx = tf.distribute.get_replica_context()
            rid = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
            with tf.GradientTape() as tape:
                y = tf.matmul(x + rid, w)
                loss = tf.reduce_mean(tf.square(y)) / strategy.num_replicas_in_sync
                if rid > 3.0:
                    loss = loss * 2.0
            opt.apply_gradients([(tape.gradient(loss, w), w)])
            mean.update_state(loss)
            counter.assign_add(1.0)
            total = tf.constant(0.0)
            for _ in tf.range(ctx.replica_id_in_sync_group):
                total += 1.0
            return (loss, ctx.all_reduce("SUM", y),
                    ctx.all_gather(tf.reshape(rid, [1]), axis=0), total)
        out = strategy.run(fn, args=(x,))
        return strategy.reduce("SUM", out[0], axis=None), out

    numbers = []
    for k in range(steps):
        total, out = step(tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4) / (k + 1)))
        numbers.append((float(total), [[p.numpy() for p in strategy.experimental_local_results(o)]
                                       for o in out]))
    numbers.append((w.numpy(), float(mean.result()), float(counter.numpy())))
    return traced, numbers


def test_a_custom_loop_traces_once_and_computes_what_mirrored_strategy_does():
    tpu_traced, tpu = train(tpu_strategy())
    gpu_traced, gpu = train(mirrored_strategy())
    # the first trace makes the optimizer's slots, so both trace twice (TF's rule); the
    # MirroredStrategy runs fn's Python once per replica per trace, the TPU once per trace
    assert len(tpu_traced) == 2 and len(gpu_traced) == 2 * 8
    for (t_total, t_parts), (g_total, g_parts) in zip(tpu[:-1], gpu[:-1]):
        np.testing.assert_allclose(t_total, g_total, rtol=1e-6)
        for t, g in zip(t_parts, g_parts):
            np.testing.assert_allclose(np.stack(t), np.stack(g), rtol=1e-6)
    # every replica computed its own values: replica i's gather and loop see i
    np.testing.assert_array_equal(np.stack(tpu[0][1][3]), np.arange(8.0))
    np.testing.assert_array_equal(tpu[0][1][2][5], np.arange(8.0))
    (t_w, t_mean, t_count), (g_w, g_mean, g_count) = tpu[-1], gpu[-1]
    np.testing.assert_allclose(t_w, g_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(t_mean, g_mean, rtol=1e-5)
    assert t_count == g_count == 3.0


def test_each_replicas_outputs_stay_on_its_core():
    strategy = tpu_strategy()

    @tf.function
    def step(x):
        def fn(x):
            rid = tf.distribute.get_replica_context().replica_id_in_sync_group
            assert tf.is_tensor(rid) and rid.dtype == tf.int32   # TF: a symbolic input
            y = x * tf.cast(rid, tf.float32)
            return y, tf.distribute.get_replica_context().all_reduce("MEAN", y)
        return strategy.run(fn, args=(x,))

    y, mean = step(tf.constant([1.0, 2.0]))
    cores = [f"/job:localhost/replica:0/task:0/device:TPU:{i}" for i in range(8)]
    for value in (y, mean):
        assert [p.device for p in strategy.experimental_local_results(value)] == cores
    for i, part in enumerate(strategy.experimental_local_results(y)):
        np.testing.assert_array_equal(part.numpy(), [1.0 * i, 2.0 * i])
    for part in strategy.experimental_local_results(mean):
        np.testing.assert_allclose(part.numpy(), [3.5, 7.0])


@settings(max_examples=3, deadline=None)
@given(st.lists(st.floats(-4, 4, width=32), min_size=3, max_size=3))
def test_a_gradient_through_an_all_reduce_is_each_replicas(values):
    """The gradient all-reduces the incoming gradients (a node that merges while it is
    traced: its copies run together). TF's all_reduce gradient is the all-reduce of the
    incoming gradients, so replica i's gradient of sum(all_reduce(x * (i + 1))**2) is
    8 * 2 * 36 * x * (i + 1) (what MirroredStrategy gives too)."""
    strategy = tpu_strategy()

    def fn(x):
        ctx = tf.distribute.get_replica_context()
        scale = tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.square(ctx.all_reduce("SUM", x * scale)))
        return tape.gradient(loss, x)

    @tf.function   # (not a lambda: TF's TPU cluster is named after the function)
    def step(x):
        return strategy.run(fn, args=(x,))

    got = [p.numpy() for p in strategy.experimental_local_results(step(tf.constant(values)))]
    want = [8 * 2 * 36.0 * (i + 1) * np.asarray(values, np.float32) for i in range(8)]
    np.testing.assert_allclose(np.stack(got), np.stack(want), rtol=1e-5, atol=1e-3)


def test_an_eager_run_of_a_tf_function_is_one_cached_replicated_trace():
    """tpu_strategy.py, TPUExtended.tpu_run -> _tpu_function_creator: called eagerly, the
    replicated computation is wrapped in def_function.function and cached per ``fn``
    (``self._tpu_function_cache[fn]``), so ``fn``'s Python runs once for all replicas and
    a second call with the same signature does not trace again."""
    strategy = tpu_strategy()
    traced = []

    @tf.function
    def fn(x):
        traced.append(1)
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        return x * tf.cast(rid, tf.float32)

    @tf.function
    def replica_sum(x):   # lesson 13's: it merges
        traced.append(2)
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("SUM", x * tf.cast(ctx.replica_id_in_sync_group, tf.float32))

    for x in (1.0, 3.0):
        parts = strategy.experimental_local_results(strategy.run(fn, args=(tf.constant(x),)))
        assert [float(p) for p in parts] == [x * i for i in range(8)]
        parts = strategy.experimental_local_results(
            strategy.run(replica_sum, args=(tf.constant(x),)))
        assert [float(p) for p in parts] == [x * 28.0] * 8
    assert traced == [1, 2]


def test_a_nested_tf_function_is_traced_apart_once_and_runs_as_each_replica():
    """A tf.function called in the replica function is traced into a graph of its own once
    (TF: a (Stateful)PartitionedCall in the replicated computation, as in any caller), so
    its Python runs once even when the caller traces again; each replica's call of it
    reads its own replica id and its own copy of a mirrored variable."""
    strategy = tpu_strategy()
    with strategy.scope():
        v = tf.Variable(2.0)
    traced = []

    @tf.function
    def scaled(x):
        traced.append(1)
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        return x * v + tf.cast(rid, tf.float32)

    def fn(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = scaled(x)
        return y, tape.gradient(y, x)

    @tf.function   # (not a lambda: TF's TPU cluster is named after the function)
    def step(x):
        return strategy.run(fn, args=(x,))

    for x in (1.0, 5.0, [1.0, 2.0]):   # the list: the caller traces again
        y, grad = step(tf.constant(x))
        for i, (yi, gi) in enumerate(zip(*map(strategy.experimental_local_results, (y, grad)))):
            np.testing.assert_allclose(yi.numpy(), np.asarray(x) * 2.0 + i)
            np.testing.assert_allclose(gi.numpy(), np.full_like(np.asarray(x), 2.0))
    assert len(traced) == 2   # one trace per its own input signature
    assert scaled.experimental_get_tracing_count() == 2
    graph = step.get_concrete_function(tf.constant(1.0)).graph
    calls = [n.name for n in graph.nodes if "PartitionedCall" in n.name]
    assert len(calls) == 8 and calls[0] == "StatefulPartitionedCall"


def test_a_nested_tf_function_that_merges_is_traced_once_and_merges_when_it_runs():
    """TF builds the all-reduce into the nested function's graph (TPUExtended._reduce_to:
    tpu_ops.cross_replica_sum inside the TPU context), so the function is traced once for
    its signature, nested in a caller's replicated computation or run by an eager
    strategy.run (tpu_function calls it nested), and every replica's call all-reduces."""
    strategy = tpu_strategy()
    traced = []

    @tf.function
    def replica_sum(x):
        traced.append(1)
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("SUM", x * tf.cast(ctx.replica_id_in_sync_group, tf.float32))

    @tf.function   # (not a lambda: TF's TPU cluster is named after the function)
    def outer(x):
        return strategy.run(lambda x: replica_sum(x + 1.0), args=(x,))

    for x in (1.0, 2.0):
        for run, want in ((outer, (x + 1.0) * 28.0),
                          (lambda x: strategy.run(replica_sum, args=(x,)), x * 28.0)):
            parts = strategy.experimental_local_results(run(tf.constant(x)))
            assert [float(p) for p in parts] == [want] * 8
    assert traced == [1]


def test_a_tf_function_run_from_an_eager_fallback_does_not_deadlock(monkeypatch):
    """A tf.function that falls back to running eagerly (simdist cannot trace something in
    it; TF would trace) calls strategy.run of a replica tf.function that all-reduces: the
    replica function is traced once for all replicas, as from eager code. It ran in a
    thread per replica sharing one trace, and the tracing replica waited at the
    all-reduce's merge_call for replicas waiting for its trace: a deadlock."""
    import threading

    from simdist.framework import func_graph

    strategy = tpu_strategy()

    @tf.function
    def replica_fn(x):
        return tf.distribute.get_replica_context().all_reduce("SUM", x)

    @tf.function
    def outer(x):
        if func_graph.current() is not None:   # a stand-in for an untraceable construct
            raise func_graph.NotTraceable("a test's untraceable construct")
        return strategy.run(replica_fn, args=(x,))

    got = {}
    worker = threading.Thread(target=lambda: got.update(
        out=[strategy.experimental_local_results(outer(tf.constant(v))) for v in (1.0, 2.0)]),
        daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "strategy.run from an eager fallback deadlocked"
    assert [[float(p) for p in parts] for parts in got["out"]] == [[8.0] * 8, [16.0] * 8]


def test_an_all_reduce_of_a_tensor_every_replica_received_sums_it_over_the_replicas():
    """TF's TPUExtended._reduce_to inside the replicated computation: a tensor is each
    replica's value, summed by cross_replica_sum (MEAN scaled by 1/n first), whatever it
    was made from. An eager strategy.run of a tf.function that all-reduces its argument
    gave each replica's 1.0 back (summing nothing) after the one-trace change."""
    strategy = tpu_strategy()

    @tf.function
    def replica_fn(x):
        ctx = tf.distribute.get_replica_context()
        return ctx.all_reduce("SUM", x), ctx.all_reduce("MEAN", x)

    total, mean = strategy.run(replica_fn, args=(tf.constant(1.5),))
    assert [float(p) for p in strategy.experimental_local_results(total)] == [12.0] * 8
    assert [float(p) for p in strategy.experimental_local_results(mean)] == [1.5] * 8
