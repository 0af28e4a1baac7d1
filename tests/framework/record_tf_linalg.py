"""Record what TF 2.21 gives for linalg_cases (into fixtures/tf_linalg.json) and
functional_ops_cases (map_fn, scan, folds, cumulative ops, tf.nest's check: into
fixtures/tf_functional.json).

Run with the TensorFlow interpreter (not simdist's venv), on a CPU-only TF:
    TF_USE_LEGACY_KERAS=1 CUDA_VISIBLE_DEVICES= /tmp/tfvenv/bin/python \\
        tests/framework/record_tf_linalg.py [linalg|functional|case names]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"linalg": ("linalg_cases", "tf_linalg.json"),
          "functional": ("functional_ops_cases", "tf_functional.json"),
          "vectorized_map": ("vectorized_map_cases", "tf_vectorized_map.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)
