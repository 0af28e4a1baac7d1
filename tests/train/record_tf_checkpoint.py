"""Record what TF 2.15 (Keras 2) gives for checkpoint_cases.CASES into
fixtures/tf_checkpoint.json, and TF 2.21 for checkpoint_tracking_cases.CASES into
fixtures/tf_checkpoint_tracking.json (group ``tracking``).

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them
(the faults of issue 13 were recorded with TF 2.21 + tf-keras):
    /tmp/tfvenv/bin/python tests/train/record_tf_checkpoint.py [CASE ...]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"checkpoint": ("checkpoint_cases", "tf_checkpoint.json"),
          "tracking": ("checkpoint_tracking_cases", "tf_checkpoint_tracking.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:])
