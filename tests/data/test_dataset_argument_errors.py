"""Bad arguments to tf.data's transformations raise TF 2.21's errors: argument_error_cases.
CASES replayed against the recording (record_tf_specs.py argument_errors), whole texts."""

import os

from argument_error_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_argument_errors.json"):
         CASES})
