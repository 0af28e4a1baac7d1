"""A kernel verified once serves ops like it: a confirming capture compiled ``like`` the
program it may confirm (op_capture), and an op asked about in a ``kernels.remembered`` span
(a plan's build: every replica's section), take the kernel verified for an op of the same
type and attributes on arrays of the same shapes and dtypes; any other op's kernel is
verified on its own arrays; the programs replay alike."""

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


def test_a_remembered_span_verifies_each_kind_of_op_once(monkeypatch):
    kernels.ensure_installed()
    runs = []
    verify = kernels._verified
    monkeypatch.setattr(kernels, "_verified", lambda *a: runs.append(a[0]) or verify(*a))
    a, b, c = (np.random.default_rng(s).standard_normal((2, 3)).astype(np.float32)
               for s in range(3))
    attrs = {"transpose_a": False, "transpose_b": True}

    def product(x, y, **kw):
        return tf.matmul(x, y, **kw).numpy()

    with kernels.remembered():
        first = kernels.verified("MatMul", attrs, [a, b], product(a, b, transpose_b=True))
        assert first is not None
        assert kernels.verified("MatMul", dict(attrs), [c, a],
                                product(c, a, transpose_b=True)) is first
        assert runs == ["MatMul"]
        # other attributes, another dtype: verified on their own arrays
        plain = {"transpose_a": False, "transpose_b": False}
        assert kernels.verified("MatMul", plain, [a, b.T.copy()],
                                product(a, b.T.copy())) not in (None, first)
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        assert kernels.verified("MatMul", attrs, [a64, b64],
                                product(a64, b64, transpose_b=True)) not in (None, first)
        assert runs == ["MatMul"] * 3
        # a kernel that failed its verification is not taken for the next op like it
        assert kernels.verified("AddV2", {}, [a, b], a - b) is None
        assert kernels.verified("AddV2", {}, [b, c], b + c) is not None
        assert runs == ["MatMul"] * 3 + ["AddV2"] * 2
    assert kernels.verified("MatMul", attrs, [c, a],
                            product(c, a, transpose_b=True)) not in (None, first)   # span over
