"""String tensors, tf.strings and tf.print of strings give what TF 2.21 gave for
string_cases.CASES (recorded by record_tf_strings.py): bytes, reprs, printed text, errors."""

import os

from string_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, CASES, os.path.join(os.path.dirname(__file__), "fixtures", "tf_strings.json"))
