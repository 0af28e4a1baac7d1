"""tf.device's block (a class): nesting, '' and None, errors at entry, use as a decorator,
and the stack it pushed on popped even when the thread's scopes were reset inside it."""

import pytest

import simdist as tf
from simdist.framework import context
from simdist.framework.thread_local import fresh_thread


def _here():
    d = context.explicit_device()
    return None if d is None else d.name.rpartition("/")[2]


def test_nested_blank_and_none_scopes():
    with tf.device("/cpu:0"):
        assert _here() == "device:CPU:0"
        with tf.device(""):
            assert _here() == "device:CPU:0"
        with tf.device(None):
            assert _here() is None
        assert _here() == "device:CPU:0"
    assert _here() is None


def test_an_unknown_device_raises_at_entry_and_pushes_nothing():
    with pytest.raises(ValueError, match="Unknown device"):
        with tf.device("/device:GPU:99"):
            pass
    assert context._stack() == []


def test_a_decorated_function_enters_its_own_block_per_call():
    @tf.device("/cpu:0")
    def where(depth):
        return [_here()] + (where(depth - 1) if depth else [])

    assert where(2) == ["device:CPU:0"] * 3 and _here() is None


def test_exit_pops_the_stack_entry_pushed_it():
    with tf.device("/cpu:0"):
        fresh_thread()   # this thread's scopes start again inside the block
        with tf.device("/cpu:0"):
            pass
        assert context._stack() == []
    assert context._stack() == []


def test_a_device_type_the_machine_lacks_places_on_the_cpu_unless_soft_placement_is_off():
    """The variable guide's ``tf.device('GPU:0')`` on a GPU-less machine (replayed against
    TF in tests/tutorials/test_core_guides.py) runs on the CPU; with soft placement off the
    scope refuses, and a GPU number a machine with GPUs lacks is refused either way."""
    from simdist.hardware import machine

    machine.set_machine("gpus=0")
    try:
        assert tf.config.get_soft_device_placement()
        with tf.device("GPU:0"):
            assert _here() == "device:CPU:0"
        tf.config.set_soft_device_placement(False)
        with pytest.raises(ValueError, match="Unknown device"):
            with tf.device("GPU:0"):
                pass
    finally:
        tf.config.set_soft_device_placement(True)
        machine.set_machine(None)
