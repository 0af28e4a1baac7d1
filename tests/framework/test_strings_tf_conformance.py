"""String tensors, tf.strings and tf.print of strings give what TF 2.21 gave for
string_cases.CASES (recorded by record_tf_strings.py): bytes, reprs, printed text, errors."""

import json
import os

import pytest
from string_cases import CASES
from tf_snippets import replay

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_strings.json")) as _f:
    RECORDED = json.load(_f)["results"]


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_tensorflow(name):
    replay(tf, CASES[name], RECORDED[name], name)
