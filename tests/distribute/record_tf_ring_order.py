"""Record what TF 2.21 does for ring_order_cases.CASES into fixtures/tf_ring_order.json:
its ring all-reduce on 12 logical CPUs (a MirroredStrategy over all of them).

Run with the TensorFlow interpreter (not simdist's venv):
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \\
        tests/distribute/record_tf_ring_order.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"ring_order": ("ring_order_cases", "tf_ring_order.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=12, clear_session=False)
