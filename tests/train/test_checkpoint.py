"""Checkpoint and CheckpointManager: variables and optimizer slots, across strategies."""

import numpy as np

import simdist as tf


def model():
    return tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,)),
                                tf.keras.layers.Dense(1)])


def train_one_step(m, opt):
    x = tf.constant(np.ones((4, 2), np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(m(x))
    opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))


def test_save_restore_across_strategies_with_deferred_slots(tmp_path):
    m, opt = model(), tf.keras.optimizers.Adam(0.1)
    train_one_step(m, opt)
    path = tf.train.Checkpoint(model=m, optimizer=opt).save(str(tmp_path / "ckpt"))
    assert path.endswith("ckpt-1")
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        m2, opt2 = model(), tf.keras.optimizers.Adam(0.1)
    tf.train.Checkpoint(model=m2, optimizer=opt2).restore(path)
    for a, b in zip(m.get_weights(), m2.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert [int(c.numpy()) for c in opt2.iterations.values] == [1] * 4
    x = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(np.ones((1, 2), np.float32)))

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(m2(x))
        grads = tape.gradient(loss, m2.trainable_variables)
        opt2.apply_gradients(zip(grads, m2.trainable_variables))

    strategy.run(step, args=(x,))  # 4 replicas x batch 1 == 1 device x batch 4
    train_one_step(m, opt)
    for a, b in zip(m.get_weights(), m2.get_weights()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    for w in m2.weights:
        copies = [c.numpy() for c in w.values]
        assert all(np.array_equal(c, copies[0]) for c in copies)


def test_checkpoint_manager_keeps_latest(tmp_path):
    step = tf.Variable(0)
    ckpt = tf.train.Checkpoint(step=step)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    for i in range(3):
        step.assign(i)
        manager.save()
    assert len(manager.checkpoints) == 2 and manager.latest_checkpoint.endswith("ckpt-3")
    assert tf.train.latest_checkpoint(str(tmp_path)) == manager.latest_checkpoint
    step.assign(99)
    ckpt.restore(manager.latest_checkpoint)
    assert int(step.numpy()) == 2
