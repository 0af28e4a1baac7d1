"""tf.Variable created inside a tf.function body: function_variable_cases.CASES replayed
against TF 2.21 (record_tf_function.py, fixtures/tf_function_variables.json), each traced
into a graph (no eager fallback)."""

import os

from function_variable_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_variables.json"):
         CASES}, traced=True)
