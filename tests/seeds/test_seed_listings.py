"""The seed documents' code listings run unchanged under ``import simdist as tf`` and print
what TensorFlow 2.21 printed for the same seed (record_tf_seeds.py, on a machine of 4
logical CPUs standing for 4 GPUs): every line of stdout (printed_text.compare: a progress
bar's final state, timings and the framework's version masked), every message of the
"tensorflow" logger (seed_listing.logged) and the exception that ended the listing.

simdist draws TF's random numbers for the same seed (the data's tf.random.normal, the Keras
initializers, tf.data's shuffle order), splits the global batch over the 4 replicas as TF
does and sums the gradients in TF's order, so the runs are TF's runs. Printed numbers may
still differ by one unit in their last printed digit, or by float32 round-off where printed
in full (``rtol`` 1e-6, about 8 float32 ulps): TF's recording machine sums a sync-on-read
metric's 4 replica totals on one device (ReductionToOneDevice, its choice for CPUs), simdist's
4 GPUs in their all-reduce's order, so seed 000's History holds a few losses 1 or 2 ulps off
TF's (on 4 logical CPUs simdist prints TF's History bit for bit).
"""

import functools
import json
import os
import runpy
import warnings

from printed_text import compare
from seed_listing import SEEDS, logged, seed_world

from simdist.testing.log_capture import tf_logs
from simdist.warnings import DistributionMistakeWarning

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "data")
# What TF logs only because the recording machine has no GPU (its 4 logical CPUs stand for
# simdist's 4 GPUs): an NCCL MultiWorkerMirroredStrategy without GPUs.
_GPU_LESS = {"Enabled NCCL communication but no GPUs detected/specified."}


@functools.cache
def _recorded():
    with open(os.path.join(HERE, "fixtures", "tf_seed_listings.json")) as f:
        return json.load(f)["runs"]


def _run(name, capsys):
    """Run listing ``name``: (its stdout, the "tensorflow" logger's messages, as
    seed_listing.logged, and the exception that ended it, as 'TypeError: ...', or None)."""
    error = None
    with tf_logs() as handler:
        try:
            runpy.run_path(os.path.join(DATA, name), run_name="__main__")
        except Exception as e:  # noqa: BLE001 - compared with the one TF raised
            error = f"{type(e).__name__}: {e}"
    fallbacks = [m for m in handler.messages if "could not trace" in m]
    assert fallbacks == [], fallbacks   # traced: no eager fallback
    return capsys.readouterr().out, logged(handler.messages), error


def _same_as_tensorflow(run, printed, stdout=None, error=None):
    """Assert a listing's run printed, logged and raised what TF's run ``run`` did (or, where
    simdist deliberately differs, printed ``stdout`` and raised ``error``)."""
    want = _recorded()[run]
    out, messages, raised = printed
    compare(out, want["stdout"] if stdout is None else stdout, rtol=1e-6, last_digit=True)
    assert messages == [m for m in want["logged"] if m not in _GPU_LESS], (run, messages)
    assert raised == (want["error"] if stdout is None else error), (run, raised)


def _taught(caught):
    return [str(w.message) for w in caught if issubclass(w.category, DistributionMistakeWarning)]


def test_seed_001_custom_loop_and_fit(capsys):
    """The listing takes its 4-GPU branch (global batch 256, MirroredStrategy over 4
    replicas) and prints TF's lines: the devices, the element spec, the custom loop's
    and fit's losses and accuracies, fit's verbose=1 progress bars and its History."""
    import simdist as tf

    taught = []
    for seed in SEEDS:
        seed_world(tf, seed)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            printed = _run("seed_001.py", capsys)
        taught += _taught(caught)
        assert "40/40 [==============================]" in printed[0]  # fit's verbose=1 bar
        _same_as_tensorflow(f"001@{seed}", printed)
    # The listing's custom loop feeds strategy.run the undistributed dataset (TF accepts it
    # silently): simdist warns about that, once in the world, and about nothing else.
    assert len(taught) == 1, taught
    assert taught[0].startswith("strategy.run got an element of a tf.data.Dataset")


def _run_untaught(name, capsys):
    """Run a listing that makes none of the classic mistakes: simdist must not warn."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        printed = _run(name, capsys)
    assert _taught(caught) == [], _taught(caught)
    return printed


def test_seed_004_listing(capsys):
    """TF's lines: the custom loop's losses and accuracies, fit's progress bars, the default
    strategy outside the scopes, in replica context; and the warning TF logs for the
    listing's MultiWorkerMirroredStrategy(), made after the devices were initialized.

    TF 2.21 then stops at the listing's ``strategy.reduce(SUM, per_replica_result)``: its
    Strategy.reduce has no default ``axis``. simdist deliberately follows the seed there
    (axis defaults to None: DELIBERATE in tests/conformance/test_distribute_conformance.py)
    and prints the sums over the strategy's 4 replicas."""
    import simdist as tf

    seed_world(tf, 0)
    printed = _run_untaught("seed_004.py", capsys)
    error = _recorded()["004@0"]["error"]
    assert error == "TypeError: StrategyBase.reduce() missing 1 required positional " \
                    "argument: 'axis'", error
    tf_printed = _recorded()["004@0"]["stdout"]
    _same_as_tensorflow("004@0", printed,
                        stdout=tf_printed + "Sum: [ 4.  8. 12.]\nMean: [1. 2. 3.]\n")


def test_seed_000_pattern_trains_under_mirrored_strategy(capsys):
    """TF's lines: the 4 devices, and fit's History over 25 epochs (losses and accuracies
    to float32 round-off)."""
    import simdist as tf

    seed_world(tf, 0)
    _same_as_tensorflow("000@0", _run_untaught("seed_000.py", capsys))


def test_seed_002_snippets_make_their_strategies(capsys):
    """The strategies seed 002's snippets make, on the 4-GPU machine: nothing printed; TF's
    warnings (the deprecated experimental MultiWorkerMirroredStrategy, once; its collective
    ops not set up at startup, at each of the two); and TF's TypeError for the snippet's
    ``ParameterServerStrategy()`` (TF 2's needs a cluster resolver), which ends it."""
    _same_as_tensorflow("002@0", _run_untaught("seed_002.py", capsys))
