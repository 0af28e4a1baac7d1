"""TF's once-per-process warning that mixed_float16 runs slowly without a GPU
(keras/src/mixed_precision/device_compatibility_check.py): logged on the 'tensorflow' logger
when a 'mixed_float16' Policy is made on a GPU-less machine, with TF 2.21's text (seen on the
recording run of tests/tutorials/programs/mixed_precision.py), once only, and never for a
machine with GPUs or for other policies."""

import logging

import pytest

import simdist as tf
from simdist.hardware import machine
from simdist.keras.mixed_precision import device_compatibility_check


@pytest.fixture
def fresh(monkeypatch, caplog):
    monkeypatch.setitem(device_compatibility_check._logged, "done", False)
    caplog.set_level(logging.WARNING, logger="tensorflow")
    yield caplog
    machine.set_machine(None)


def _warnings(caplog):
    return [r.getMessage() for r in caplog.records if "compatibility check" in r.getMessage()]


def test_no_gpu_warns_once_with_tensorflows_text(fresh):
    machine.set_machine("gpus=0")
    tf.keras.mixed_precision.Policy("mixed_float16")
    tf.keras.mixed_precision.set_global_policy("mixed_float16")
    tf.keras.mixed_precision.set_global_policy("float32")
    (msg,) = _warnings(fresh)
    assert msg.startswith("Mixed precision compatibility check (mixed_float16): WARNING\n"
                          "The dtype policy mixed_float16 may run slowly because this machine "
                          "does not have a GPU.")
    assert msg.endswith("This message will only be logged once")


@pytest.mark.parametrize("spec,name", [(None, "mixed_float16"), ("gpus=0", "float32"),
                                       ("gpus=0", "mixed_bfloat16")])
def test_no_warning_with_a_gpu_or_another_policy(fresh, spec, name):
    machine.set_machine(spec)
    assert tf.config.list_physical_devices("GPU") or spec == "gpus=0"
    tf.keras.mixed_precision.Policy(name)
    assert _warnings(fresh) == []
