"""The simulated machine: device names, memory accounting, clocks, presets, trace export."""

import json

import numpy as np
import pytest

import simdist as tf
from simdist.hardware.device_spec import canonicalize
from simdist.hardware.machine import find_device, get_machine
from simdist.testing import reset_world


@pytest.mark.parametrize("name, canonical", [
    ("/gpu:0", "/job:localhost/replica:0/task:0/device:GPU:0"),
    ("GPU:1", "/job:localhost/replica:0/task:0/device:GPU:1"),
    ("/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:0"),
    ("/job:worker/task:1/device:GPU:0", "/job:worker/replica:0/task:1/device:GPU:0"),
    # A device type alone, or index '*', is any device of the type (TF's DeviceSpec gives
    # '/device:CPU:*'); eager TF places `with tf.device("cpu")` ops on CPU:0.
    ("cpu", "/job:localhost/replica:0/task:0/device:CPU:0"),
    ("/gpu", "/job:localhost/replica:0/task:0/device:GPU:0"),
    ("/cpu:*", "/job:localhost/replica:0/task:0/device:CPU:0"),
])
def test_device_names_canonicalize_like_tf(name, canonical):
    assert canonicalize(name) == canonical


def test_malformed_and_unknown_devices_are_clear_errors():
    with pytest.raises(ValueError, match="Cannot parse device name"):
        canonicalize("foo")
    with pytest.raises(ValueError, match="this machine has"):
        find_device("/gpu:9")


def test_allocation_past_capacity_is_resource_exhausted_naming_device_and_sizes():
    reset_world()
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("GPU")[0],
        [tf.config.LogicalDeviceConfiguration(memory_limit=1)])  # 1 MiB
    with tf.device("/gpu:0"):
        tf.zeros([100_000])  # 400 kB fits
        with pytest.raises(tf.errors.ResourceExhaustedError) as info:
            tf.zeros([1_000_000])  # 4 MB does not
    msg = str(info.value)
    assert "GPU:0" in msg and "3.81 MiB" in msg and "1.00 MiB capacity" in msg


def test_memory_is_released_when_a_tensor_dies():
    dev = find_device("/gpu:0")
    before = dev.memory_in_use
    with tf.device("/gpu:0"):
        t = tf.ones([1024])
    assert dev.memory_in_use == before + 4096
    del t
    assert dev.memory_in_use == before


def test_ops_advance_their_device_clock_by_a_roofline_cost():
    dev = find_device("/gpu:1")
    with tf.device("/gpu:1"):
        a = tf.ones([256, 256])
        t0 = dev.clock
        tf.matmul(a, a)
    flops = 2 * 256**3
    expected = dev.spec.launch_s + max(flops / dev.spec.flops, 3 * 256 * 256 * 4 / dev.spec.mem_bw)
    assert dev.clock - t0 == pytest.approx(expected)
    assert find_device("/gpu:2").clock == 0.0


def test_machine_from_environment_variable(monkeypatch):
    monkeypatch.setenv("SIMDIST_MACHINE", "dgx-h100")
    reset_world()
    assert len(tf.config.list_physical_devices("GPU")) == 8
    assert get_machine().devices_of_type("GPU")[0].spec.name == "H100"
    monkeypatch.setenv("SIMDIST_MACHINE", "gpus=2,kind=A100")
    reset_world()
    assert len(tf.config.list_logical_devices("GPU")) == 2
    monkeypatch.setenv("SIMDIST_MACHINE", "gpus=two")
    reset_world()
    with pytest.raises(ValueError, match="gpus=N,kind=KIND"):
        get_machine()


def test_four_logical_cpus_then_no_more_changes():
    reset_world("cpu")
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == [
        f"/device:CPU:{i}" for i in range(4)]
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
    assert strategy.num_replicas_in_sync == 4
    with pytest.raises(RuntimeError, match="cannot be modified after being initialized"):
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()])


def test_trace_exports_chrome_json_with_one_thread_per_device(tmp_path):
    strategy = tf.distribute.MirroredStrategy()
    strategy.run(lambda: tf.matmul(tf.ones([8, 8]), tf.ones([8, 8])))
    path = tmp_path / "trace.json"
    get_machine().trace.save(str(path))
    data = json.loads(path.read_text())
    spans = [e for e in data["traceEvents"] if e["ph"] == "X"]
    names = {e["args"]["name"] for e in data["traceEvents"] if e["name"] == "thread_name"}
    assert {"device:GPU:0", "device:GPU:3"} <= names
    assert any(e["name"] == "MatMul" for e in spans)
    assert all(e["dur"] >= 0 for e in spans)


def test_backend_namespace_is_numpy_by_default():
    from simdist.hardware import backend

    assert backend.xp is np
    with pytest.raises(ValueError, match="Unknown backend"):
        backend.set_backend("jax")
