"""Errors at a traced function's execution: function_error_cases.CASES replayed against
TF 2.21's recording (record_tf_function.py), on 4 logical CPUs as the recorder has them:
the whole "Graph execution error:" text (tf_snippets._graph_execution), then simdist's
advice."""

import os

from function_error_cases import CASES
from tf_snippets import conformance_tests, split_cpu

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_errors.json"):
         CASES}, before_each=lambda: split_cpu(tf, 4), traced=True)
