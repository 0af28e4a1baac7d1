"""tf.summary.scalar with the tensorboard package (patched in: neither venv has it; without
it TF's TBNotInstalledError is replayed in tests/train/test_saved_module_tf_conformance.py):
the event written to the default writer, the step taken from as_default, nothing written
without a default writer. The event's form is the TensorBoard callback's, checked against
TF's files in tests/keras/test_tensorboard.py."""

import os
import struct

import pytest
from event_records import fields, records

import simdist as tf
from simdist.framework import summary_ops


def _scalars(logdir):
    (name,) = os.listdir(logdir)
    out = []
    for rec in records(os.path.join(logdir, name))[1:]:
        ev = fields(rec)
        value = fields(fields(ev[5][0])[1][0])
        tensor = fields(value[8][0])
        plugin = fields(fields(value[9][0])[1][0])
        out.append((ev.get(2, [0])[0], value[1][0].decode(), plugin[1][0].decode(),
                    struct.unpack("<f", tensor[4][0])[0]))
    return out


def test_scalar_writes_to_the_default_writer(tmp_path, monkeypatch):
    monkeypatch.setattr(summary_ops, "tensorboard_installed", lambda: True)
    assert tf.summary.scalar("loss", 1.0, step=0) is False   # no default writer
    writer = tf.summary.create_file_writer(str(tmp_path))
    with writer.as_default(step=3):
        assert tf.summary.scalar("loss", tf.constant(0.5)) is True
        assert tf.summary.scalar("acc", 0.25, step=7) is True
    with writer.as_default(), pytest.raises(ValueError, match="No step set"):
        tf.summary.scalar("loss", 1.0)
    assert _scalars(str(tmp_path)) == [(3, "loss", "scalars", 0.5), (7, "acc", "scalars", 0.25)]
