"""tf.profiler.experimental writes the simulated timeline of what ran between start and stop
(simdist's own file: TF writes its XPlane protobuf there, so this is not compared with TF;
the errors are, in tests/train/test_saved_module_tf_conformance.py)."""

import glob
import gzip
import json
import os

import simdist as tf


def test_stop_writes_the_ops_run_since_start_as_a_chrome_trace(tmp_path):
    tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]))   # before start: not in the profile
    tf.profiler.experimental.start(str(tmp_path))
    tf.nn.relu(tf.ones([3]))
    tf.profiler.experimental.stop()
    (path,) = glob.glob(os.path.join(tmp_path, "plugins", "profile", "*", "*.trace.json.gz"))
    with gzip.open(path, "rt") as f:
        names = [e["name"] for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    assert any("Relu" in n for n in names), names
    assert not any("MatMul" in n for n in names), names


def test_a_profile_block_starts_and_stops(tmp_path):
    with tf.profiler.experimental.Profile(str(tmp_path)):
        tf.ones([2]) + 1.0
    assert glob.glob(os.path.join(tmp_path, "plugins", "profile", "*", "*.trace.json.gz"))
