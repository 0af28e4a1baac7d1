"""Record what TF 2.21 gives for blocked_qr_cases into fixtures/tf_blocked_qr.json.

Run with the TensorFlow interpreter (not simdist's venv), on a CPU-only TF:
    TF_USE_LEGACY_KERAS=1 CUDA_VISIBLE_DEVICES= /tmp/tfvenv/bin/python \\
        tests/framework/record_tf_blocked_qr.py [case names]
The bits depend on the recording CPU's L1 cache (see blocked_qr_cases): record on a
machine whose caches are eigen_gebp.CACHES, or the "caches" case fails first.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"blocked_qr": ("blocked_qr_cases", "tf_blocked_qr.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=True)
