"""Names of a trace's tensors: function_names_cases.CASES replayed against TF 2.21's
recording (record_tf_function.py): the names of the tensors each program made inside its
trace, its value, and the graph's operations (``get_operations()``: names and types; for
one program also inputs, outputs, ``tensor.op`` and ``as_graph_def()``) where simdist
records TF's ops one by one."""

import json
import os

import pytest
from function_names_cases import CASES
from tf_snippets import check, scope_for, split_cpu

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_names.json")) as f:
    RECORDED = json.load(f)["results"]


# get_operations() (name and type of each op) is compared with TF's list where simdist
# records TF's ops one by one; these differ by design:
OPS_NOT_COMPARED = {
    "a nested tf.function call's op": "TF names the placeholder of a variable that a "
                                      "nested function captures by a number",
    "a nested function's outputs are its call op's": "as the one above",
}


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)
    assert set(OPS_NOT_COMPARED) <= set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_names_as_tensorflow(name):
    tf.keras.backend.clear_session()
    split_cpu(tf, 4)   # the recorder's logical CPUs (a program's MirroredStrategy uses them)
    scope = scope_for(tf, None)
    exec(CASES[name], scope)  # noqa: S102 - the recorded programs
    want = dict(RECORDED[name]["value"]["dict"])
    got = scope["out"]
    assert got["names"] == want["names"], name
    check(want["value"], got["value"], name)
    if name not in OPS_NOT_COMPARED:
        assert got["ops"] == want["ops"], name
    if "graph" in want:   # inputs, outputs, tensor.op, as_graph_def
        assert got["graph"] == want["graph"], name
