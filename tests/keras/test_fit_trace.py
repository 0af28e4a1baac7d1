"""Keras's train/test/predict functions traced as TF 2.21 traces them: fit_trace_cases.CASES
replayed against the recording (record_tf_keras.py fit_trace): tracing counts, what
``call`` and ``train_step`` print (once per trace), run_eagerly, make_train_function(force=
True), the losses, metrics and predictions, MirroredStrategy and CentralStorageStrategy
fits, predict's steps_per_execution, the batch counters and dynamic models. No step function
falls back to eager."""

import os

import pytest
from fit_trace_cases import CASES
from tf_snippets import conformance_tests, split_cpu

import simdist as tf


def _fresh():
    tf.keras.backend.clear_session()
    split_cpu(tf, 4)


pytestmark = pytest.mark.timeout(120)

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_fit_trace.json"): CASES},
    before_each=_fresh, traced=True)


@pytest.mark.parametrize("make", [tf.keras.optimizers.legacy.SGD,
                                  tf.keras.optimizers.legacy.Adam])
def test_a_legacy_optimizer_fits_traced_under_a_strategy_as_eagerly(make):
    """A legacy optimizer makes iterations, hypers and slots while apply_gradients is traced,
    in the replicas' merge_call: under init_scope, as TF lifts them. Without it the trace
    read a symbolic initial value, fell back to eager, and the fallback refused the
    variables its failed trace had made (ValueError)."""
    import numpy as np

    from simdist.testing import reset_world
    from simdist.testing.log_capture import tf_logs

    def run(eagerly):
        reset_world()
        split_cpu(tf, 2)
        tf.keras.utils.set_random_seed(3)
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="relu"),
                                         tf.keras.layers.Dense(1)])
            model.compile(optimizer=make(0.05), loss="mse", run_eagerly=eagerly)
        x = np.linspace(-1, 1, 48, dtype=np.float32).reshape(16, 3)
        y = x.sum(axis=1, keepdims=True)
        with tf_logs(contains="could not trace") as fallbacks:
            history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
        return history.history["loss"], model.get_weights(), fallbacks.messages

    traced, eager = run(False), run(True)
    assert traced[2] == []                       # the step function traced
    assert traced[0] == eager[0]                 # the same losses, bit for bit
    assert all(np.array_equal(a, b) for a, b in zip(traced[1], eager[1]))
