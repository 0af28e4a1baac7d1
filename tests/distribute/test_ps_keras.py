"""model.fit / evaluate under ParameterServerStrategy with several workers: the steps are
scheduled on the workers (asynchronously), steps_per_execution steps per scheduled call, and
training still converges. TF's single-worker numbers and error texts are replayed in
test_parameter_server.py (scenario keras_fit)."""

import numpy as np
from ps_helpers import cpu_cluster

import simdist as tf


def _model_and_data(strategy, steps_per_execution=1):
    rng = np.random.RandomState(0)
    x = rng.uniform(size=(64, 3)).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
        model.compile(tf.keras.optimizers.legacy.SGD(0.05), loss="mse",
                      steps_per_execution=steps_per_execution)

    def dataset_fn(input_context):
        return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64, seed=1).batch(8).repeat()

    return model, tf.keras.utils.experimental.DatasetCreator(dataset_fn)


def test_fit_schedules_steps_per_execution_steps_per_call_across_the_workers():
    strategy, coordinator = cpu_cluster(3, 2)
    tf.keras.utils.set_random_seed(0)  # the initial weights; the simulation is deterministic
    model, creator = _model_and_data(strategy, steps_per_execution=2)
    history = model.fit(creator, epochs=8, steps_per_epoch=6, verbose=0)
    sim = strategy.extended.simulation
    assert model._cluster_coordinator is coordinator
    assert int(model.optimizer.iterations.numpy()) == 48
    assert len(sim.steps) == 24  # 6 steps / 2 per call, 8 epochs
    assert {s["worker"] for s in sim.steps} == {0, 1, 2}
    assert sim.staleness_summary()["max"] >= 1
    losses = history.history["loss"]  # an epoch's loss is noisy under asynchrony
    assert np.mean(losses[-2:]) < 0.6 * np.mean(losses[:2])


def test_a_shorter_last_execution_does_not_retrace_the_scheduled_function():
    """TF passes the steps of an execution as a tensor: 4 steps per epoch at 3 per call
    (3, then 1) trace as often as 4 at 2 per call (2, 2), and every step runs."""
    counts = {}
    for spe in (2, 3):
        strategy, _ = cpu_cluster(2, 1)
        model, creator = _model_and_data(strategy, steps_per_execution=spe)
        model.fit(creator, epochs=2, steps_per_epoch=4, verbose=0)
        assert int(model.optimizer.iterations.numpy()) == 8
        counts[spe] = model.train_tf_function.experimental_get_tracing_count()
    assert counts[3] == counts[2] <= 2


def test_evaluate_runs_on_the_workers_and_counts_its_steps():
    strategy, _ = cpu_cluster(2, 1)
    model, creator = _model_and_data(strategy)
    loss = model.evaluate(creator, steps=4, verbose=0)
    assert np.isfinite(loss)
    sim = strategy.extended.simulation
    assert len(sim.steps) == 4
    # evaluation writes the metrics and the test counter (tf-keras's unnamed Variable), never
    # the weights
    assert all(set(s["wrote"]) == {"total:0", "count:0", "Variable:0"} for s in sim.steps)
    assert int(model._test_counter.numpy()) == 4


def test_a_checkpoint_of_sharded_ps_variables_restores_into_another_shard_count(tmp_path):
    """TF saves a ShardedVariable as one full value, so a model trained with 2 shards per
    variable restores into a strategy that makes 3 (tf_sharded_variable.json records it)."""
    fixed = tf.distribute.experimental.partitioners.FixedShardsPartitioner
    strategy, _ = cpu_cluster(2, 2, partitioner=fixed(2))
    values = np.arange(24, dtype=np.float32).reshape(6, 4)
    with strategy.scope():
        table = tf.Variable(values, name="table")
    assert [v.shape[0] for v in table.variables] == [3, 3]
    path = tf.train.Checkpoint(table=table).save(str(tmp_path / "ckpt"))

    strategy3, _ = cpu_cluster(2, 2, partitioner=fixed(3))
    with strategy3.scope():
        restored = tf.Variable(np.zeros((6, 4), np.float32), name="table")
    tf.train.Checkpoint(table=restored).restore(path)
    assert [v.shape[0] for v in restored.variables] == [2, 2, 2]
    assert [v.device[-19:] for v in restored.variables] == [
        "task:0/device:CPU:0", "task:1/device:CPU:0", "task:0/device:CPU:0"]
    np.testing.assert_array_equal(restored.numpy(), values)
