"""Graphs of training steps (graph_step_cases.CASES) as TF 2.21 lists them: every op's
name, type and inputs in TF's order, replayed from record_tf_graph_steps.py's fixture."""

import json
import os

import pytest
from graph_step_cases import CASES
from tf_snippets import scope_for

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_graph_steps.json")) as f:
    RECORDED = json.load(f)["results"]


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_graph_as_tensorflow(name):
    tf.keras.backend.clear_session()
    scope = scope_for(tf, None)
    exec(CASES[name], scope)  # noqa: S102 - the recorded programs
    want = RECORDED[name]["value"]
    got = scope["out"]
    for i, (w, g) in enumerate(zip(want, got)):   # the first op that differs, named
        assert g == w, (name, i)
    assert len(got) == len(want), name
