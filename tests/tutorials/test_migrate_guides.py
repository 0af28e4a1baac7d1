"""TF's guides on migrating distributed training to TF 2 (site/en/guide/migrate/) run under
simdist and print what TF 2.21 printed (``record_tf_tutorials.py``); their TensorFlow 1 parts
(tf.compat.v1 Estimators) are out of scope and left out of the programs.

"Migrate single-worker multiple-GPU training" (programs/migrate_mirrored_strategy.py): Keras
fit and evaluate with Adagrad under MirroredStrategy, on one replica and on four (batches of
one example: three of the four replicas get none), to 1e-4.

"Migrate multi-worker CPU/GPU training" (programs/migrate_multi_worker.py): a chief, three
workers and two parameter servers as in-process servers, Keras fit with the legacy Adagrad
and evaluate under ParameterServerStrategy, then a MultiWorkerMirroredStrategy without
TF_CONFIG (one replica). The workers update the variables asynchronously, in TF as here, so
the losses vary from run to run: decimals are masked, and the losses must fall.

"Migrate the fault tolerance mechanism" (programs/migrate_fault_tolerance.py):
BackupAndRestore interrupted at an epoch's end and resumed by a new model (with
steps_per_execution, whose traced loop draws dropout from one kernel for all its steps, as
TF's), a backup every 3 steps interrupted inside an epoch and resumed there, then a custom
loop saving with a CheckpointManager and reading back with ``tf.train.load_checkpoint``; to
1e-4. A progress bar's state when the interruption's exception prints after it depends on
time (Keras updates it at most every 0.05 s), so that bar is dropped before the exception's
text on both sides.
"""

import re

import pytest
from run_program import normalize, run
from test_tutorials import _compare, _recorded, cpu_machine  # noqa: F401 - the fixture

from simdist.testing.log_capture import tf_logs

_DECIMAL = re.compile(r"-?\d+\.\d+(e[-+]?\d+)?")
_BAR_BEFORE_ERROR = re.compile(r"^\s*\d+/\d+ \[[^\n]*?(?=RuntimeError:)", re.M)


def _run_traced(name):
    with tf_logs(contains="could not trace") as fallbacks:
        printed = run(name, "simdist")
    assert fallbacks.messages == []
    return printed


@pytest.mark.parametrize("cpus", [1, 4])
def test_migrate_mirrored_strategy_guide_prints_what_tensorflow_printed(cpus, cpu_machine):  # noqa: F811
    cpu_machine(cpus)
    _compare(_run_traced("migrate_mirrored_strategy"),
             _recorded("migrate_mirrored_strategy", cpus))


def test_migrate_multi_worker_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    got = normalize(_run_traced("migrate_multi_worker"))
    want = normalize(_recorded("migrate_multi_worker", 1))
    assert [_DECIMAL.sub("#", g) for g in got] == [_DECIMAL.sub("#", w) for w in want]
    losses = [float(re.search(r"loss: (\S+)", g).group(1)) for g in got if "loss:" in g]
    assert len(losses) == 6 and losses[4] < losses[0] / 10, losses   # 5 epochs, evaluate


def test_migrate_fault_tolerance_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    got = _run_traced("migrate_fault_tolerance")
    _compare(_BAR_BEFORE_ERROR.sub("", got),
             _BAR_BEFORE_ERROR.sub("", _recorded("migrate_fault_tolerance", 1)))
