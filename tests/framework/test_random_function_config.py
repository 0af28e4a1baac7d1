"""tf.random seeding, tf.function's trace count, and tf.config on the simulated machine."""

from __future__ import annotations

import numpy as np
import pytest

import simdist as tf
from simdist.framework.ops import random_ops
from simdist.framework.tensor_spec import TensorSpec


# --- random -----------------------------------------------------------------------------
def _draws():
    return [random_ops.uniform([3]).numpy(), random_ops.normal([2, 2]).numpy(),
            random_ops.uniform([2], seed=7).numpy(), random_ops.uniform([2], seed=7).numpy()]


def test_global_seed_makes_sequences_reproducible():
    tf.random.set_seed(1234)
    first = _draws()
    tf.random.set_seed(1234)
    second = _draws()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    # successive calls differ, also with the same op seed (TF's eager semantics)
    assert not np.array_equal(first[2], first[3])


def test_op_seed_without_global_seed_is_reproducible_after_reset():
    from simdist.testing import reset_world

    a = random_ops.uniform([4], seed=3).numpy()
    reset_world()
    b = random_ops.uniform([4], seed=3).numpy()
    np.testing.assert_array_equal(a, b)


def test_random_ranges_and_dtypes():
    tf.random.set_seed(0)
    u = random_ops.uniform([1000], minval=2.0, maxval=3.0)
    assert u.dtype == tf.float32 and 2.0 <= u.numpy().min() and u.numpy().max() < 3.0
    i = random_ops.uniform([100], maxval=10, dtype=tf.int32)
    assert i.dtype == tf.int32 and set(i.numpy()) <= set(range(10))
    n = random_ops.normal([20000], mean=1.0, stddev=2.0, dtype=tf.float64)
    assert abs(n.numpy().mean() - 1.0) < 0.1 and abs(n.numpy().std() - 2.0) < 0.1
    t = random_ops.truncated_normal([1000])
    assert np.abs(t.numpy()).max() <= 2.0
    with pytest.raises(ValueError, match="Must specify maxval"):
        random_ops.uniform([2], dtype=tf.int32)


# --- function ---------------------------------------------------------------------------
def test_retracing_counts_like_tf():
    @tf.function
    def f(x):
        return x * 2

    f(tf.constant(1.0))
    f(tf.constant(2.0))  # same shape and dtype: no retrace
    assert f.experimental_get_tracing_count() == 1
    f(tf.constant([1.0, 2.0]))  # new shape
    f(tf.constant(1))  # new dtype
    assert f.experimental_get_tracing_count() == 3
    f(1)
    f(2)  # Python values are keyed by value
    assert f.experimental_get_tracing_count() == 5
    assert float(f(tf.constant(3.0))) == 6.0


def test_input_signature_traces_once_and_rejects_mismatches():
    @tf.function(input_signature=[TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x)

    f(tf.constant([1.0]))
    f(tf.constant([1.0, 2.0, 3.0]))
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f(tf.constant([1, 2]))


def test_reduce_retracing_relaxes_shapes():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x + 1

    for n in (1, 2, 3, 4):
        f(tf.ones([n]))
    assert f.experimental_get_tracing_count() == 2


def test_function_as_method_has_per_instance_traces():
    class Model:
        def __init__(self, k):
            self.k = k

        @tf.function
        def call(self, x):
            return x * self.k

    a, b = Model(2.0), Model(3.0)
    assert float(a.call(tf.constant(1.0))) == 2.0
    assert float(b.call(tf.constant(1.0))) == 3.0
    a.call(tf.constant(5.0))
    assert a.call.experimental_get_tracing_count() == 1
    assert b.call.experimental_get_tracing_count() == 1


def test_gradients_flow_through_functions():
    @tf.function
    def f(x):
        return x * x

    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = f(v)
    assert float(tape.gradient(y, v)) == 6.0


# --- config -----------------------------------------------------------------------------
def test_config_reports_the_simulated_machine():
    from simdist.framework import config

    gpus = config.list_physical_devices("GPU")
    assert [d.name for d in gpus] == [f"/physical_device:GPU:{i}" for i in range(4)]
    cpu = config.list_physical_devices("CPU")[0]
    config.set_logical_device_configuration(cpu, [config.LogicalDeviceConfiguration()] * 2)
    assert len(config.get_logical_device_configuration(cpu)) == 2
    config.experimental.set_memory_growth(gpus[0], True)
    assert config.experimental.get_memory_growth(gpus[0]) is True
    with pytest.raises(ValueError, match="non-GPU"):
        config.experimental.set_memory_growth(cpu, True)
    names = [d.name for d in config.list_logical_devices("CPU")]
    assert names == ["/device:CPU:0", "/device:CPU:1"]
    with pytest.raises(RuntimeError, match="initialized"):
        config.set_logical_device_configuration(cpu, [config.LogicalDeviceConfiguration()])
    with pytest.raises(RuntimeError, match="initialized"):
        config.experimental.set_memory_growth(gpus[1], True)
