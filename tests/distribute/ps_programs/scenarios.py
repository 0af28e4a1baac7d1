"""Small ParameterServerStrategy programs, each run under TensorFlow (by
record_tf_parameter_server.py, one process each) and under simdist (by the tests, in
process); each returns what it saw as JSON-able data.

Every program builds the in-process cluster exactly as TF's parameter-server tutorial does
(create_in_process_cluster: tf.distribute.Server per task, a ConfigProto with
inter_op_parallelism_threads, SimpleClusterResolver(cluster_spec, rpc_layer="grpc")).
Ports are free ports of 127.0.0.1; they are masked in the results.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import os
import socket
import sys

import numpy as np

tf = importlib.import_module(os.environ.get("TF_MODULE", "tensorflow"))


def _port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def create_in_process_cluster(num_workers, num_ps):
    """The tutorial's function (portpicker replaced by a free port of 127.0.0.1)."""
    worker_ports = [_port() for _ in range(num_workers)]
    ps_ports = [_port() for _ in range(num_ps)]
    cluster_dict = {}
    cluster_dict["worker"] = ["localhost:%s" % port for port in worker_ports]
    if num_ps > 0:
        cluster_dict["ps"] = ["localhost:%s" % port for port in ps_ports]
    cluster_spec = tf.train.ClusterSpec(cluster_dict)
    worker_config = tf.compat.v1.ConfigProto()
    if multiprocessing.cpu_count() < num_workers + 1:
        worker_config.inter_op_parallelism_threads = num_workers + 1
    servers = []
    for i in range(num_workers):
        servers.append(tf.distribute.Server(cluster_spec, job_name="worker", task_index=i,
                                            config=worker_config, protocol="grpc"))
    for i in range(num_ps):
        servers.append(tf.distribute.Server(cluster_spec, job_name="ps", task_index=i,
                                            protocol="grpc"))
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(cluster_spec,
                                                                     rpc_layer="grpc")
    return resolver, servers


def outcome(fn):
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    return {"value": value}


def _mask(text: str) -> str:
    import re

    return re.sub(r":\d{2,5}\b", ":PORT", text)


def server():
    resolver, servers = create_in_process_cluster(2, 1)
    spec = resolver.cluster_spec()
    config = tf.compat.v1.ConfigProto()
    config.inter_op_parallelism_threads = 3
    w0 = servers[0]
    return {
        "target": _mask(w0.target),
        "server_def job/task/protocol": [w0.server_def.job_name, w0.server_def.task_index,
                                         w0.server_def.protocol],
        "worker inter_op": w0.server_def.default_session_config.inter_op_parallelism_threads,
        "ps inter_op": servers[2].server_def.default_session_config.inter_op_parallelism_threads,
        "config inter_op": config.inter_op_parallelism_threads,
        "config intra_op default": config.intra_op_parallelism_threads,
        "config allow_soft_placement default": config.allow_soft_placement,
        "ConfigProto(inter_op_parallelism_threads=2)": tf.compat.v1.ConfigProto(
            inter_op_parallelism_threads=2).inter_op_parallelism_threads,
        "ConfigProto(foo=1)": outcome(lambda: tf.compat.v1.ConfigProto(foo=1) and None),
        "resolver": [resolver.task_type, resolver.task_id, resolver.rpc_layer,
                     resolver.master()],
        "cluster jobs": sorted(spec.jobs),
        "bad job": outcome(lambda: tf.distribute.Server(spec, job_name="chief", task_index=0,
                                                        start=False) and None),
        "bad task": outcome(lambda: tf.distribute.Server(spec, job_name="worker",
                                                         task_index=7, start=False) and None),
        "no job name": outcome(lambda: tf.distribute.Server(spec, start=False) and None),
    }


def strategy_errors():
    def make(cluster):
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(cluster), rpc_layer="grpc")
        return tf.distribute.ParameterServerStrategy(resolver) and None

    return {
        "no ps": outcome(lambda: make({"worker": ["localhost:1"]})),
        "no worker": outcome(lambda: make({"ps": ["localhost:1"]})),
        "empty": outcome(lambda: make({})),
        "bad job": outcome(lambda: make({"worker": ["localhost:1"], "ps": ["localhost:2"],
                                         "trainer": ["localhost:3"]})),
        "coordinator of MirroredStrategy": outcome(
            lambda: tf.distribute.coordinator.ClusterCoordinator(
                tf.distribute.MirroredStrategy()) and None),
    }


def placement():
    resolver, _ = create_in_process_cluster(2, 2)
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    out = {"num_replicas_in_sync": strategy.num_replicas_in_sync,
           "parameter_devices": list(strategy.extended.parameter_devices),
           "worker_devices": list(strategy.extended.worker_devices),
           "experimental is the same": tf.distribute.experimental.ParameterServerStrategy
           is tf.distribute.ParameterServerStrategy}
    with strategy.scope():
        vs = [tf.Variable(float(i), name=f"v{i}") for i in range(5)]
        model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    out["devices"] = [v.device for v in vs]
    out["names"] = [v.name for v in vs]
    out["dense devices"] = [w.device for w in model.weights]
    out["is tf.Variable"] = isinstance(vs[0], tf.Variable)
    out["coordinator is a singleton"] = (
        tf.distribute.coordinator.ClusterCoordinator(strategy)
        is tf.distribute.experimental.coordinator.ClusterCoordinator(strategy))
    out["run on the coordinator"] = outcome(
        lambda: float(strategy.run(lambda: vs[1] + 1.0)))
    return out


def partitioned():
    resolver, _ = create_in_process_cluster(1, 2)
    strategy = tf.distribute.ParameterServerStrategy(
        resolver, tf.distribute.experimental.partitioners.FixedShardsPartitioner(3))
    with strategy.scope():
        w = tf.Variable(np.arange(20, dtype=np.float32).reshape(10, 2), name="w")
        s = tf.Variable(1.0, name="s")
        b = tf.Variable(np.ones(2, np.float32), name="b")
        init = tf.Variable(tf.keras.initializers.Ones()(shape=(4, 3)), name="init")
    out = {}
    for label, v in (("w", w), ("s", s), ("b", b), ("init", init)):
        shards = getattr(v, "variables", [v])
        out[label] = {"name": v.name, "type": type(v).__name__, "shape": v.shape.as_list(),
                       "shards": [[x.name, x.shape.as_list(), x.device] for x in shards]}
    out["w read"] = tf.convert_to_tensor(w).numpy().tolist()
    strategy2_resolver = resolver
    bad = tf.distribute.ParameterServerStrategy(strategy2_resolver, lambda shape, dtype: [1, 2])

    def make_bad():
        with bad.scope():
            tf.Variable(np.ones((4, 2), np.float32))

    out["bad partitioner"] = outcome(make_bad)
    tutorial = tf.distribute.ParameterServerStrategy(
        resolver, tf.distribute.experimental.partitioners.MinSizePartitioner(
            min_shard_bytes=(256 << 10), max_shards=2))
    with tutorial.scope():
        emb = tf.keras.layers.Embedding(input_dim=8, output_dim=16384)
        emb.build((None, 3))
    out["tutorial embedding"] = [[x.name, x.shape.as_list(), x.device] for x in emb.weights]
    return out


def coordinator():
    resolver, _ = create_in_process_cluster(1, 1)
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    coord = tf.distribute.coordinator.ClusterCoordinator(strategy)
    with strategy.scope():
        v = tf.Variable(0.0, name="v")
    out = {}

    @tf.function
    def add(x):
        v.assign_add(x)
        return v.read_value() * 2.0

    rvs = [coord.schedule(add, args=(1.0,)) for _ in range(3)]
    coord.join()
    out["fetch"] = [float(r.fetch()) for r in rvs]
    out["get type"] = type(rvs[0].get()).__name__
    out["fetch type"] = type(rvs[0].fetch()).__name__
    out["remote value type"] = [type(rvs[0]).__name__,
                                isinstance(rvs[0], tf.distribute.coordinator.RemoteValue)]
    out["done"] = coord.done()
    out["coordinator fetch"] = {k: float(x) for k, x in coord.fetch(
        {"a": rvs[0], "b": 3.0}).items()}
    out["v after join"] = float(v.numpy())

    @tf.function
    def pair(x):
        return {"x": x + 1.0, "y": (x * 2.0, x)}

    got = coord.schedule(pair, kwargs={"x": tf.constant(2.0)}).fetch()
    out["structured fetch"] = {"x": float(got["x"]), "y": [float(a) for a in got["y"]]}
    out["no return"] = outcome(lambda: coord.schedule(tf.function(lambda: None)).fetch())
    out["python function"] = outcome(lambda: coord.schedule(lambda: 1.0) and None)
    out["remote value input"] = outcome(lambda: coord.schedule(add, args=(rvs[0],)) and None)

    @tf.function
    def run_and_reduce(x):
        per_replica = strategy.run(lambda a: a * 3.0 + v, args=(x,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)

    out["run and reduce"] = float(coord.schedule(run_and_reduce, args=(2.0,)).fetch())

    @tf.function
    def failing(x):
        tf.debugging.Assert(x < 0.0, [x])
        return x

    bad = coord.schedule(failing, args=(1.0,))
    later = [coord.schedule(add, args=(1.0,)) for _ in range(2)]
    out["join after a failure"] = outcome(coord.join)
    out["failed fetch"] = outcome(bad.fetch)["error"]
    out["cancelled fetch"] = [outcome(r.fetch) for r in later]
    out["join again"] = outcome(coord.join)
    return out


def datasets():
    resolver, _ = create_in_process_cluster(1, 1)
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    coord = tf.distribute.coordinator.ClusterCoordinator(strategy)
    out = {}

    def dataset_fn():
        return tf.data.Dataset.range(6).batch(2)

    per_worker = coord.create_per_worker_dataset(dataset_fn)
    out["per worker dataset type"] = type(per_worker).__name__
    iterator = iter(per_worker)
    out["iterator type"] = [type(iterator).__name__,
                            isinstance(iterator, tf.distribute.coordinator.PerWorkerValue)]

    @tf.function
    def take(it):
        return next(it)

    rvs = [coord.schedule(take, args=(iterator,)) for _ in range(3)]
    coord.join()
    out["batches"] = [r.fetch().tolist() for r in rvs]
    end = coord.schedule(take, args=(iterator,))
    out["past the end: join"] = outcome(coord.join)
    out["past the end: fetch"] = outcome(end.fetch)["error"]
    out["next on the coordinator"] = outcome(lambda: next(iterator))

    @tf.function
    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(
            lambda ctx: tf.data.Dataset.from_tensor_slices(
                np.arange(8, dtype=np.float32)).batch(4))

    distributed = coord.create_per_worker_dataset(per_worker_dataset_fn)
    it2 = iter(distributed)

    @tf.function
    def step(it):
        batch = next(it)
        return strategy.reduce(tf.distribute.ReduceOp.SUM,
                               strategy.run(lambda b: tf.reduce_sum(b), args=(batch,)),
                               axis=None)

    out["distributed steps"] = [float(coord.schedule(step, args=(it2,)).fetch())
                                for _ in range(2)]

    @tf.function
    def make_iter_inside():
        return iter(per_worker)

    out["iter inside tf.function"] = outcome(lambda: make_iter_inside() and None)
    return out


def tracing():
    """How TF traces under ParameterServerStrategy, on two workers: a scheduled tf.function
    is traced once, on the coordinator, when it is scheduled (print and Python side effects
    once per trace; tf.print at every execution, on the workers; an iterator argument is
    each worker's own), a per-worker dataset function (a plain Python one too) once for all
    workers, a trace that raised is not counted, a function
    called on the coordinator in the strategy's scope once per signature."""
    import contextlib
    import io
    import tempfile

    resolver, _ = create_in_process_cluster(2, 1)
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    coord = tf.distribute.coordinator.ClusterCoordinator(strategy)
    with strategy.scope():
        v = tf.Variable(0.0, name="v")
    log, out = [], {}
    printed = io.StringIO()
    tf_printed = os.path.join(tempfile.mkdtemp(), "tf_print.txt")

    def dataset_fn(ctx):
        log.append("dataset_fn")
        return tf.data.Dataset.range(100).map(lambda x: tf.cast(x, tf.float32)).batch(2)

    @tf.function
    def per_worker_dataset_fn():
        log.append("per_worker_dataset_fn")
        return strategy.distribute_datasets_from_function(dataset_fn)

    per_worker = coord.create_per_worker_dataset(per_worker_dataset_fn)
    out["log after create_per_worker_dataset"] = list(log)
    iterator = iter(per_worker)
    out["log after iter"] = list(log)
    out["dataset function tracing count"] = \
        per_worker_dataset_fn.experimental_get_tracing_count()

    def plain_dataset_fn():   # not a tf.function: TF wraps it in one and traces it once
        log.append("plain_dataset_fn")
        return tf.data.Dataset.range(4)

    iter(coord.create_per_worker_dataset(plain_dataset_fn))
    out["log after a plain dataset_fn"] = list(log)
    del log[:]

    @tf.function
    def step(it, x):
        print("tracing step")
        batch = next(it)

        def replica_fn(b, x):
            print("tracing replica_fn")
            log.append("replica_fn")
            v.assign_add(1.0)
            tf.print("step", x, output_stream="file://" + tf_printed)
            return x * 2.0 + 0.0 * tf.reduce_sum(b)

        r = strategy.run(replica_fn, args=(batch, x))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, r, axis=None)

    with contextlib.redirect_stdout(printed):
        rvs = [coord.schedule(step, args=(iterator, tf.constant(float(i))))
               for i in range(4)]
        out["printed when scheduled"] = printed.getvalue()
        out["tracing count when scheduled"] = step.experimental_get_tracing_count()
        coord.join()
        more = coord.schedule(step, args=(iterator, tf.constant(4.0)))
        coord.join()
    out["printed"] = printed.getvalue()
    out["log"] = list(log)
    out["values"] = [float(r.fetch()) for r in rvs + [more]]
    out["value type"] = type(rvs[0]).__name__
    out["v"] = float(v.numpy())
    out["tracing count"] = step.experimental_get_tracing_count()
    with open(tf_printed) as f:
        out["tf.print lines"] = sorted(f.read().splitlines())
    with contextlib.redirect_stdout(printed):   # traced when scheduled: schedule raises
        out["a new dtype: schedule"] = outcome(lambda: coord.schedule(
            step, args=(iterator, tf.constant(1, tf.int32))) and None).get("error")
    out["tracing count after a new dtype"] = step.experimental_get_tracing_count()

    @tf.function
    def on_coordinator(x):
        print("tracing on_coordinator")
        v.assign_add(x)
        return v.read_value() * 1.0

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), strategy.scope():
        out["on the coordinator"] = [float(on_coordinator(tf.constant(1.0)))
                                     for _ in range(3)]
    out["on the coordinator: printed"] = printed.getvalue()
    out["on the coordinator: tracing count"] = on_coordinator.experimental_get_tracing_count()
    return out


def custom_loop():
    """The tutorial's loop on one worker (deterministic), with constant initial weights."""
    resolver, _ = create_in_process_cluster(1, 2)
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    coord = tf.distribute.coordinator.ClusterCoordinator(strategy)
    rng = np.random.RandomState(0)
    x = rng.uniform(size=(32, 3)).astype(np.float32)
    y = (x.sum(axis=1, keepdims=True) > 1.5).astype(np.float32)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(
            1, activation="sigmoid", input_shape=(3,),
            kernel_initializer=tf.keras.initializers.Constant(0.1),
            bias_initializer="zeros")])
        optimizer = tf.keras.optimizers.legacy.SGD(learning_rate=0.5)
        accuracy = tf.keras.metrics.Accuracy()

    @tf.function
    def step_fn(iterator):
        def replica_fn(batch_data, labels):
            with tf.GradientTape() as tape:
                pred = model(batch_data, training=True)
                per_example_loss = tf.keras.losses.BinaryCrossentropy(
                    reduction=tf.keras.losses.Reduction.NONE)(labels, pred)
                loss = tf.nn.compute_average_loss(per_example_loss)
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            actual_pred = tf.cast(tf.greater(pred, 0.5), tf.int64)
            accuracy.update_state(tf.cast(labels, tf.int64), actual_pred)
            return loss

        batch_data, labels = next(iterator)
        losses = strategy.run(replica_fn, args=(batch_data, labels))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    @tf.function
    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(
            lambda _: tf.data.Dataset.from_tensor_slices((x, y)).batch(8).repeat())

    it = iter(coord.create_per_worker_dataset(per_worker_dataset_fn))
    out = {"epochs": []}
    for _ in range(2):
        accuracy.reset_states()
        losses = [coord.schedule(step_fn, args=(it,)) for _ in range(4)]
        coord.join()
        out["epochs"].append({"losses": [float(r.fetch()) for r in losses],
                              "accuracy": float(accuracy.result().numpy())})
    out["weights"] = [w.numpy().tolist() for w in model.weights]
    out["iterations"] = int(optimizer.iterations.numpy())
    out["accuracy variable devices"] = [w.device for w in accuracy.variables]
    return out


def sharded_embedding_loop():
    """The tutorial's second model (a sharded embedding, RMSprop, an L2 penalty) on one
    worker with fixed data and initial values: deterministic, so TF's numbers replay."""
    resolver, _ = create_in_process_cluster(1, 2)
    strategy = tf.distribute.ParameterServerStrategy(
        resolver, tf.distribute.experimental.partitioners.MinSizePartitioner(
            min_shard_bytes=(256 << 10), max_shards=2))
    coord = tf.distribute.coordinator.ClusterCoordinator(strategy)
    rng = np.random.RandomState(3)
    ids = np.stack([rng.choice(np.arange(1, 8), 3, replace=False) for _ in range(64)])
    labels = (ids == 1).any(axis=1, keepdims=True).astype(np.int64)
    emb_init = rng.uniform(-0.05, 0.05, size=(8, 16384)).astype(np.float32)
    with strategy.scope():
        model_input = tf.keras.layers.Input(shape=(3,), dtype=tf.int64, name="model_input")
        emb_layer = tf.keras.layers.Embedding(
            input_dim=8, output_dim=16384,
            embeddings_initializer=tf.keras.initializers.Constant(emb_init))
        emb_output = tf.keras.layers.GlobalAveragePooling1D()(emb_layer(model_input))
        dense_output = tf.keras.layers.Dense(
            units=1, activation="sigmoid",
            kernel_initializer=tf.keras.initializers.Constant(0.01),
            kernel_regularizer=tf.keras.regularizers.L2(1e-4))(emb_output)
        model = tf.keras.Model({"features": model_input}, dense_output)
        optimizer = tf.keras.optimizers.legacy.RMSprop(learning_rate=0.1)
        accuracy = tf.keras.metrics.Accuracy()

    @tf.function
    def step_fn(iterator):
        def replica_fn(batch_data, labels):
            with tf.GradientTape() as tape:
                pred = model(batch_data, training=True)
                per_example_loss = tf.keras.losses.BinaryCrossentropy(
                    reduction=tf.keras.losses.Reduction.NONE)(labels, pred)
                loss = tf.nn.compute_average_loss(per_example_loss)
                model_losses = model.losses
                if model_losses:
                    loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            actual_pred = tf.cast(tf.greater(pred, 0.5), tf.int64)
            accuracy.update_state(labels, actual_pred)
            return loss

        batch_data, labels = next(iterator)
        losses = strategy.run(replica_fn, args=(batch_data, labels))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    def dataset_fn(_):
        return tf.data.Dataset.from_tensor_slices(({"features": ids}, labels)).batch(16).repeat()

    @tf.function
    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(dataset_fn)

    it = iter(coord.create_per_worker_dataset(per_worker_dataset_fn))
    losses = [coord.schedule(step_fn, args=(it,)) for _ in range(8)]
    coord.join()
    return {"losses": [float(r.fetch()) for r in losses],
            "accuracy": float(accuracy.result().numpy()),
            "shards": [[w.name, w.shape.as_list(), w.device] for w in emb_layer.weights],
            "embedding rows 0-2 sums": [float(v) for v in
                                        tf.reduce_sum(emb_layer.weights[0], axis=1).numpy()],
            "kernel sum": float(tf.reduce_sum(model.weights[-2]).numpy())}


def keras_fit():
    """model.fit under ParameterServerStrategy on one worker (deterministic)."""
    resolver, _ = create_in_process_cluster(1, 2)
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    rng = np.random.RandomState(1)
    x = rng.uniform(size=(24, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)

    def make(steps_per_execution=1, run_eagerly=None):
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(
                1, input_shape=(3,), kernel_initializer=tf.keras.initializers.Constant(0.2),
                bias_initializer="zeros")])
            model.compile(tf.keras.optimizers.legacy.SGD(0.1), loss="mse",
                          steps_per_execution=steps_per_execution, run_eagerly=run_eagerly)
        return model

    def batch_callback():
        callback = tf.keras.callbacks.LambdaCallback(on_batch_end=lambda batch, logs: None)
        result = outcome(lambda: make().fit(creator, epochs=1, steps_per_epoch=1, verbose=0,
                                            callbacks=[callback]) and None)
        if "message" in result:  # it ends with the callback's repr (an address)
            result["message"] = result["message"].split(" Found")[0]
        return result

    def fit(model, data, **kwargs):
        history = model.fit(data, verbose=0, **kwargs)
        return {"loss": [float(v) for v in history.history["loss"]],
                "iterations": int(model.optimizer.iterations.numpy()),
                "kernel": model.weights[0].numpy().ravel().tolist()}

    def dataset_fn(input_context):
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()

    creator = tf.keras.utils.experimental.DatasetCreator(dataset_fn)
    out = {
        "dataset with steps_per_epoch": outcome(
            lambda: fit(make(), dataset.repeat(), epochs=2, steps_per_epoch=3)),
        "DatasetCreator": outcome(lambda: fit(make(), creator, epochs=2, steps_per_epoch=3)),
        "steps_per_execution=2": outcome(
            lambda: fit(make(2), creator, epochs=2, steps_per_epoch=4)),
        "arrays": outcome(lambda: fit(make(), x, y=y, batch_size=4, epochs=1,
                                      steps_per_epoch=3)),
        "dataset without steps_per_epoch": outcome(lambda: fit(make(), dataset, epochs=1)),
        "DatasetCreator without steps_per_epoch": outcome(
            lambda: fit(make(), creator, epochs=1)),
        "verbose=1": outcome(lambda: make().fit(creator, epochs=1, steps_per_epoch=1,
                                                verbose=1) and None),
        "DatasetCreator(3)": outcome(
            lambda: tf.keras.utils.experimental.DatasetCreator(3) and None),
        "DatasetCreator input_options": outcome(
            lambda: tf.keras.utils.experimental.DatasetCreator(dataset_fn, input_options=3)
            and None),
        "evaluate DatasetCreator": outcome(
            lambda: float(make().evaluate(creator, steps=2, verbose=0))),
        "evaluate dataset": outcome(lambda: float(make().evaluate(dataset, verbose=0))),
        "predict": outcome(lambda: make().predict(x[:4], verbose=0).ravel().tolist()),
        "run_eagerly": outcome(lambda: make(run_eagerly=True).fit(
            creator, epochs=1, steps_per_epoch=1, verbose=0) and None),
        "batch-level callback": batch_callback(),
        "epoch-level callback": outcome(lambda: len(make().fit(
            creator, epochs=2, steps_per_epoch=1, verbose=0, callbacks=[
                tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: None)]
        ).history["loss"])),
    }
    return out


def keras_fit_counters():
    """model.fit / evaluate / predict under ParameterServerStrategy on one worker: the batch
    counters (_train_counter, _test_counter, _predict_counter) count the steps as TF's do,
    and the model's call and the compiled metrics are first made where TF makes them (the
    call's print says whether it runs eagerly)."""
    import contextlib
    import io

    resolver, _ = create_in_process_cluster(1, 2)
    strategy = tf.distribute.ParameterServerStrategy(resolver)
    rng = np.random.RandomState(2)
    x = rng.uniform(size=(12, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)
    printed = io.StringIO()

    class Noisy(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(
                1, kernel_initializer=tf.keras.initializers.Constant(0.2))

        def call(self, inputs, training=None):
            print("call", tf.executing_eagerly(), inputs.shape.as_list(), training)
            return self.dense(inputs)

    def dataset_fn(input_context):
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()

    creator = tf.keras.utils.experimental.DatasetCreator(dataset_fn)

    def counters(m):
        return [int(c.numpy()) for c in (m._train_counter, m._test_counter,
                                         m._predict_counter)]

    def traces(m):
        return [None if f is None else f.experimental_get_tracing_count()
                for f in (getattr(m, "train_tf_function", None),
                          getattr(m, "test_tf_function", None))]

    def made(spe):
        with strategy.scope():
            m = Noisy()
            m.compile(tf.keras.optimizers.legacy.SGD(0.1), loss="mse", metrics=["mae"],
                      steps_per_execution=spe)
        return m

    out = {}
    with contextlib.redirect_stdout(printed):
        m = made(1)
        out["counters made"] = counters(m)
        out["counter devices"] = [c.device for c in (m._train_counter, m._test_counter,
                                                    m._predict_counter)]
        out["counter type"] = type(m._train_counter).__name__
        out["metrics before fit"] = [mt.name for mt in m.metrics]
        history = m.fit(creator, epochs=2, steps_per_epoch=3, verbose=0)
        out["printed by fit"] = printed.getvalue().splitlines()
        out["metrics after fit"] = [mt.name for mt in m.metrics]
        out["metric variable devices"] = sorted(v.device for mt in m.metrics
                                                for v in mt.variables)
        out["history"] = {k: [round(float(v), 5) for v in vs]
                          for k, vs in history.history.items()}
        out["counters after fit"] = counters(m)
        out["traces after fit"] = traces(m)
        out["evaluate"] = [round(float(v), 5) for v in m.evaluate(creator, steps=2, verbose=0)]
        out["counters after evaluate"] = counters(m)
        out["traces after evaluate"] = traces(m)
        m.fit(creator, epochs=1, steps_per_epoch=2, verbose=0)
        out["counters after a second fit"] = counters(m)
        out["predict"] = np.round(m.predict(x[:8], batch_size=4, verbose=0), 5).ravel().tolist()
        out["counters after predict"] = counters(m)
        out["printed"] = printed.getvalue().splitlines()
        m2 = made(2)
        m2.fit(creator, epochs=1, steps_per_epoch=3, verbose=0)
        m2.evaluate(creator, steps=3, verbose=0)
        out["steps_per_execution=2 counters"] = counters(m2)
        out["steps_per_execution=2 traces"] = traces(m2)
    return out


SCENARIOS = {f.__name__: f for f in (server, strategy_errors, placement, partitioned,
                                     coordinator, datasets, tracing, custom_loop,
                                     sharded_embedding_loop,
                                     keras_fit, keras_fit_counters)}

if __name__ == "__main__":
    os.environ["GRPC_FAIL_FAST"] = "use_caller"
    result = SCENARIOS[sys.argv[1]]()
    print("RESULT " + json.dumps(result))
    sys.stdout.flush()
    os._exit(0)  # TF's servers keep threads alive: leave at once
