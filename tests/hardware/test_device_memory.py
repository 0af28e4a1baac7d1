"""Device memory accounting: failed allocations account nothing, and a tensor bigger than
its device raises TF's ResourceExhaustedError before the host builds it (replayed from TF
2.21's messages, recorded by record_tf_oom.py)."""

import gc
import json
import os
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from oom_cases import CASES, run

import simdist as tf
from simdist.hardware.machine import find_device
from simdist.testing import reset_world

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_oom.json")) as _f:
    RECORDED = json.load(_f)["results"]

# What TF's allocator message says (the allocator's own name differs: mklcpu, GPU_0_bfc).
_OOM = re.compile(r"OOM when allocating tensor with shape\[([\d,]*)\] and type (\w+) on (\S+) "
                  r"by allocator \S+ \[Op:(\w+)\]")


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_tensor_bigger_than_its_device_is_tf_s_oom_error(name):
    expected = RECORDED[name]
    got = run(tf, CASES[name])  # a MemoryError here would escape: not an OpError
    assert got.get("error") == expected["error"] == "ResourceExhaustedError", got
    first_line = got["message"].split("\n")[0]
    assert _OOM.search(first_line).groups() == _OOM.search(expected["message"]).groups()
    assert find_device("/cpu:0").memory_in_use >= 0


def _one_mib_gpu():
    reset_world()
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("GPU")[0],
        [tf.config.LogicalDeviceConfiguration(memory_limit=1)])  # 1 MiB
    return find_device("/gpu:0")


def test_a_failed_allocation_accounts_nothing_so_the_next_one_fails_too():
    dev = _one_mib_gpu()
    before = dev.memory_in_use
    with tf.device("/gpu:0"):
        host = np.ones(300_000, np.float32)  # 1.2 MB: too big, built on the host first
        for _ in range(3):
            with pytest.raises(tf.errors.ResourceExhaustedError):
                tf.constant(host)
            assert dev.memory_in_use == before
        with pytest.raises(tf.errors.ResourceExhaustedError):
            tf.Variable(host)
        assert dev.memory_in_use == before


@given(sizes=st.lists(st.integers(1, 700_000), min_size=2, max_size=6))
def test_in_use_never_negative_and_never_past_capacity(sizes):
    dev = _one_mib_gpu()
    live = []
    with tf.device("/gpu:0"):
        for n in sizes:
            try:
                live.append(tf.constant(np.zeros(n, np.uint8)))
            except tf.errors.ResourceExhaustedError:
                pass
            assert 0 <= dev.memory_in_use <= dev.memory_limit
            assert dev.memory_in_use == sum(t._nbytes for t in live)
    live.clear()
    assert dev.memory_in_use == 0


def test_oom_message_says_the_sizes_and_what_to_do():
    dev = _one_mib_gpu()
    with tf.device("/gpu:0"), pytest.raises(tf.errors.ResourceExhaustedError) as info:
        tf.zeros([1000, 1000])
    msg = str(info.value)
    assert msg.startswith(f"{{{{function_node __wrapped__Fill_device_{dev.name}}}}} OOM when "
                          f"allocating tensor with shape[1000,1000] and type float on "
                          f"{dev.name} by allocator GPU_0_bfc [Op:Fill] name: \n")
    assert "3.81 MiB" in msg and "1.00 MiB capacity" in msg and "smaller batch" in msg


def test_a_spec_probe_s_write_of_another_size_is_undone_with_its_memory():
    # an eager map's spec runs the function on a first element, its writes undone (TF's
    # trace writes nothing): a partial-shape variable's value and its memory are as before
    reset_world()
    dev = find_device("/gpu:0")
    with tf.device("/gpu:0"):
        v = tf.Variable(tf.zeros([2]), shape=tf.TensorShape(None))

    def grows(x):
        v.assign(tf.zeros([1000]))
        return tf.pad(tf.stack([x]), [[x % 3, 0]])   # by a value: simdist runs it eagerly

    gc.collect()
    before = dev.memory_in_use
    assert tf.data.Dataset.range(3).map(grows).element_spec.shape.as_list() == [None]
    gc.collect()
    assert v.numpy().tolist() == [0.0, 0.0]
    assert dev.memory_in_use == before
