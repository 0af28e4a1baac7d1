"""Record what TF 2.21 gives for string_cases.CASES into fixtures/tf_strings.json and for
debugging_cases.CASES into fixtures/tf_debugging.json.

Run with the TensorFlow interpreter (not simdist's venv), naming the groups (default both):
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/framework/record_tf_strings.py [strings]
"""

import os
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras is tf-keras (Keras 2) in TF 2.16+
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

import debugging_cases  # noqa: E402
import string_cases  # noqa: E402
from tf_snippets import record  # noqa: E402

GROUPS = {"strings": (string_cases.CASES, "tf_strings.json"),
          "debugging": (debugging_cases.CASES, "tf_debugging.json")}

if __name__ == "__main__":
    for group in sys.argv[1:] or list(GROUPS):
        cases, fixture = GROUPS[group]
        record(tf, cases, os.path.join(HERE, "fixtures", fixture),
               tf.distribute.MirroredStrategy())
