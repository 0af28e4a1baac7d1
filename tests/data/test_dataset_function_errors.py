"""Errors of what a tf.data function runs or is given raise TF 2.21's errors with its
texts: function_error_cases.CASES (programs run from module files) replayed against the
recording (record_tf_specs.py function_errors)."""

import os

from function_error_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_errors.json"):
         CASES})
