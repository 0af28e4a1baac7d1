"""String tensors, tf.strings and tf.print of strings give what TF 2.21 gave for
string_cases.CASES, tf.debugging.check_numerics for debugging_cases.CASES, ragged and sparse
tensors and the string ops that make ragged ones for ragged_sparse_cases.CASES, the ops on
them for ragged_ops_cases.CASES, tf.train.Example, parse_example and TFRecord files for
example_cases.CASES (recorded by record_tf_strings.py): bytes, reprs, printed text, errors."""

import os

import debugging_cases
import example_cases
import ragged_ops_cases
import ragged_sparse_cases
import string_cases
from tf_snippets import conformance_tests

import simdist as tf

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_strings.json"): string_cases.CASES})
test_every_debugging_case_was_recorded, test_debugging_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_debugging.json"): debugging_cases.CASES})
test_every_ragged_case_was_recorded, test_ragged_sparse_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_ragged_sparse.json"): ragged_sparse_cases.CASES})
test_every_ragged_op_case_was_recorded, test_ragged_ops_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_ragged_ops.json"): ragged_ops_cases.CASES})
test_every_example_case_was_recorded, test_examples_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_examples.json"): example_cases.CASES})
