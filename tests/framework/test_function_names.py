"""Names of a trace's tensors: function_names_cases.CASES replayed against TF 2.21's
recording (record_tf_function.py): the names of the tensors each program made inside its
trace, and its value (the recorded operation lists are for reference)."""

import json
import os

import pytest
from function_names_cases import CASES
from tf_snippets import check, scope_for

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_names.json")) as f:
    RECORDED = json.load(f)["results"]


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_names_as_tensorflow(name):
    tf.keras.backend.clear_session()
    scope = scope_for(tf, None)
    exec(CASES[name], scope)  # noqa: S102 - the recorded programs
    want = dict(RECORDED[name]["value"]["dict"])
    got = scope["out"]
    assert got["names"] == want["names"], name
    check(want["value"], got["value"], name)
