"""Record what TF 2.21 gives for control_flow_cases.CASES into fixtures/tf_control_flow.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_CPP_MIN_LOG_LEVEL=3 /tmp/tfvenv/bin/python tests/framework/record_tf_control_flow.py
Two logical CPUs, as the distributed-dataset cases' MirroredStrategy uses.
"""

import os
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras is tf-keras (Keras 2) in TF 2.16+
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets
from tf_snippets import record, split_cpu  # noqa: E402

split_cpu(tf, 2)

from control_flow_cases import CASES  # noqa: E402 - after the logical devices exist

if __name__ == "__main__":
    record(tf, CASES, os.path.join(HERE, "fixtures", "tf_control_flow.json"),
           tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
           before_each=tf.keras.backend.clear_session, names=sys.argv[1:])
