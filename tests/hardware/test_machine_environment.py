"""SIMDIST_MACHINE is checked at first use: sizes out of bounds (a billion GPUs, absurd or
non-positive memory) raise a ValueError naming the variable, before anything is built."""

import pytest

import simdist as tf
from simdist.hardware.machine import MAX_GPUS, get_machine, machine_from_string
from simdist.testing import reset_world


def _machine_from(monkeypatch, text):
    monkeypatch.setenv("SIMDIST_MACHINE", text)
    reset_world()
    return get_machine()


@pytest.mark.parametrize("text, says", [
    ("gpus=1000000000", "gpus=1000000000 is out of bounds"),
    ("gpus=-1", "gpus=-1 is out of bounds"),
    ("gpus=1e9", "gpus must be a whole number"),
    ("gpus=8,memory=1e12", "memory=1e12 is out of bounds"),
    ("gpus=8,memory=0", "memory=0 is out of bounds"),
    ("gpus=8,memory=-4", "memory=-4 is out of bounds"),
    ("gpus=8,memory=nan", "memory=nan is out of bounds"),
    ("gpus=8,memory=lots", "memory must be GiB of memory per GPU"),
    ("gpus=2,kind=V1000", "unknown device kind 'V1000'"),
    ("gpus=2,cores=3", "use a preset"),
])
def test_bad_sizes_name_the_variable(monkeypatch, text, says):
    with pytest.raises(ValueError) as info:
        _machine_from(monkeypatch, text)
    msg = str(info.value)
    assert msg.startswith("Cannot ") and f"SIMDIST_MACHINE={text!r}" in msg
    assert says in msg


def test_bounds_are_inclusive_and_memory_sets_the_gpus_capacity(monkeypatch):
    assert len(_machine_from(monkeypatch, "gpus=0").physical) == 1
    assert len(machine_from_string(f"gpus={MAX_GPUS}").physical) == MAX_GPUS + 1
    _machine_from(monkeypatch, "gpus=2,kind=A100,memory=0.5")
    gpus = get_machine().devices_of_type("GPU")
    assert [d.memory_limit for d in gpus] == [2**29, 2**29]
    assert get_machine().devices_of_type("CPU")[0].memory_limit > 2**29
    with tf.device("/gpu:1"), pytest.raises(tf.errors.ResourceExhaustedError):
        tf.zeros([2**28])  # 1 GiB of float32 on a 0.5 GiB GPU


def test_machine_in_code_names_no_variable():
    with pytest.raises(ValueError) as info:
        reset_world("gpus=99999")
    assert "machine 'gpus=99999'" in str(info.value)
    assert "SIMDIST_MACHINE" not in str(info.value)
