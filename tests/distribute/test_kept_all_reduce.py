"""A training step's gradient all-reduce keeps what depends on its structure only (the
checks that passed, the grouping, the all-reduce's plan; a small ring buffer is folded at
once): a traced step run with all of it, and with none of it, leaves the same world (the
weights' bits, every device's clock and memory, every trace event)."""

import contextlib
import os
import sys

import numpy as np

import simdist as tf

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import world_state  # noqa: E402


def _program():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation="relu",
                                                           input_shape=(3,)),
                                     tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((16, 3)).astype(np.float32)
    y = rng.standard_normal((16, 1)).astype(np.float32)
    data = strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(8))

    def replica_step(features, labels):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((model(features) - labels) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def step(batch):
        return strategy.reduce("SUM", strategy.run(replica_step, batch), axis=None)

    losses = [step(batch) for _ in range(2) for batch in data]
    return [*losses, *model.trainable_variables], step


@contextlib.contextmanager
def _nothing_kept():
    from simdist.collectives.algorithms import _rings
    from simdist.distribute import collective_cross_device_ops as cdo
    from simdist.distribute import cross_replica_checks

    saved = (cross_replica_checks.structure, cdo._kept_calls, _rings._fold_gathered)
    cross_replica_checks.structure = lambda values: None
    cdo._kept_calls = lambda *args: ({}, None)
    _rings._fold_gathered = lambda *args: False
    try:
        yield
    finally:
        cross_replica_checks.structure, cdo._kept_calls, _rings._fold_gathered = saved


def test_a_step_with_what_its_all_reduce_keeps_leaves_the_world_it_left_without():
    world_state.assert_same(_program, _nothing_kept, seed=3)
