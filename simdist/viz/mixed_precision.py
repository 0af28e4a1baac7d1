"""Dynamic loss scaling and float16 underflow, with simdist's LossScaleOptimizer.

Glossary:
  loss scale     -- the factor the loss is multiplied by before the backward pass so small
                    float16 gradients do not round to zero; gradients are divided by it
                    again before the update.
  dynamic        -- ``LossScaleOptimizer(dynamic=True)``: a step whose gradients hold an
                    inf/NaN is skipped and the scale halved; after ``growth_steps`` finite
                    steps in a row the scale doubles.
  underflow      -- a float32 gradient too small for float16 (below ~6e-8) becomes 0.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

_LOCK = threading.Lock()
FLOAT16_TINY = float(np.finfo(np.float16).smallest_subnormal)


@dataclass
class ScaleHistory:
    """Per step: the loss scale used, the true gradient, and whether the step was applied."""

    scale: list
    gradient: list
    applied: list
    weight: list


def gradient_stream(steps: int, seed: int = 0, spike_every: int = 7) -> np.ndarray:
    """Per-step gradient sizes: mostly small, with a large spike every few steps."""
    rng = np.random.default_rng(seed)
    g = 10.0 ** rng.uniform(-4, -1, steps)
    if spike_every:
        g[spike_every - 1::spike_every] = 10.0 ** rng.uniform(0.5, 1.5,
                                                              len(g[spike_every - 1::spike_every]))
    return g.astype("float32")


def loss_scale_history(steps: int = 40, initial_scale: float = 2.0 ** 15,
                       growth_steps: int = 5, seed: int = 0, spike_every: int = 7
                       ) -> ScaleHistory:
    """Train ``w`` with loss ``w * g_t`` computed in float16 through LossScaleOptimizer."""
    import simdist as tf
    from simdist.testing import reset_world

    grads = gradient_stream(steps, seed, spike_every)
    hist = ScaleHistory([], [], [], [])
    with _LOCK:
        reset_world()
        w = tf.Variable(1.0)
        opt = tf.keras.mixed_precision.LossScaleOptimizer(
            tf.keras.optimizers.SGD(0.01), initial_scale=initial_scale,
            dynamic_growth_steps=growth_steps)
        for g in grads:
            scale = float(opt.loss_scale.numpy() if hasattr(opt.loss_scale, "numpy")
                          else opt.loss_scale)
            with tf.GradientTape() as tape:
                loss = tf.cast(w, tf.float16) * tf.constant(g, dtype=tf.float16)
                scaled = opt.get_scaled_loss(loss)
            grad = opt.get_unscaled_gradients(tape.gradient(scaled, [w]))
            before = float(w.numpy())
            opt.apply_gradients(zip(grad, [w]))
            hist.scale.append(scale)
            hist.gradient.append(float(g))
            hist.applied.append(float(w.numpy()) != before)
            hist.weight.append(float(w.numpy()))
    return hist


def underflow(gradients, scale: float) -> dict:
    """What casting ``gradients * scale`` to float16 keeps: counts of zeros and infs."""
    g = np.asarray(gradients, dtype=np.float32) * np.float32(scale)
    with np.errstate(over="ignore"):
        h = g.astype(np.float16)
    return {"zero": int(((h == 0) & (g != 0)).sum()), "inf": int(np.isinf(h).sum()),
            "kept": int((np.isfinite(h) & (h != 0)).sum()), "total": int(g.size)}


def sample_gradients(n: int = 4000, seed: int = 0) -> np.ndarray:
    """Gradient values over many decades (1e-10 .. 1e-1), as in a deep network."""
    rng = np.random.default_rng(seed)
    return (10.0 ** rng.uniform(-10, -1, n) * rng.choice([-1, 1], n)).astype("float32")
