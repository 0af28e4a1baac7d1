"""The learning rate schedules test_lr_schedules.py checks and record_tf_lr_schedules.py
records from TF 2.21, made with either library's ``tf``."""

import numpy as np

STEPS = range(501)


def bits(values) -> list:
    """Each rate's float32 bits as hex: how the fixture stores them and the test compares."""
    return [np.float32(v).tobytes().hex() for v in values]


def made(tf) -> list:
    """One of each schedule, some with their options (staircase, cycle, warmup, t_mul)."""
    K = tf.keras.optimizers.schedules
    return [K.ExponentialDecay(0.1, 7, 0.5, staircase=True),
            K.PolynomialDecay(0.1, 30, cycle=True),
            K.PiecewiseConstantDecay([5, 20], [1.0, 0.5, 0.1]), K.InverseTimeDecay(0.2, 3, 0.4),
            K.CosineDecay(0.0, 40, warmup_target=0.2, warmup_steps=10),
            K.CosineDecayRestarts(0.1, 10), K.CosineDecayRestarts(0.1, 10, t_mul=1.0)]
