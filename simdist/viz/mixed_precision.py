"""Dynamic loss scaling step by step, from a real simdist LossScaleOptimizer run.

Glossary:
  loss scale     -- the factor the loss is multiplied by before the backward pass so small
                    float16 gradients do not round to zero; gradients are divided by it
                    again before the update (``get_scaled_loss`` / ``get_unscaled_gradients``).
  dynamic        -- ``LossScaleOptimizer(dynamic=True)``: a step whose gradients hold an
                    inf/NaN is skipped and the scale halved; after ``growth_steps`` finite
                    steps in a row the scale doubles (the growth counter counts them).
  float16 range  -- a value below 2^-24 rounds to zero (underflow), 2^-24..2^-14 is
                    subnormal (few significant bits), up to 65504 normal, above that inf.
  the model      -- a float16 layer ``y = w * x`` (mixed_float16: weights kept in float32,
                    cast to float16), loss ``mean(y)`` in float32 as Keras computes losses;
                    the inputs span 1e-7..1e-1, with an outlier batch every few steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simdist.viz import world

FLOAT16_SUBNORMAL = 2.0 ** -24          # smallest positive float16
FLOAT16_NORMAL = 2.0 ** -14             # smallest normal float16
FLOAT16_MAX = float(np.finfo(np.float16).max)   # 65504
CLASSES = ("underflow to 0", "subnormal", "normal", "overflow to inf")
WIDTH = 512                              # weights (and gradients) per step


@dataclass
class LossScaleStep:
    """What one training step of LossScaleOptimizer saw and decided."""

    step: int              # 1-based
    loss: float            # float32 loss
    scale: float           # the loss scale used in this step
    scaled_loss: float     # loss * scale (float32, as get_scaled_loss computes it)
    exact: np.ndarray      # scale * dL/dw in float64: what the gradient would be exactly
    scaled_grads: np.ndarray   # the same gradients as float16 computed them
    finite: bool           # every scaled gradient finite (LossScaleOptimizer's check)
    unscaled: np.ndarray   # get_unscaled_gradients: scaled_grads / scale (float32)
    applied: bool          # the weights changed (finite) or the step was skipped
    counter: int           # the growth counter (good steps in a row) after the step
    next_scale: float      # the loss scale after the step (doubled, halved or kept)

    def counts(self) -> dict:
        """How many gradients fell in each float16 class."""
        return dict(zip(CLASSES, (int(v) for v in np.bincount(
            classify(self.exact, self.scaled_grads), minlength=len(CLASSES)))))


def classify(exact, half) -> np.ndarray:
    """Index into CLASSES of each float16 gradient (``exact``: the value before rounding)."""
    a, h = np.abs(np.asarray(exact, np.float64)), np.abs(np.asarray(half, np.float64))
    out = np.full(a.shape, 2)
    out[h < FLOAT16_NORMAL] = 1
    out[(h == 0) & (a != 0)] = 0
    out[np.isinf(h)] = 3
    return out


def upstream(scale: float) -> float:
    """dL/dy in float16: the scaled loss's gradient through mean() (inf past 65504)."""
    with np.errstate(over="ignore"):
        return float(np.float16(scale / WIDTH))


def inputs(steps: int, seed: int = 0, spike_every: int = 7) -> np.ndarray:
    """Per-step float16 inputs, ``steps x WIDTH``: small values, an outlier batch every few."""
    rng = np.random.default_rng(seed)
    x = 10.0 ** rng.uniform(-7, -1, (steps, WIDTH)) * rng.choice([-1, 1], (steps, WIDTH))
    if spike_every:
        rows = np.arange(spike_every - 1, steps, spike_every)
        x[rows, :8] = 10.0 ** rng.uniform(2, 3, (len(rows), 8))
    return x.astype(np.float16)


def run_loss_scaling(steps: int = 40, initial_scale: float = 2.0 ** 15,
                     growth_steps: int = 5, seed: int = 0, spike_every: int = 7
                     ) -> list[LossScaleStep]:
    """Train the float16 layer for ``steps`` steps through simdist's LossScaleOptimizer."""
    import simdist as tf

    xs = inputs(steps, seed, spike_every)
    out = []
    with world.fresh():
        w = tf.Variable(np.ones(WIDTH, np.float32))
        opt = tf.keras.mixed_precision.LossScaleOptimizer(
            tf.keras.optimizers.SGD(0.01), initial_scale=initial_scale,
            dynamic_growth_steps=growth_steps)
        for i, x in enumerate(xs):
            scale = float(opt.loss_scale.numpy())
            with tf.GradientTape() as tape:
                y = tf.cast(w, tf.float16) * tf.constant(x)        # the float16 layer
                loss = tf.reduce_mean(tf.cast(y, tf.float32))      # Keras: loss in float32
                scaled = opt.get_scaled_loss(loss)
            (grad,) = tape.gradient(scaled, [w])    # float16 values, cast back to float32
            (unscaled,) = opt.get_unscaled_gradients([grad])
            before = w.numpy().copy()
            opt.apply_gradients([(unscaled, w)])
            # what the backward pass computes in float16, f16(scale / WIDTH) * x, before
            # the product is rounded (the upstream gradient itself may already be inf)
            exact = upstream(scale) * x.astype(np.float64)
            out.append(LossScaleStep(
                i + 1, float(loss.numpy()), scale, float(scaled.numpy()), exact,
                grad.numpy().astype(np.float16), bool(np.all(np.isfinite(grad.numpy()))),
                unscaled.numpy(), not np.array_equal(w.numpy(), before),
                int(opt.dynamic_counter.numpy()), float(opt.loss_scale.numpy())))
    return out
