"""tf.cond, tf.while_loop, tf.case, tf.switch_case and AutoGraph's control flow give what
TF 2.21 gave for control_flow_cases.CASES (recorded by record_tf_control_flow.py): values,
structures, gradients, exception types and messages (TF's "in user code:" frames too). Cases
in NEEDS_TRACING (none today) are expected to fail, with the reason given there."""

import json
import os
import re

import pytest
from control_flow_cases import AUTOGRAPH_PROGRAMS, CASES, NEEDS_TRACING, TWO_CPUS
from tf_snippets import _masked, _user_code, replay

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_control_flow.json")) as _f:
    RECORDED = json.load(_f)["results"]


def _mask_tensors(text: str) -> str:
    """A tensor in a message: TF's graph prints Tensor("x:0", ...), eager tf.Tensor(3, ...)."""
    return _masked(re.sub(r'(tf\.)?Tensor\((".*?"|[^,]*), shape=\([^)]*\), dtype=\w+\)', "<tensor>",
                          text))


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)
    assert set(NEEDS_TRACING) <= set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_tensorflow(name):
    if name in NEEDS_TRACING:
        pytest.xfail(f"needs tf.function tracing: {NEEDS_TRACING[name]}")
    expected = dict(RECORDED[name])
    # TF's recorder configured its 2 CPUs before any strategy existed
    if TWO_CPUS in AUTOGRAPH_PROGRAMS.get(name, ""):
        exec(TWO_CPUS, {"tf": tf})  # noqa: S102 - the recorded set-up
    if "error" in expected:
        expected["message"] = _mask_tensors(expected["message"])
        code = CASES[name]
        with pytest.raises(Exception) as info:
            replay(tf, code, {"value": None}, name)
        assert type(info.value).__name__ == expected["error"], (name, info.value)
        if _user_code(expected["message"], _mask_tensors(str(info.value)), name):
            return   # TF's "in user code:" frames and cause compared
        first_line = _mask_tensors(str(info.value).split("\n")[0])
        assert first_line in expected["message"], (name, str(info.value))
        return
    replay(tf, CASES[name], expected, name)
