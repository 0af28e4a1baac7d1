"""Keras layers, models, activations and losses give what TF 2.15 gave for keras_cases.CASES
(recorded by record_tf_keras.py): values, shapes, weight names and orders, and errors."""

import json
import os
import re

import numpy as np
import pytest
from keras_cases import CASES

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_keras.json")) as _f:
    RECORDED = json.load(_f)["results"]


def _masked(message):
    """Addresses and class paths differ between the frameworks by nature."""
    return re.sub(r"<class '[^']*'>", "<class>", re.sub(r" at 0x[0-9a-f]+", " at 0x", message))


def _check(expected, got, name):
    if isinstance(expected, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), (name, got)
        for e, g in zip(expected, got):
            _check(e, g, name)
    elif isinstance(expected, dict) and "dict" in expected:
        _check(expected["dict"], sorted(dict(got).items()), name)
    elif isinstance(expected, dict):
        have = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
        assert str(have.dtype) == expected["dtype"], (name, have.dtype)
        assert list(have.shape) == expected["shape"], (name, have.shape)
        np.testing.assert_allclose(have.astype(np.float64), np.array(expected["values"]),
                                   rtol=1e-5, atol=2e-6, err_msg=name)
    elif isinstance(expected, str) and not isinstance(got, str):
        assert str(tuple(got)) == expected, (name, got)  # a shape
    elif isinstance(expected, dict) is False and expected is None:
        assert got is None, (name, got)
    else:
        assert got == expected, (name, got)


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_tensorflow(name):
    expected = RECORDED[name]
    tf.keras.backend.clear_session()
    scope = {"tf": tf, "np": np, "L": tf.keras.layers, "S": tf.distribute.MirroredStrategy()}
    if "error" in expected:
        with pytest.raises(Exception) as info:
            exec(CASES[name], scope)  # noqa: S102 - the recorded cases
        assert type(info.value).__name__ == expected["error"], (name, info.value)
        # TF wraps errors ("Exception encountered when calling layer ...", "in user code:",
        # "Graph execution error:"); simdist's first line must appear in TF's message (its
        # further lines may say what to do).
        first_line = _masked(str(info.value).split("\n")[0])
        assert first_line in _masked(expected["message"]), (name, str(info.value))
        return
    exec(CASES[name], scope)  # noqa: S102
    _check(expected["value"], scope["out"], name)
