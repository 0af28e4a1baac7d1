"""Convolution and pooling ops beyond what TF recorded (tests/keras/cnn_layer_cases.py): their
cost on the simulated device is priced from their FLOPs, and a MNIST-sized batch runs."""

import numpy as np
import pytest

import simdist as tf
from simdist.hardware.machine import find_device


def _cost(dev, flops, nbytes):
    return dev.spec.launch_s + max(flops / dev.spec.flops, nbytes / dev.spec.mem_bw)


def test_conv2d_and_its_gradients_advance_the_clock_by_their_flops():
    dev = find_device("/gpu:1")
    with tf.device("/gpu:1"):
        x = tf.ones([8, 28, 28, 1])
        f = tf.ones([3, 3, 1, 32])
        t0 = dev.clock
        y = tf.nn.conv2d(x, f, 1, "VALID")
        t1 = dev.clock
    flops = 2 * 8 * 26 * 26 * 3 * 3 * 1 * 32
    nbytes = 4 * (8 * 28 * 28 + 9 * 32 + 8 * 26 * 26 * 32)
    assert t1 - t0 == pytest.approx(_cost(dev, flops, nbytes))
    assert y.shape == (8, 26, 26, 32)


def test_pooling_is_priced_per_window_tap():
    dev = find_device("/gpu:2")
    with tf.device("/gpu:2"):
        x = tf.ones([4, 8, 8, 3])
        t0 = dev.clock
        tf.nn.max_pool2d(x, 2, 2, "VALID")
    flops = 4 * 4 * 4 * 2 * 2 * 3
    nbytes = 4 * (4 * 8 * 8 * 3 + 4 * 4 * 4 * 3)
    assert dev.clock - t0 == pytest.approx(_cost(dev, flops, nbytes))


def test_mnist_sized_training_step_matches_numpy():
    """A 64-image 28x28 batch through conv + pool + gradient, against a direct NumPy loop."""
    rng = np.random.RandomState(0)
    x = rng.rand(64, 28, 28, 1).astype(np.float32)
    f = rng.normal(size=(3, 3, 1, 4)).astype(np.float32)
    fv = tf.Variable(f)
    with tf.GradientTape() as tape:
        y = tf.nn.conv2d(x, fv, 1, "VALID")
        loss = tf.reduce_sum(tf.nn.max_pool2d(y, 2, 2, "VALID"))
    g = tape.gradient(loss, fv).numpy()
    direct = np.zeros((64, 26, 26, 4), np.float64)
    for i in range(3):
        for j in range(3):
            direct += x[:, i:i + 26, j:j + 26, :].astype(np.float64) @ f[i, j][None].astype(
                np.float64)
    np.testing.assert_allclose(y.numpy(), direct, rtol=1e-5, atol=1e-5)
    # The filter gradient: each tap's inputs summed where a window's maximum was.
    win = direct.reshape(64, 13, 2, 13, 2, 4).transpose(0, 1, 3, 2, 4, 5).reshape(64, 13, 13,
                                                                                  4, 4)
    arg = win.argmax(axis=3)
    mask = np.zeros((64, 13, 13, 4, 4))
    np.put_along_axis(mask, arg[:, :, :, None, :], 1.0, axis=3)
    mask = mask.reshape(64, 13, 13, 2, 2, 4).transpose(0, 1, 3, 2, 4, 5).reshape(64, 26, 26, 4)
    want = np.stack([np.stack([np.einsum("nhw,nhwo->o", x[:, i:i + 26, j:j + 26, 0], mask)
                               for j in range(3)]) for i in range(3)])[:, :, None, :]
    np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-3)
