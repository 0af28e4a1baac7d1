"""GradientTape behaviour as in TensorFlow: watching, persistence, nesting, structures."""

from __future__ import annotations

import numpy as np
import pytest

import simdist as tf


def test_second_derivative_of_cube_is_6x():
    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    assert float(dy) == pytest.approx(12.0)
    assert float(d2y) == pytest.approx(12.0)  # 6 * x


def test_constants_need_watch_variables_are_watched():
    x = tf.constant(3.0)
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = x * x + v * v
    gx, gv = tape.gradient(y, [x, v])
    assert gx is None
    assert float(gv) == 6.0


def test_watch_accessed_variables_false():
    v = tf.Variable(1.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        y = v * 2.0
    assert tape.gradient(y, v) is None


def test_unconnected_gradients_zero():
    x = tf.constant([1.0, 2.0])
    z = tf.constant([5.0, 6.0])
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        y = tf.reduce_sum(x * 2.0)
    gz = tape.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    np.testing.assert_array_equal(gz.numpy(), [0.0, 0.0])
    assert gz.dtype == tf.float32


def test_non_persistent_tape_can_be_used_once():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(y, x)


def test_persistent_tape_gives_several_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(y, x)) == 6.0
    assert float(tape.gradient(z, x)) == 108.0  # 4 x^3


def test_structured_sources_give_same_structure():
    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([[3.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(a * a) + tf.reduce_sum(b)
    grads = tape.gradient(loss, {"a": a, "nested": [b]})
    np.testing.assert_array_equal(grads["a"].numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(grads["nested"][0].numpy(), [[1.0]])


def test_non_scalar_target_sums_like_tf():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2.0, 4.0, 6.0])


def test_output_gradients_weight_the_target():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 3.0
    g = tape.gradient(y, x, output_gradients=tf.constant([1.0, 10.0]))
    np.testing.assert_array_equal(g.numpy(), [3.0, 30.0])


def test_stop_gradient_blocks():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.stop_gradient(x)
    assert float(tape.gradient(y, x)) == 2.0


def test_gradient_through_slicing_and_matmul():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(w, w)[0, :])
    # d/dw sum_j (w w)_{0j}
    wn = np.array([[1.0, 2.0], [3.0, 4.0]])
    e0 = np.array([[1.0, 1.0], [0.0, 0.0]])
    expected = e0 @ wn.T + wn.T @ e0
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), expected)


def test_integer_ops_do_not_break_tapes():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        idx = tf.argmax(x)
        y = tf.reduce_sum(x) + tf.cast(idx, tf.float32)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [1.0, 1.0])


def test_jacobian():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), [[2.0, 0.0], [0.0, 4.0]])
