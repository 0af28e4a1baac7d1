"""Record what TF 2.21 raises for oom_cases.CASES into fixtures/tf_oom.json.

Run with the TensorFlow interpreter (not simdist's venv):
    TF_USE_LEGACY_KERAS=1 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \
        tests/hardware/record_tf_oom.py
"""

import json
import os
import sys

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from oom_cases import CASES, run  # noqa: E402

if __name__ == "__main__":
    results = {name: run(tf, code) for name, code in CASES.items()}
    path = os.path.join(HERE, "fixtures", "tf_oom.json")
    with open(path, "w") as f:
        json.dump({"tf_version": tf.__version__, "results": results}, f, indent=1)
    print(f"wrote {len(results)} results to {path}")
