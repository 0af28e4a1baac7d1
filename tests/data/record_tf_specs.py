"""Record what TF 2.21 gives for spec_cases.CASES into fixtures/tf_specs.json and for
scan_cases.CASES into fixtures/tf_scan.json and for
dataset_function_cases.CASES into fixtures/tf_dataset_functions.json and for
dataset_ops_cases.CASES into fixtures/tf_dataset_ops.json and for
iteration_error_cases.CASES into fixtures/tf_iteration_errors.json and for
argument_error_cases.CASES into fixtures/tf_argument_errors.json and for
dataset_function_error_cases.CASES into fixtures/tf_dataset_function_errors.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/data/record_tf_specs.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"specs": ("spec_cases", "tf_specs.json"), "scan": ("scan_cases", "tf_scan.json"),
          "functions": ("dataset_function_cases", "tf_dataset_functions.json"),
          "ops": ("dataset_ops_cases", "tf_dataset_ops.json"),
          "iteration_errors": ("iteration_error_cases", "tf_iteration_errors.json"),
          "argument_errors": ("argument_error_cases", "tf_argument_errors.json"),
          "function_errors": ("dataset_function_error_cases",
                              "tf_dataset_function_errors.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)
