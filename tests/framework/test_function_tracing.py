"""tf.function traces once per signature and executes its graph: function_cases.CASES
replayed against TF 2.21's recording (record_tf_function.py)."""

import os

from function_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function.json"): CASES})
