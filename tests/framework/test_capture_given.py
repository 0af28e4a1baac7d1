"""What a captured run is given (op_capture.given): the execution's tensors by id, and
their teaching tags, so that a run which tags one of them is seen (``retagged``) and not
made a program (a replay would not tag it)."""

import simdist as tf
from simdist.framework import op_capture


def test_the_tensors_given_and_a_changed_tag_among_them():
    x, y = tf.constant([1.0]), tf.constant([2.0])
    y._teach_tag = "batch_mean"
    ids, tags = op_capture.given({"x": x, "y": y, "n": 3, "stdout": None})
    assert ids == {id(x): "x", id(y): "y"}
    assert not op_capture.retagged(tags)
    y._teach_tag = "batch_mean"   # the same tag again: nothing changed
    tf.constant([3.0])._teach_tag = "batch_mean"   # a tensor it was not given
    assert not op_capture.retagged(tags)
    x._teach_tag = "batch_mean"
    assert op_capture.retagged(tags)
