"""tf.debugging.set_log_device_placement(True) makes each eager op write TF's
"Executing op <type> in device <device>" line to stderr: placement_program.PROGRAM logs the
lines TF 2.21 logged (record_tf_placement.py); nothing is logged unless it is switched on."""

import json
import os

import pytest
from placement_program import PROGRAM

import simdist as tf
from simdist.hardware import machine

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_placement.json")) as _f:
    RECORDED = json.load(_f)["placements"]


@pytest.fixture
def two_cpus():
    machine.set_machine("gpus=0")
    yield
    tf.debugging.set_log_device_placement(False)
    machine.set_machine(None)


def _logged(err):
    prefix = "Executing op "
    return [line[len(prefix):].replace(" in device ", " ")
            for line in err.splitlines() if line.startswith(prefix)]


def test_placements_are_logged_as_tensorflow_logs_them(two_cpus, capsys):
    exec(PROGRAM, {"tf": tf})  # noqa: S102 - the recorded program
    assert _logged(capsys.readouterr().err) == RECORDED


def test_nothing_is_logged_when_off(two_cpus, capsys):
    tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]))
    tf.debugging.set_log_device_placement(True)
    tf.debugging.set_log_device_placement(False)
    tf.constant(1.0) + 1
    assert _logged(capsys.readouterr().err) == []
