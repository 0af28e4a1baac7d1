"""Tensors as TensorFlow shows and combines them: dtypes, printing, operators, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import simdist as tf


def test_dtype_inference():
    assert tf.constant(1.0).dtype == tf.float32
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant(np.float64(1.0)).dtype == tf.float64
    assert tf.constant([1, 2**40]).dtype == tf.int64


def test_str_and_repr_as_tf_prints_them():
    t = tf.constant([1.0, 2.0, 3.0])
    assert str(t) == "tf.Tensor([1. 2. 3.], shape=(3,), dtype=float32)"
    assert repr(t) == ("<tf.Tensor: shape=(3,), dtype=float32, "
                       "numpy=array([1., 2., 3.], dtype=float32)>")
    assert repr(tf.constant(2)) == "<tf.Tensor: shape=(), dtype=int32, numpy=2>"


def test_python_operand_takes_tensor_dtype():
    assert (tf.constant(1.0) + 2).dtype == tf.float32
    assert (2 * tf.constant(1.5)).numpy() == 3.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 tensor but is a float"):
        tf.constant(1) + 2.5


def test_dtype_mismatch_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:AddV2\]"):
        tf.add(tf.constant(1.0), tf.constant(1))


def test_matmul_shape_mismatch_names_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"):
        tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))


@pytest.mark.array_api  # also on array_api_strict: float16 values are host arrays there
def test_float16_matmul_accumulates_in_float32_and_rounds_once():
    # 4096 ones summed in float16 would stall at 2048 (2048 + 1 rounds back to 2048).
    ones = tf.ones([1, 4096], tf.float16)
    out = tf.matmul(ones, tf.transpose(ones))
    assert out.dtype == tf.float16 and float(out.numpy()[0, 0]) == 4096.0
    # ... and a result past float16's range is inf, without a NumPy warning.
    big = tf.fill([1, 2], tf.constant(256.0, tf.float16))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(tf.matmul(big, tf.transpose(big)).numpy()).all()


@pytest.mark.array_api  # also on array_api_strict: float16 values are host arrays there
def test_float16_cast_overflows_to_inf():
    assert np.isinf(tf.cast(tf.constant(70000.0), tf.float16).numpy())
    big = tf.constant(60000.0, tf.float16)
    assert np.isinf((big + big).numpy())


@pytest.mark.array_api  # also on array_api_strict, whose dtypes have no NumPy ``names``
def test_str_and_repr_of_a_tensor():
    t = tf.constant([1.0, 2.5])
    assert str(t) == "tf.Tensor([1.  2.5], shape=(2,), dtype=float32)"
    assert repr(t) == "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1. , 2.5], " \
                      "dtype=float32)>"


def test_integer_true_division_is_float64():
    assert (tf.constant(3) / tf.constant(2)).dtype == tf.float64
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.constant(3) // 0


def test_operators_on_variables():
    v = tf.Variable([1.0, 2.0])
    np.testing.assert_array_equal((v + 1).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal((1 - v).numpy(), [0.0, -1.0])
    np.testing.assert_array_equal((-v).numpy(), [-1.0, -2.0])
    np.testing.assert_array_equal((tf.constant([[1.0, 1.0]]) @ tf.Variable([[2.0], [3.0]]))
                                  .numpy(), [[5.0]])
    assert float(v[1]) == 2.0
    np.testing.assert_array_equal((v == tf.constant([1.0, 3.0])).numpy(), [True, False])
    np.testing.assert_array_equal((v < 2).numpy(), [True, False])


def test_equality_semantics():
    t = tf.constant([1, 2])
    assert (t == None) is False  # noqa: E711 - TF's behaviour for None
    assert (t != None) is True  # noqa: E711
    assert bool(tf.constant([1, 2]) == tf.constant([1, 2, 3])) is False
    with pytest.raises(TypeError):
        hash(t)


def test_numpy_interplay():
    t = tf.constant([1.0, 2.0])
    assert isinstance(np.float32(2) * t, tf.Tensor)
    np.testing.assert_array_equal(np.asarray(t), [1.0, 2.0])


def test_tensors_are_immutable():
    t = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError, match="immutable"):
        t[0] = 3.0
    copy = t.numpy()
    copy[0] = 3.0  # numpy() is a copy: the tensor keeps its value
    assert float(t[0]) == 1.0


def test_split_and_unstack():
    parts = tf.split(tf.constant([1, 2, 3, 4, 5]), [2, -1])
    assert [p.numpy().tolist() for p in parts] == [[1, 2], [3, 4, 5]]
    rows = tf.unstack(tf.constant([[1, 2], [3, 4]]))
    assert [r.numpy().tolist() for r in rows] == [[1, 2], [3, 4]]


def test_ops_run_on_the_default_device_and_advance_its_clock():
    from simdist.framework import context

    dev = context.default_device()
    before = dev.clock
    t = tf.matmul(tf.ones([64, 64]), tf.ones([64, 64]))
    assert t.device == dev.name
    assert dev.clock > before
