"""Warnings that teach (simdist.warnings): each classic mistake warns once, names the fix
and its lesson, and changes nothing in what is computed; the right code does not warn."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import simdist as tf
from simdist import warnings as teach
from simdist.testing import reset_world

ROOT = Path(__file__).resolve().parents[1]
X = np.arange(32, dtype=np.float32).reshape(16, 2) / 16
Y = np.ones((16, 1), np.float32)


def _caught(fn):
    """Run ``fn``; return (its result, the teaching warnings it raised)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn()
    return out, [w for w in caught if issubclass(w.category, teach.DistributionMistakeWarning)]


def _model(strategy):
    tf.keras.utils.set_random_seed(3)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        opt = tf.keras.optimizers.SGD(0.1)
    return model, opt


def _train(distribute=True, loss_kind="global"):
    strategy = tf.distribute.MirroredStrategy()
    model, opt = _model(strategy)
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(8)

    def step(x, y):
        with tf.GradientTape() as tape:
            per_example = tf.square(model(x) - y)[:, 0]
            loss = (tf.nn.compute_average_loss(per_example, global_batch_size=8)
                    if loss_kind == "global" else tf.reduce_mean(per_example))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        return loss

    losses = []
    for x, y in (strategy.experimental_distribute_dataset(ds) if distribute else ds):
        per_replica = strategy.run(step, args=(x, y))
        losses.append(strategy.reduce("SUM", per_replica, axis=None).numpy())
    return losses, model.get_weights()


def test_the_right_loop_does_not_warn():
    _, caught = _caught(_train)
    assert caught == []


def test_undistributed_dataset_warns_once_and_trains_as_tf_does():
    (_, weights), caught = _caught(lambda: _train(distribute=False))
    assert len(caught) == 1  # two steps, one warning
    text = str(caught[0].message)
    assert "every one of the 4 replicas computes on the whole global batch" in text
    assert "experimental_distribute_dataset" in text and "lessons/02_" in text
    assert caught[0].filename == __file__  # points at the user's line, not simdist's
    # What TF computes: each replica's gradient is the whole batch's; 4 of them are summed.
    reset_world()
    model, _ = _model(tf.distribute.OneDeviceStrategy("/gpu:0"))
    w, b = model.get_weights()
    for start in (0, 8):
        x, y = X[start:start + 8], Y[start:start + 8]
        err = x @ w + b - y
        w = w - 0.1 * 4 * (2 * x.T @ err / 8)
        b = b - 0.1 * 4 * (2 * err.sum(axis=0) / 8)
    np.testing.assert_allclose(weights[0], w, rtol=1e-5)


def test_per_replica_mean_loss_summed_across_replicas_warns():
    (losses, _), caught = _caught(lambda: _train(loss_kind="per_replica_mean"))
    names = sorted(str(w.message).split(":")[0][:40] for w in caught)
    assert len(caught) == 2, names  # the gradients, and reduce(SUM) of the means
    texts = " | ".join(str(w.message) for w in caught)
    assert "4 times too large" in texts and "compute_average_loss" in texts
    assert "strategy.reduce(SUM, ...) added 4 per-replica means" in texts


def test_mean_of_losses_already_scaled_by_the_global_batch_warns():
    strategy = tf.distribute.MirroredStrategy()
    per_replica = strategy.run(lambda: tf.nn.compute_average_loss(
        tf.constant([1.0, 3.0]), global_batch_size=8))
    value, caught = _caught(lambda: strategy.reduce("MEAN", per_replica, axis=None))
    assert value.numpy() == pytest.approx(0.5)  # what TF gives: 4 * 0.5 / 4
    assert len(caught) == 1 and "divided by 4" in str(caught[0].message)
    _, caught = _caught(lambda: strategy.reduce("SUM", per_replica, axis=None))
    assert caught == []


def test_one_replica_and_a_plain_constant_do_not_warn():
    one = tf.distribute.OneDeviceStrategy("/gpu:0")
    ds = tf.data.Dataset.from_tensor_slices(X).batch(4)
    _, caught = _caught(lambda: [one.run(lambda x: x, args=(x,)) for x in ds])
    assert caught == []
    four = tf.distribute.MirroredStrategy()
    _, caught = _caught(lambda: four.run(lambda x: x * 2, args=(tf.constant([1.0]),)))
    assert caught == []


def test_silenced_by_the_warnings_module_and_by_set_enabled():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=teach.DistributionMistakeWarning)
        _train(distribute=False)
    reset_world()
    previous = teach.set_enabled(False)
    try:
        _, caught = _caught(lambda: _train(distribute=False))
    finally:
        teach.set_enabled(previous)
    assert caught == []


def test_env_var_turns_them_off():
    code = "import simdist.warnings as w; assert not w.enabled()"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60, cwd=ROOT,
                   env={"SIMDIST_WARNINGS": "0", "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize("name", sorted(teach.MISTAKES))
def test_every_warning_links_to_a_lesson_that_exists(name):
    assert (ROOT / teach.lesson_path(name)).is_file()


def test_a_variable_made_outside_the_scope_and_read_in_replicas_warns():
    strategy = tf.distribute.MirroredStrategy()
    outside = tf.Variable(2.0, name="outside")
    out, caught = _caught(lambda: strategy.run(lambda: outside * 3.0))
    assert [v.numpy() for v in strategy.experimental_local_results(out)] == [6.0] * 4
    assert len(caught) == 1 and "'outside' was created outside strategy.scope()" \
        in str(caught[0].message)
    with strategy.scope():
        inside = tf.Variable(2.0)
    _, caught = _caught(lambda: strategy.run(lambda: inside * 3.0))
    assert caught == []


def test_none_aggregated_copies_that_diverge_warn_and_equal_writes_do_not():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        v = tf.Variable(10.0)  # aggregation NONE

    def add_one():
        v.assign_add(1.0)

    _, caught = _caught(lambda: strategy.run(add_one))  # every copy 11: still mirrors
    assert caught == []

    def add_id():
        v.assign_add(tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                             tf.float32))

    _, caught = _caught(lambda: strategy.run(add_id))
    assert [c.numpy() for c in v.values] == [11.0, 12.0, 13.0, 14.0]  # TF's result
    assert len(caught) == 1 and "now hold different values" in str(caught[0].message)


def test_silenced_turns_them_off_inside_only():
    with teach.silenced():
        _, caught = _caught(lambda: _train(distribute=False))
    assert caught == [] and teach.enabled()
    _, caught = _caught(lambda: _train(distribute=False))
    assert len(caught) == 1  # silenced() did not use up the once-per-world warning


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("scaled", [False, True])
def test_unscaled_regularization_warns_and_scaled_does_not(scaled, traced):
    """Eager or in a tf.function (TF's distributed-training guide traces this step: the
    scaled loss is the output of a recorded op there, which keeps its mark)."""
    strategy = tf.distribute.MirroredStrategy()
    tf.keras.utils.set_random_seed(0)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(
            1, input_shape=(2,), kernel_regularizer=tf.keras.regularizers.l2(0.1))])
        opt = tf.keras.optimizers.SGD(0.1)
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(8)

    def step(x, y):
        with tf.GradientTape() as tape:
            per_example = tf.square(model(x) - y)[:, 0]
            reg = tf.add_n(model.losses)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=8) + (
                tf.nn.scale_regularization_loss(reg) if scaled else reg)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))

    def run(x, y):
        strategy.run(step, args=(x, y))

    run = tf.function(run) if traced else run

    def train():
        for x, y in strategy.experimental_distribute_dataset(ds):
            run(x, y)

    _, caught = _caught(train)
    if scaled:
        assert caught == []
    else:
        assert len(caught) == 1 and "regularization counts 4 times" in str(caught[0].message)


def test_keras_fit_with_regularizers_does_not_warn():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(
            1, input_shape=(2,), kernel_regularizer=tf.keras.regularizers.l2(0.1))])
        model.compile(optimizer="sgd", loss="mse")
    _, caught = _caught(lambda: model.fit(X, Y, batch_size=8, epochs=1, verbose=0))
    assert caught == []
