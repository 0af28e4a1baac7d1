"""list_files, TextLineDataset, interleave, cardinality, options and FILE auto-sharding give
what TF 2.21 gave for file_cases.CASES (recorded by record_tf_files.py)."""

import json
import os

import pytest
from file_cases import CASES
from tf_snippets import replay

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_files.json")) as _f:
    RECORDED = json.load(_f)["results"]


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_tensorflow(name):
    replay(tf, CASES[name], RECORDED[name], name)
