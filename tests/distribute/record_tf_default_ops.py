"""Record what TF 2.21 does for default_ops_cases.CASES into fixtures/tf_default_ops.json:
MirroredStrategy's default cross-device ops on 4 logical CPUs (CollectiveAllReduce, RING;
int32 through ReductionToOneDevice) and the bits of its sums.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \\
        tests/distribute/record_tf_default_ops.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"default_ops": ("default_ops_cases", "tf_default_ops.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], clear_session=False)
