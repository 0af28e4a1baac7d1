"""An error while an eager iterator makes an element is worded as TF 2.21's IteratorGetNext
(and ReduceDataset) words it: iteration_error_cases.CASES replayed against the recording
(record_tf_specs.py iteration_errors), whole texts compared but for the datasets' count."""

import os

from iteration_error_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_iteration_errors.json"):
         CASES})
