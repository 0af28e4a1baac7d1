"""Record what TF 2.21 gives for file_cases.CASES into fixtures/tf_files.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/data/record_tf_files.py
"""

import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from file_cases import CASES  # noqa: E402
from tf_snippets import record  # noqa: E402

if __name__ == "__main__":
    record(tf, CASES, os.path.join(HERE, "fixtures", "tf_files.json"),
           tf.distribute.MirroredStrategy(), names=sys.argv[1:])
