"""Record what TF 2.21 gives for half_matmul_cases.CASES into fixtures/tf_half_matmul.json.

Run with the TensorFlow interpreter (not simdist's venv), on a CPU-only TF:
    TF_USE_LEGACY_KERAS=1 CUDA_VISIBLE_DEVICES= /tmp/tfvenv/bin/python \
        tests/framework/record_tf_half_matmul.py [case names]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"half_matmul": ("half_matmul_cases", "tf_half_matmul.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)
