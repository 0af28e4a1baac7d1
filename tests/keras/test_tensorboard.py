"""The TensorBoard callback against TF 2.21's event files (record_tf_tensorboard.py): the
same TFRecord framing and header event, the same 'keras' summary metadata, TF's
TBNotInstalledError without the tensorboard package, and with it (patched in) scalars that
decode to the fit's history. The files are read with a decoder written for the tests
(tests/event_records.py: bitwise CRC-32C, generic protobuf wire parsing), independent of
simdist's encoder."""

import glob
import json
import os
import struct

import numpy as np
import pytest
from event_records import crc32c, fields, records

import simdist as tf
from simdist.framework import event_file
from simdist.keras import callbacks_tensorboard

FIX = os.path.join(os.path.dirname(__file__), "fixtures", "tf_tensorboard")


def _events(path):
    """[(step, {tag: (value, plugin_name, content, dtype, data_class)})] of a file."""
    out = []
    for rec in records(path)[1:]:  # the first is the header
        ev = fields(rec)
        values = {}
        for v in fields(ev[5][0])[1]:
            v = fields(v)
            tensor, meta = fields(v[8][0]), fields(v[9][0])
            plugin = fields(meta[1][0])
            dtype = tensor[1][0]
            value = (struct.unpack("<f", tensor[4][0])[0] if dtype == 1
                     else tensor[8][0].decode())
            values[v[1][0].decode()] = (value, plugin[1][0].decode(),
                                        plugin.get(2, [b""])[0], dtype,
                                        meta.get(4, [0])[0])
        out.append((ev.get(2, [0])[0], values))
    return out


def _fit(log_dir, epochs=2):
    m = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,),
                                                   kernel_initializer="ones", name="d")],
                            name="s")
    m.compile("sgd", "mse", metrics=["mae"])
    h = m.fit(np.ones((8, 3)), np.zeros((8, 2)), epochs=epochs, verbose=0, batch_size=4,
              validation_data=(np.ones((4, 3)), np.zeros((4, 2))),
              callbacks=[tf.keras.callbacks.TensorBoard(log_dir=log_dir)])
    return m, h


def _file(log_dir, sub):
    (path,) = glob.glob(os.path.join(log_dir, sub, "events.out.tfevents.*.v2"))
    return path


# --- tests ----------------------------------------------------------------------------
def test_crc32c_check_value():
    assert event_file.crc32c(b"123456789") == 0xE3069283 == crc32c(b"123456789")


def test_the_header_event_is_tfs_byte_for_byte():
    tf_header = records(os.path.join(FIX, "validation.v2"))
    assert len(tf_header) == 1
    wall_time = struct.unpack("<d", fields(tf_header[0])[1][0])[0]
    ours = event_file.event(wall_time, file_version="brain.Event:2",
                            writer="tensorflow.core.util.events_writer")
    assert ours == tf_header[0]
    assert open(os.path.join(FIX, "validation.v2"), "rb").read() == event_file.tfrecord(ours)


def test_without_tensorboard_fit_stops_as_tf_does(tmp_path, monkeypatch):
    monkeypatch.setattr(callbacks_tensorboard, "tensorboard_installed", lambda: False)
    with open(os.path.join(FIX, "run.json")) as f:
        recorded = json.load(f)["fit"]
    with pytest.raises(callbacks_tensorboard.TBNotInstalledError) as info:
        _fit(str(tmp_path))
    assert type(info.value).__name__ == recorded["error"]
    assert str(info.value) == recorded["message"]
    (step, ours), = _events(_file(tmp_path, "train"))
    (tf_step, theirs), = _events(os.path.join(FIX, "train.v2"))
    assert step == tf_step == 0 and list(ours) == list(theirs) == ["keras"]
    assert ours["keras"][1:] == theirs["keras"][1:]  # plugin, content, dtype, data class
    ours_cfg, tf_cfg = json.loads(ours["keras"][0]), json.loads(theirs["keras"][0])
    assert ours_cfg["class_name"] == tf_cfg["class_name"] == "Sequential"
    assert [lay["class_name"] for lay in ours_cfg["config"]["layers"]] == \
        [lay["class_name"] for lay in tf_cfg["config"]["layers"]]
    assert _events(_file(tmp_path, "validation")) == []


def test_with_tensorboard_the_scalars_are_the_history(tmp_path, monkeypatch):
    monkeypatch.setattr(callbacks_tensorboard, "tensorboard_installed", lambda: True)
    model, hist = _fit(str(tmp_path))
    train = _events(_file(tmp_path, "train"))[1:]  # after the 'keras' summary
    by_tag = {}
    for step, values in train:
        for tag, (value, plugin, content, dtype, data_class) in values.items():
            assert (plugin, content, dtype, data_class) == ("scalars", b"", 1, 1)
            by_tag.setdefault(tag, []).append((step, value))
    assert sorted(by_tag) == ["epoch_loss", "epoch_mae"]
    for name in ("loss", "mae"):
        steps, values = zip(*by_tag["epoch_" + name])
        assert steps == (0, 1)
        np.testing.assert_allclose(values, hist.history[name], rtol=1e-6)
    val = {}
    for step, values in _events(_file(tmp_path, "validation")):
        for tag, (value, *_rest) in values.items():
            val.setdefault(tag, []).append((step, value))
    assert [s for s, _ in val["evaluation_loss_vs_iterations"]] == [2, 4]  # 2 steps/epoch
    np.testing.assert_allclose([v for _, v in val["epoch_loss"]], hist.history["val_loss"],
                               rtol=1e-6)
    np.testing.assert_allclose([v for _, v in val["evaluation_mae_vs_iterations"]],
                               hist.history["val_mae"], rtol=1e-6)


def test_what_it_does_not_simulate_is_refused():
    with pytest.raises(NotImplementedError, match="histogram"):
        tf.keras.callbacks.TensorBoard(histogram_freq=1)
