"""Loss scaling under a distribution strategy, computed for real with simdist.

Glossary:
  per-example loss  -- one squared error per example of a replica's batch.
  compute_average_loss -- ``tf.nn.compute_average_loss``: sum of the replica's per-example
                       losses divided by the GLOBAL batch size; summed over replicas by
                       the all-reduce (``ReduceOp.SUM``) it is the true mean.
  classic mistake   -- each replica takes the mean over its own batch, then the replicas'
                       values are summed: N replicas give N times the true loss (and N
                       times the true gradient, as if the learning rate were N times larger).
  true mean         -- the mean over the whole global batch on one device (float64).
The model is ``y = w * x`` with one weight, so every gradient is one number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simdist import warnings as teach
from simdist.viz import world


@dataclass
class LossComparison:
    """Losses and gradients of one global batch, computed three ways."""

    num_replicas: int
    global_batch: int
    per_replica_losses: list      # per-example losses of each replica
    correct_parts: list           # each replica's compute_average_loss
    wrong_parts: list             # each replica's reduce_mean
    correct_loss: float
    wrong_loss: float
    true_loss: float
    correct_grad: float
    wrong_grad: float
    true_grad: float


def make_batch(global_batch: int, seed: int = 0):
    """Inputs and targets of one global batch (``y ~ 3 x + noise``)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, global_batch).astype("float32")
    y = (3 * x + rng.normal(0, 0.3, global_batch)).astype("float32")
    return x, y


def compare_losses(num_replicas: int, global_batch: int, weight: float = 1.0,
                   seed: int = 0) -> LossComparison:
    """Run one step under MirroredStrategy on ``num_replicas`` simulated GPUs, both ways."""
    import simdist as tf

    x, y = make_batch(global_batch, seed)
    # silenced: the per-replica mean is the mistake this page shows
    with world.fresh(f"gpus={int(num_replicas)},kind=V100"), teach.silenced():
        strategy = tf.distribute.MirroredStrategy()
        ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(global_batch)
        batch = next(iter(strategy.experimental_distribute_dataset(ds)))
        with strategy.scope():
            w = tf.Variable(float(weight))

        def step(inputs, average):
            bx, by = inputs
            with tf.GradientTape() as tape:
                per_example = tf.square(w * bx - by)
                if average:
                    loss = tf.nn.compute_average_loss(per_example,
                                                      global_batch_size=global_batch)
                else:
                    loss = tf.reduce_mean(per_example)
            return loss, tape.gradient(loss, w), per_example

        out = {}
        for average in (True, False):
            loss, grad, per_ex = strategy.run(step, args=(batch, average))
            out[average] = (
                [float(v.numpy()) for v in strategy.experimental_local_results(loss)],
                float(strategy.reduce(tf.distribute.ReduceOp.SUM, loss, axis=None).numpy()),
                float(strategy.reduce(tf.distribute.ReduceOp.SUM, grad, axis=None).numpy()),
                [np.asarray(v.numpy()).reshape(-1).tolist()
                 for v in strategy.experimental_local_results(per_ex)])
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    true_loss = float(np.mean((weight * x64 - y64) ** 2))
    true_grad = float(np.mean(2 * (weight * x64 - y64) * x64))
    return LossComparison(int(num_replicas), int(global_batch), out[True][3], out[True][0],
                          out[False][0], out[True][1], out[False][1], true_loss,
                          out[True][2], out[False][2], true_grad)
