"""Errors of what a tf.data function runs or is given raise TF 2.21's errors with its
texts: dataset_function_error_cases.CASES (programs run from module files) replayed
against the recording (record_tf_specs.py function_errors)."""

import os

from dataset_function_error_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_dataset_function_errors.json")

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {FIXTURE: CASES})
