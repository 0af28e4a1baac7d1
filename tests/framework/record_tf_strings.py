"""Record what TF 2.21 gives for string_cases.CASES into fixtures/tf_strings.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/framework/record_tf_strings.py
"""

import os
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras is tf-keras (Keras 2) in TF 2.16+
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from string_cases import CASES  # noqa: E402
from tf_snippets import record  # noqa: E402

if __name__ == "__main__":
    record(tf, CASES, os.path.join(HERE, "fixtures", "tf_strings.json"),
           tf.distribute.MirroredStrategy(), names=sys.argv[1:])
