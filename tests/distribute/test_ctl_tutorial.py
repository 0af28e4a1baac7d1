"""TF's "Multi-worker training with a custom training loop" tutorial as 2 real processes.

cluster_programs/ctl_tutorial.py is the tutorial's mnist.py + main.py (synthetic data, cut
sizes); every run starts one process per worker on 127.0.0.1 with free ports and the
tutorial's TF_CONFIG, waits a bounded time and kills the process groups
(cluster_processes.run_cluster). fixtures/tf_ctl_tutorial.json is TF 2.21's run of the same
program (record_tf_cluster.py), replayed here.
"""

import json
import os

import numpy as np
import pytest
from cluster_processes import run_cluster
from record_tf_cluster import CTL_TUTORIAL_RUNS

import simdist as tf

pytestmark = pytest.mark.timeout(120)


def _run(ckpt_dir, epochs, **env):
    results = run_cluster("ctl_tutorial.py", n=2, timeout=60,
                          env=dict(env, CKPT_DIR=str(ckpt_dir), NUM_EPOCHS=epochs))
    for rc, res, err in results:
        assert rc == 0 and res is not None, err
    return [res for _, res, _ in results]


def test_the_tutorial_as_written_trains_both_workers_in_step_and_only_the_chief_keeps_a_checkpoint(
        tmp_path):
    chief, worker = _run(tmp_path, "3")  # random initializers and shuffle, as written
    assert chief["task"] == ["worker", 0] and worker["task"] == ["worker", 1]
    # One all-reduced loss and accuracy per epoch: both workers print the same lines.
    assert [line.split(",")[0] for line in chief["printed"]] == [
        "Epoch: 0", "Epoch: 1", "Epoch: 2"]
    assert worker["printed"] == chief["printed"]
    assert np.all(np.isfinite(chief["losses"])) and chief["error"] is None
    # The chief's CheckpointManager wrote to the real directory; worker 1 wrote to
    # workertemp_1/ckpt and removed it after every save.
    assert sorted(os.listdir(tmp_path)) == ["ckpt", "workertemp_1"]
    assert os.listdir(tmp_path / "workertemp_1") == []
    # Read once both have exited (worker 1 may finish before the chief's last save).
    assert tf.train.latest_checkpoint(str(tmp_path / "ckpt")) == str(tmp_path / "ckpt" / "ckpt-3")
    assert sorted(os.listdir(tmp_path / "ckpt"))[0] == "checkpoint"


def test_tensorflow_recording_of_the_tutorial_and_its_restart_replays(tmp_path):
    """2 epochs, then a restart on the same directory asked for 3 (as TF 2.21 ran it)."""
    with open(os.path.join(os.path.dirname(__file__), "fixtures",
                           "tf_ctl_tutorial.json")) as f:
        recorded = json.load(f)
    assert recorded["tensorflow"].startswith("2.")
    runs = [_run(tmp_path, epochs, INIT="constant") for epochs in CTL_TUTORIAL_RUNS]
    for results, tf_results in zip(runs, recorded["runs"], strict=True):
        for res, want in zip(results, tf_results, strict=True):
            np.testing.assert_allclose(res.pop("losses"), want.pop("losses"), rtol=1e-5)
            res.pop("tensorflow"), want.pop("tensorflow")
            # The printed lines (6 decimals), the restored epoch and step, the error.
            assert res == want
    first, restart = runs
    assert [r["error"] for r in first] == [None, None]
    # The restart restores ckpt-2 (epoch 1, step_in_epoch 4, saved before the reset) and
    # the tutorial's loop then averages over zero batches: TF raises the same error.
    assert [r["restored"] for r in restart] == ["ckpt-2"] * 2
    assert [r["restored_step_in_epoch"] for r in restart] == [4, 4]
    assert [r["error"] for r in restart] == ["ZeroDivisionError"] * 2
