"""Keras losses: values, reductions, names, logits handling and the distribution error."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import simdist as tf
from simdist.keras.losses import DISTRIBUTION_ERROR

Y = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
P = np.array([[0.9], [0.2], [1.0], [0.0]], np.float32)


def np_bce(y, p):
    eps = 1e-7
    p = np.clip(p, eps, 1 - eps)
    return -(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)).mean(-1)


def test_bce_clips_probabilities_with_keras_epsilon():
    per = tf.keras.losses.BinaryCrossentropy(reduction="none")(Y, P)
    np.testing.assert_allclose(per.numpy(), np_bce(Y, P), rtol=1e-6)
    mean = tf.keras.losses.BinaryCrossentropy()(Y, P)
    np.testing.assert_allclose(mean.numpy(), np_bce(Y, P).mean(), rtol=1e-6)
    total = tf.keras.losses.BinaryCrossentropy(reduction=tf.keras.losses.Reduction.SUM)(Y, P)
    np.testing.assert_allclose(total.numpy(), np_bce(Y, P).sum(), rtol=1e-6)


def test_sigmoid_output_uses_its_logits_like_keras():
    logits = tf.constant([[30.0], [-30.0]])
    probs = tf.keras.activations.sigmoid(logits)
    loss = tf.keras.losses.binary_crossentropy(tf.constant([[0.0], [1.0]]), probs)
    np.testing.assert_allclose(loss.numpy(), [30.0, 30.0], rtol=1e-5)  # not clipped at 16.1


def test_categorical_and_sparse_and_regression_losses():
    y1 = np.array([[0, 1, 0], [0, 0, 1]], np.float32)
    p = np.array([[0.05, 0.95, 0], [0.1, 0.8, 0.1]], np.float32)
    cce = tf.keras.losses.CategoricalCrossentropy(reduction="none")(y1, p)
    np.testing.assert_allclose(cce.numpy(), [0.0513, 2.3026], atol=1e-4)
    scce = tf.keras.losses.SparseCategoricalCrossentropy(reduction="none")([1, 2], p)
    np.testing.assert_allclose(scce.numpy(), cce.numpy(), rtol=1e-5)
    logits = np.array([[1.0, 2.0, 3.0]], np.float32)
    s = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)([2], logits)
    np.testing.assert_allclose(s.numpy(), -np.log(np.exp(3) / np.exp(logits).sum()), rtol=1e-5)
    a, b = np.array([[1.0, 2.0]], np.float32), np.array([[2.0, 4.0]], np.float32)
    assert float(tf.keras.losses.MeanSquaredError()(a, b)) == pytest.approx(2.5)
    assert float(tf.keras.losses.MeanAbsoluteError()(a, b)) == pytest.approx(1.5)
    assert tf.keras.losses.get("binary_crossentropy") is tf.keras.losses.binary_crossentropy
    assert float(tf.keras.losses.get("mse")(a, b)[0]) == pytest.approx(2.5)


@pytest.mark.parametrize("reduction", ["auto", "sum_over_batch_size"])
def test_batch_averaging_reduction_in_custom_loop_raises_tf_error(reduction):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        loss = tf.keras.losses.BinaryCrossentropy(reduction=reduction)
    with pytest.raises(ValueError) as e:
        strategy.run(lambda: loss(Y, P))
    assert DISTRIBUTION_ERROR in str(e.value)
    assert str(e.value).startswith("Please use `tf.keras.losses.Reduction.SUM`")


@given(st.integers(1, 6), st.integers(1, 4))
def test_compute_average_loss_summed_over_replicas_is_global_mean(per_replica, replicas):
    from simdist.testing import reset_world

    reset_world()
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(replicas)])
    rng = np.random.RandomState(per_replica * 10 + replicas)
    y = (rng.rand(per_replica * replicas, 1) > 0.5).astype(np.float32)
    p = rng.uniform(0.05, 0.95, size=(per_replica * replicas, 1)).astype(np.float32)
    loss_obj = tf.keras.losses.BinaryCrossentropy(reduction="none")
    gb = per_replica * replicas

    def fn(ctx):
        i = ctx.replica_id_in_sync_group
        return tf.constant(y[i * per_replica:(i + 1) * per_replica]), \
            tf.constant(p[i * per_replica:(i + 1) * per_replica])

    values = strategy.experimental_distribute_values_from_function(fn)
    per = strategy.run(lambda v: tf.nn.compute_average_loss(loss_obj(v[0], v[1]),
                                                            global_batch_size=gb),
                       args=(values,))
    total = strategy.reduce("SUM", per, axis=None)
    np.testing.assert_allclose(total.numpy(), np_bce(y, p).mean(), rtol=1e-5)


@pytest.mark.parametrize("labels", [[[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]],      # 0/1: made -1/1
                                    [[-1.0, 1.0, 1.0], [1.0, -1.0, -1.0]],   # -1/1 already
                                    [[0.0, 1.0, -1.0], [1.0, 0.5, 0.0]]])    # neither: as given
def test_hinge_losses_trace_and_equal_their_eager_values(labels):
    """Keras converts 0/1 labels to -1/1 with a smart_cond on the labels' values: a graph
    cond in a tf.function, so a step using Hinge traces instead of falling back (it read
    the labels' values in Python before)."""
    from simdist.testing.log_capture import tf_logs

    y = tf.constant(labels)
    p = tf.constant([[0.3, -0.8, 1.5], [0.9, 0.2, -0.4]])
    losses = [tf.keras.losses.Hinge(), tf.keras.losses.SquaredHinge()]
    eager = [loss(y, p).numpy() for loss in losses]
    signed = np.where(np.all((np.array(labels) == 0) | (np.array(labels) == 1)),
                      2.0 * np.array(labels) - 1.0, np.array(labels))
    margin = np.maximum(1.0 - signed * p.numpy(), 0.0)
    np.testing.assert_allclose(eager, [margin.mean(-1).mean(), (margin ** 2).mean(-1).mean()],
                               rtol=1e-6)

    @tf.function
    def step(y_true, y_pred):
        return [loss(y_true, y_pred) for loss in losses]

    with tf_logs(contains="could not trace") as fallbacks:
        traced = [t.numpy() for t in step(y, p)]
    assert fallbacks.messages == []
    assert [a.tobytes() for a in traced] == [a.tobytes() for a in eager]
