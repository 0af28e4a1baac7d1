"""Record what TF 2.21 gives for onednn_sgemm_cases.CASES into fixtures/tf_onednn_sgemm.json.

Run with the TensorFlow interpreter (not simdist's venv), on a CPU-only TF:
    TF_USE_LEGACY_KERAS=1 CUDA_VISIBLE_DEVICES= /tmp/tfvenv/bin/python \
        tests/framework/record_tf_onednn_sgemm.py [case names]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"onednn_sgemm": ("onednn_sgemm_cases", "tf_onednn_sgemm.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)
