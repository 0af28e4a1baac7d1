"""A confirming capture compiled ``like`` the program it may confirm (op_capture): an op of
the same type and attributes on arrays of the same shapes and dtypes takes that program's
verified kernel; any other op's kernel is verified again; the programs replay alike."""

import numpy as np
import pytest

import simdist as tf
from simdist.framework import kernels, op_capture
from simdist.hardware import backend as _backend

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="op programs lower ops on the NumPy backend only (op_capture.py)")


def _compile(fn, inputs, like=None):
    """``fn(*inputs)`` captured and compiled (``like``: the program it may confirm)."""
    kernels.ensure_installed()
    cap = op_capture.Capture(False)
    with cap.watching():
        out = fn(*inputs)
    program = cap.compile({id(x): i for i, x in enumerate(inputs)}, [out], like=like)
    assert cap.refused is None and program is not None
    return program, out


def _ops(program):
    return [s for s in program.steps if type(s) is op_capture._OpStep]


def _square(n, seed):
    return tf.constant(np.random.default_rng(seed).standard_normal((n, n), np.float32))


def test_a_confirming_capture_takes_the_kernels_of_the_same_ops():
    def fn(x, w):
        return tf.nn.relu(tf.matmul(x, w) + x)

    first, _ = _compile(fn, [_square(3, 0), _square(3, 1)])
    x, w = _square(3, 2), _square(3, 3)
    again, out = _compile(fn, [x, w], like=first)
    assert again.same_as(first)
    assert [s.kernel for s in _ops(again)] == [s.kernel for s in _ops(first)]
    got = again.run([x, w])[again.result[0]]
    assert got.numpy().tobytes() == out.numpy().tobytes()


def test_other_attributes_or_shapes_verify_the_kernel_again():
    first, _ = _compile(lambda x, w: tf.matmul(x, w), [_square(3, 0), _square(3, 1)])
    x, w = _square(3, 2), _square(3, 3)
    # the same op type and shapes, another attribute: its own kernel (w transposed)
    other, out = _compile(lambda x, w: tf.matmul(x, w, transpose_b=True), [x, w], like=first)
    assert _ops(other)[0].kernel is not _ops(first)[0].kernel
    got = other.run([x, w])[other.result[0]]
    assert got.numpy().tobytes() == out.numpy().tobytes()
    assert got.numpy().tobytes() != (x.numpy() @ w.numpy()).tobytes()
    # other shapes: verified again
    x4, w4 = _square(4, 4), _square(4, 5)
    bigger, _ = _compile(lambda x, w: tf.matmul(x, w), [x4, w4], like=first)
    assert _ops(bigger)[0].kernel is not _ops(first)[0].kernel
    assert not bigger.same_as(first)
