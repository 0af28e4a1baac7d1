"""``tf.keras.mixed_precision``: dtype policies and loss scaling (names only)."""

from simdist.keras.mixed_precision.loss_scale_optimizer import LossScaleOptimizer
from simdist.keras.mixed_precision.policy import (
    Policy,
    global_policy,
    set_global_policy,
)
