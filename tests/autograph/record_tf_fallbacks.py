"""Record what TF 2.21 gives for fallback_cases.CASES into fixtures/tf_autograph_fallbacks.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/autograph/record_tf_fallbacks.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"fallbacks": ("fallback_cases", "tf_autograph_fallbacks.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)
