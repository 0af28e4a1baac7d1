"""The seed documents' code listings run unchanged under ``import simdist as tf``."""

import json
import os
import re
import runpy
import warnings

import numpy as np
from seed_listing import SEEDS, parse_seed_001, seed_world

from simdist.testing.log_capture import tf_logs
from simdist.warnings import DistributionMistakeWarning

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "data")


def _run(name, capsys):
    with tf_logs(contains="could not trace") as handler:
        runpy.run_path(os.path.join(DATA, name), run_name="__main__")
    assert handler.messages == [], handler.messages   # traced: no eager fallback
    return capsys.readouterr().out


def test_seed_001_custom_loop_and_fit(capsys):
    """The listing trains as it does under TensorFlow: each seed's run prints what TF's run
    of that seed printed (record_tf_seed_001.py), the custom loop's and fit's losses and
    accuracies to float32 round-off.

    simdist draws TF's random numbers for the same seed (the data's tf.random.normal, the
    Keras initializers, tf.data's shuffle order), splits the global batch over the 4
    replicas as TF does and sums the gradients in TF's order, so the runs are TF's runs.
    """
    import simdist as tf

    with open(os.path.join(HERE, "fixtures", "tf_seed_001.json")) as f:
        recorded = json.load(f)["runs"]
    runs, taught = [], []
    for seed in SEEDS:
        seed_world(tf, seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = _run("seed_001.py", capsys)
        taught += [str(w.message) for w in caught
                   if issubclass(w.category, DistributionMistakeWarning)]
        assert "40/40 [==============================]" in out  # fit's verbose=1 progress bar
        runs.append(parse_seed_001(out))
    for seed, run in zip(SEEDS, runs):
        assert run["global_batch"] == 256  # the listing took its 4-GPU branch, as TF's did
        for key in ("custom_loss", "custom_accuracy", "fit_loss", "fit_accuracy"):
            # printed with 4 decimals: a step's float32 round-off may move the last one
            np.testing.assert_allclose(run[key], recorded[seed][key], rtol=2e-4, atol=2e-4,
                                       err_msg=f"seed {seed}: {key}")
    # The listing's custom loop feeds strategy.run the undistributed dataset (TF accepts it
    # silently): simdist warns about that, once in the world, and about nothing else.
    assert len(taught) == 1, taught
    assert taught[0].startswith("strategy.run got an element of a tf.data.Dataset")


def _run_untaught(name, capsys):
    """Run a listing that makes none of the classic mistakes: simdist must not warn."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = _run(name, capsys)
    taught = [str(w.message) for w in caught
              if issubclass(w.category, DistributionMistakeWarning)]
    assert taught == [], taught
    return out


def test_seed_004_listing(capsys):
    out = _run_untaught("seed_004.py", capsys)
    losses = [float(x) for x in re.findall(r"Epoch \d+, Loss: ([\d.]+)", out)]
    assert len(losses) == 5 and losses[-1] < losses[0], losses
    # the last strategy of the listing, MultiWorkerMirroredStrategy(), has the 4 GPUs of one
    # worker; outside its scope the default strategy is current, in (default) replica context
    assert "Sum: [ 4.  8. 12.]" in out and "Mean: [1. 2. 3.]" in out
    assert "Current strategy: _DefaultDistributionStrategy\nNumber of replicas: 1\n" \
           "In replica context" in out


def test_seed_000_pattern_trains_under_mirrored_strategy(capsys):
    import simdist as tf

    seed_world(tf, 0)
    out = _run_untaught("seed_000.py", capsys)
    assert "Number of devices: 4" in out
    history = eval(out.split("History:", 1)[1].strip().splitlines()[0])  # noqa: S307
    assert history["loss"][-1] < history["loss"][0]
    assert history["train_accuracy"][-1] > 0.9
