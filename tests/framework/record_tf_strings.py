"""Record what TF 2.21 gives for string_cases.CASES into fixtures/tf_strings.json, for
debugging_cases.CASES into fixtures/tf_debugging.json, for ragged_sparse_cases.CASES into
fixtures/tf_ragged_sparse.json, for ragged_ops_cases.CASES into fixtures/tf_ragged_ops.json, for
example_cases.CASES into fixtures/tf_examples.json and for count_ops_cases.CASES into
fixtures/tf_count_ops.json.

Run with the TensorFlow interpreter (not simdist's venv), naming the groups (default all):
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/framework/record_tf_strings.py [strings]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"strings": ("string_cases", "tf_strings.json"),
          "debugging": ("debugging_cases", "tf_debugging.json"),
          "ragged_sparse": ("ragged_sparse_cases", "tf_ragged_sparse.json"),
          "ragged_ops": ("ragged_ops_cases", "tf_ragged_ops.json"),
          "examples": ("example_cases", "tf_examples.json"),
          "counts": ("count_ops_cases", "tf_count_ops.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)
