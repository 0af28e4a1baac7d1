"""What a captured run is given (op_capture.given): the execution's tensors by id, whose
teaching tags the capture's hooks watch, so that a run which changes one of them is seen
(``retagged``) and not made a program (a replay would not tag it)."""

import pytest

import simdist as tf
from simdist.framework import op_capture
from simdist.framework.tensor import Tensor


def _tag(t, tag):
    t._teach_tag = tag


def _untag(t):
    del t._teach_tag


@pytest.mark.parametrize("run, seen", [
    (lambda x, y: None, False),
    (lambda x, y: _tag(y, "batch_mean"), False),            # the tag it had
    (lambda x, y: _tag(tf.constant([3.0]), "batch_mean"), False),   # not given
    (lambda x, y: _tag(x, "batch_mean"), True),
    (lambda x, y: (_tag(x, "batch_mean"), _untag(x)), False),   # back as it was
    (lambda x, y: _untag(y), True),
])
def test_a_run_that_changes_a_given_tensors_tag_is_seen(run, seen):
    slot = Tensor.__dict__["_teach_tag"]
    x, y = tf.constant([1.0]), tf.constant([2.0])
    y._teach_tag = "batch_mean"
    env = {"x": x, "y": y, "n": 3, "stdout": None}
    cap = op_capture.Capture(False)
    cap.given = op_capture.given(env)
    assert cap.given == {id(x): "x", id(y): "y"}
    with cap.watching():
        run(x, y)
    assert cap.retagged() is seen
    assert Tensor.__dict__["_teach_tag"] is slot   # the slot itself again
    assert getattr(x, "_teach_tag", None) in (None, "batch_mean")
