"""TF's "Use TPUs" guide (programs/tpu_guide.py: resolve, connect, initialize, a matmul on
TPU:0 and on every core, Keras fit with and without steps_per_execution, a custom loop of
one step and of several steps per tf.function) runs with SIMDIST_MACHINE=tpu-v3-8."""

import os
import runpy

from simdist.testing import reset_world

PROGRAM = os.path.join(os.path.dirname(__file__), "programs", "tpu_guide.py")


def test_the_tpu_guide_runs_as_written(monkeypatch, capsys):
    monkeypatch.setenv("SIMDIST_MACHINE", "tpu-v3-8")
    reset_world()
    g = runpy.run_path(PROGRAM, run_name="__main__")
    printed = capsys.readouterr().out
    assert printed.count("device_type='TPU'") == 8  # a v3-8 has 8 TensorCores
    assert "c device:  /job:localhost/replica:0/task:0/device:TPU:0" in printed
    assert g["strategy"].num_replicas_in_sync == 8
    assert len(g["strategy"].experimental_local_results(g["z"])) == 8
    for history in (g["history"], g["history_spe"]):
        assert len(history.history["val_loss"]) == g["EPOCHS"]
        assert history.history["loss"][-1] < history.history["loss"][0]
    # steps_per_execution=50 is cut to one epoch (4 steps), so each epoch is one execution
    # and the optimizer still counts every step: 2 custom-loop epochs, then one call of 4.
    assert int(g["optimizer"].iterations.numpy()) == 3 * g["steps_per_epoch"]
    assert "Current step: 12," in printed
    assert g["losses"][1] < g["losses"][0]
