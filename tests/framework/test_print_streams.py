"""tf.print writes what TF recorded (record_tf_framework.py, "tf.print summarizes long
dimensions", printed there to a file) to stderr by default, to stdout or to TF's logger."""

import json
import logging
import os
import sys

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_framework.json")) as _f:
    RECORDED = json.load(_f)["results"]["tf.print summarizes long dimensions"]["value"]


def test_stderr_is_the_default_stream(capsys):
    tf.print(tf.range(20))
    captured = capsys.readouterr()
    assert (captured.err, captured.out) == (RECORDED[0], "")


def test_stdout_when_asked(capsys):
    tf.print(tf.range(20), summarize=2, output_stream=sys.stdout)
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (RECORDED[1], "")


def test_logging_streams(caplog):
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        tf.print(tf.range(8), summarize=-1, output_stream=tf.compat.v1.logging.info)
        tf.print(tf.range(8), summarize=-1, output_stream=logging.WARNING)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [
        (logging.INFO, RECORDED[2].rstrip("\n")), (logging.WARNING, RECORDED[2].rstrip("\n"))]
