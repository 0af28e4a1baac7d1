"""tf.nn losses: stable values and the distribution-aware loss scaling."""

from __future__ import annotations

import numpy as np
import pytest

import simdist as tf
from simdist.distribute import nn_impl


def test_cross_entropies_are_stable_for_huge_logits():
    x = tf.nn.sigmoid_cross_entropy_with_logits(labels=[0.0, 1.0], logits=[1000.0, -1000.0])
    np.testing.assert_allclose(x.numpy(), [1000.0, 1000.0])
    y = tf.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]], logits=[[0.0, 1000.0]])
    np.testing.assert_allclose(y.numpy(), [1000.0])
    s = tf.nn.softmax([[0.0, 1000.0]])
    assert np.all(np.isfinite(s.numpy()))


def test_softmax_xent_gradient_is_softmax_minus_labels():
    logits = tf.constant([[1.0, 2.0, 3.0]])
    labels = tf.constant([[0.2, 0.3, 0.5]])
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    z = np.exp(logits.numpy() - logits.numpy().max())
    expected = z / z.sum() - labels.numpy()
    np.testing.assert_allclose(tape.gradient(loss, logits).numpy(), expected, rtol=1e-6)


def test_compute_average_loss_without_strategy():
    loss = tf.nn.compute_average_loss([1.0, 2.0, 3.0, 4.0])
    assert float(loss) == 2.5
    assert float(tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=8)) == 0.375
    assert float(tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=0)) == 0.0
    assert float(tf.nn.scale_regularization_loss(3.0)) == 3.0


def test_loss_scaling_uses_num_replicas_in_sync(monkeypatch):
    monkeypatch.setattr(nn_impl, "_num_replicas_in_sync", lambda: 4)
    monkeypatch.setattr(nn_impl, "_check_replica_context", lambda name: None)
    assert float(tf.nn.compute_average_loss([1.0, 2.0, 3.0, 4.0])) == pytest.approx(10 / 16)
    assert float(tf.nn.scale_regularization_loss([2.0, 2.0])) == 1.0


def test_loss_scaling_inside_a_mirrored_strategy():
    distribute = pytest.importorskip("simdist.distribute")
    strategy = distribute.MirroredStrategy()
    n = strategy.num_replicas_in_sync

    def step():
        return tf.nn.compute_average_loss(tf.constant([1.0, 1.0]))

    with strategy.scope():
        with pytest.raises(RuntimeError, match="cross replica context"):
            tf.nn.compute_average_loss(tf.constant([1.0, 1.0]))
    per_replica = strategy.run(step)
    total = strategy.reduce(distribute.ReduceOp.SUM, per_replica, axis=None)
    assert float(total) == pytest.approx(1.0)
    # each replica divides its sum of 2 by the global batch of 2 * n
    local = strategy.experimental_local_results(per_replica)
    assert [float(v) for v in local] == pytest.approx([1.0 / n] * n)
