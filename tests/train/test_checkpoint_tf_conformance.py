"""Checkpoints save, name, restore, defer and refuse what TF 2.15 did for
checkpoint_cases.CASES (recorded by record_tf_checkpoint.py)."""

import json
import os

import pytest
from checkpoint_cases import CASES
from tf_snippets import replay

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_checkpoint.json")) as _f:
    RECORDED = json.load(_f)["results"]


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_tensorflow(name):
    tf.keras.backend.clear_session()
    replay(tf, CASES[name], RECORDED[name], name)
