"""tf.cond / tf.while_loop inside traced functions: graph_control_flow_cases.CASES replayed
against TF 2.21 (record_tf_function.py). Where simdist does not export tf.cond /
tf.while_loop yet (the AutoGraph work adds them), the test routes them to the FuncGraph's
cond / while_loop on symbolic values, which is what they call in a trace."""

import os

import pytest
from graph_control_flow_cases import CASES
from tf_snippets import replay

import simdist as tf
from simdist.framework import func_graph

with open(os.path.join(os.path.dirname(__file__), "fixtures",
                       "tf_graph_control_flow.json")) as _f:
    import json

    RECORDED = json.load(_f)["results"]


def _cond(pred, true_fn, false_fn, name=None):
    graph = func_graph.current()
    if graph is not None and func_graph.is_symbolic(pred):
        return graph.cond(pred, true_fn, false_fn, name)
    return true_fn() if pred else false_fn()


def _while_loop(cond, body, loop_vars, shape_invariants=None, maximum_iterations=None,
                name=None):
    graph = func_graph.current()
    assert graph is not None, "these cases only loop inside traced functions"
    return graph.while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations, name)


@pytest.fixture(autouse=True)
def _control_flow(monkeypatch):
    if not hasattr(tf, "cond"):
        monkeypatch.setattr(tf, "cond", _cond, raising=False)
    if not hasattr(tf, "while_loop"):
        monkeypatch.setattr(tf, "while_loop", _while_loop, raising=False)


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_tensorflow(name):
    replay(tf, CASES[name], RECORDED[name], name)
