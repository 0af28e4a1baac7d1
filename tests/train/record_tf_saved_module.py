"""Record what TF 2.21 (tf-keras) gives for saved_module_cases.CASES into
fixtures/tf_saved_module.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_CPP_MIN_LOG_LEVEL=3 /tmp/tfvenv/bin/python tests/train/record_tf_saved_module.py [CASE ...]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"saved_module": ("saved_module_cases", "tf_saved_module.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:])
