"""simdist's Keras training against numbers recorded from TensorFlow 2.15 (Keras 2).

The fixture (tests/keras/fixtures/tf_training.json, written by record_tf_training.py) holds
the data, the fixed initial weights and TF's per-step losses, accuracies, final weights and
loss-scale sequence on 4 replicas (and on one device). Both sides run the same programs
(training_programs.py), so the replay goes through experimental_distribute_dataset and fit
exactly as the recording did.
"""

import json
import os

import numpy as np
import pytest
from training_programs import custom_loop, fit_run, loss_scale_run

import simdist as tf

pytestmark = pytest.mark.array_api  # also on array_api_strict: tests/hardware/test_backends.py

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_training.json")
with open(FIXTURE) as _f:
    REC = json.load(_f)
X = np.asarray(REC["x"], np.float32)
Y = np.asarray(REC["y"], np.float32)
W0 = [np.asarray(w, np.float32) for w in REC["initial_weights"]]
RTOL, ATOL = 2e-5, 2e-6


def strategies():
    return {"mirrored": tf.distribute.MirroredStrategy(),
            "one_device": tf.distribute.OneDeviceStrategy("/gpu:0")}


def _assert_weights(got, ref):
    for w, r in zip(got, ref, strict=True):
        np.testing.assert_allclose(np.asarray(w, np.float32), np.asarray(r, np.float32),
                                   rtol=1e-4, atol=2e-6)


def _custom(strategy, opt_name):
    return custom_loop(tf, strategy, opt_name, X, Y, W0, REC["global_batch"], REC["epochs"])


@pytest.mark.parametrize("opt_name", ["sgd", "adam"])
@pytest.mark.parametrize("where", ["mirrored", "one_device"])
def test_custom_loop_matches_tf(opt_name, where):
    got = _custom(strategies()[where], opt_name)
    ref = REC[f"custom_{opt_name}" + ("" if where == "mirrored" else "_one_device")]
    np.testing.assert_allclose(got["losses"], ref["losses"], rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(got["accuracy"], ref["accuracy"], rtol=RTOL)
    _assert_weights(got["weights"], ref["weights"])
    assert got["iterations"] == ref["iterations"]


def test_correct_custom_loop_on_4_replicas_equals_one_device():
    four = _custom(tf.distribute.MirroredStrategy(), "sgd")
    one = _custom(tf.distribute.OneDeviceStrategy("/gpu:0"), "sgd")
    np.testing.assert_allclose(four["losses"], one["losses"], rtol=1e-5, atol=1e-6)
    for a, b in zip(four["weights"], one["weights"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
    # and simdist's 4-replica run follows TensorFlow's one-device recording
    ref = REC["custom_sgd_one_device"]
    np.testing.assert_allclose(four["losses"], ref["losses"], rtol=RTOL, atol=ATOL)
    _assert_weights(four["weights"], ref["weights"])


@pytest.mark.parametrize("where", ["mirrored", "one_device"])
def test_fit_matches_tf_including_uneven_batches(where):
    got = fit_run(tf, strategies()[where], X, Y, W0, REC["fit_batch"], REC["epochs"])
    ref = REC["fit" if where == "mirrored" else "fit_one_device"]
    for k in ("loss", "accuracy"):
        np.testing.assert_allclose(got["history"][k], ref["history"][k], rtol=RTOL)
        np.testing.assert_allclose(got["evaluate"][k], ref["evaluate"][k], rtol=RTOL)
    np.testing.assert_allclose(got["step_losses"], ref["step_losses"], rtol=RTOL)
    _assert_weights(got["weights"], ref["weights"])


def test_fit_with_uneven_batches_differs_from_one_device_as_in_tf():
    """simdist's 4-replica fit departs from its one-device fit by TF's departure, step by
    step (an uneven last batch: replicas average their own rows, then SUM)."""
    ours = {where: fit_run(tf, s, X, Y, W0, REC["fit_batch"], REC["epochs"])["step_losses"]
            for where, s in strategies().items()}
    ours_gap = np.subtract(ours["mirrored"], ours["one_device"])
    tf_gap = np.subtract(REC["fit"]["step_losses"], REC["fit_one_device"]["step_losses"])
    assert np.abs(tf_gap).max() > 1e-4                 # TF's runs do differ ...
    np.testing.assert_allclose(ours_gap, tf_gap, rtol=1e-3, atol=1e-5)   # ... and so do ours


def test_loss_scale_sequence_matches_tf():
    ref = REC["loss_scale"]
    got = loss_scale_run(tf, tf.distribute.MirroredStrategy(), X, Y, W0, REC["global_batch"],
                         poison_steps=tuple(ref["poison_steps"]))
    assert got["loss_scale"] == ref["loss_scale"]
    assert got["iterations"] == ref["iterations"]
    assert got["good_steps"] == ref["good_steps"]
    _assert_weights(got["weights"], ref["weights"])
