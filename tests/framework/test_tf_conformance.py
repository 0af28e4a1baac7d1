"""simdist's ops give what TensorFlow gave: values, dtypes, shapes, exception types and
messages (eager kernel errors whole: TF's ``{{function_node ...}}`` and `` name: ``, the
device of simdist's GPU k read as the recorder's CPU k), for the expressions recorded by
``record_tf_ops.py`` in ``fixtures/tf_ops.json``."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from tf_snippets import _masked

import simdist

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_ops.json")) as _f:
    RECORDED = json.load(_f)["results"]

# Where simdist's message deliberately differs from TF's (TF's is the C++ kernel's text).
MESSAGE_NOT_COMPARED = {
    "tf.sqrt(tf.constant(4))",  # TF appends its NodeDef dump
    "tf.matmul(tf.ones([4, 2, 3]), tf.ones([3, 5]))",
}


def _check(expected, got, expr):
    if expected["kind"] == "list":
        assert isinstance(got, (list, tuple)) and len(got) == len(expected["items"]), expr
        for e, g in zip(expected["items"], got):
            _check(e, g, expr)
        return
    if expected["kind"] == "python":
        assert got is expected["value"] or got == expected["value"], expr
        return
    assert got.dtype.name == expected["dtype"], f"{expr}: dtype {got.dtype.name}"
    assert list(got.shape) == expected["shape"], f"{expr}: shape {got.shape}"
    want = np.array(expected["values"], dtype=object if expected["dtype"] != "bool" else bool)
    have = np.asarray(got)
    if have.dtype.kind == "f":
        want = np.array([np.nan if v is None else v for v in np.ravel(want)],
                        dtype=np.float64).reshape(have.shape)
        rtol = 1e-3 if have.dtype == np.float16 else 1e-6
        np.testing.assert_allclose(have.astype(np.float64), want, rtol=rtol, atol=1e-6,
                                   err_msg=expr)
    else:
        np.testing.assert_array_equal(have, want.astype(have.dtype), err_msg=expr)


@pytest.mark.parametrize("expr", sorted(RECORDED))
def test_same_result_as_tensorflow(expr):
    expected = RECORDED[expr]
    if expected["kind"] == "error":
        with pytest.raises(Exception) as info:
            eval(expr, {"tf": simdist})  # noqa: S307 - recorded expressions
        assert type(info.value).__name__ == expected["type"], (expr, str(info.value))
        if expr not in MESSAGE_NOT_COMPARED:   # TF's whole text, then simdist's advice
            assert _masked(str(info.value)).startswith(expected["message"]), (
                f"{expr}\n simdist: {info.value}\n tf:      {expected['message']}")
        return
    _check(expected, eval(expr, {"tf": simdist}), expr)  # noqa: S307
