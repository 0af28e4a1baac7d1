"""Learning rate schedules (tf.keras.optimizers.schedules) trace into a tf.function's graph
(no eager fallback) and give the same rate there as eagerly, at any step; tutorial_cases
replays their values, configs and a fit with one against TF 2.21."""

from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.testing.log_capture import tf_logs

K = tf.keras.optimizers.schedules
MADE = [K.ExponentialDecay(0.1, 7, 0.5, staircase=True), K.PolynomialDecay(0.1, 30, cycle=True),
        K.PiecewiseConstantDecay([5, 20], [1.0, 0.5, 0.1]), K.InverseTimeDecay(0.2, 3, 0.4),
        K.CosineDecay(0.0, 40, warmup_target=0.2, warmup_steps=10),
        K.CosineDecayRestarts(0.1, 10), K.CosineDecayRestarts(0.1, 10, t_mul=1.0)]


@tf.function
def _traced(step):
    return [s(step) for s in MADE]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 500))
def test_a_traced_schedule_gives_its_eager_rate(step):
    with tf_logs(contains="could not trace") as fallbacks:
        traced = [float(r) for r in _traced(tf.constant(step, tf.int64))]
    assert not fallbacks.messages
    assert traced == [float(s(step)) for s in MADE]
    assert _traced.experimental_get_tracing_count() == 1
