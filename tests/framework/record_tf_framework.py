"""Record what TF 2.15 gives for framework_cases.CASES into fixtures/tf_framework.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    /tmp/tfenv/bin/python tests/framework/record_tf_framework.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"framework": ("framework_cases", "tf_framework.json"),
          "tape_guide": ("tape_guide_cases", "tf_tape_guide.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:])
