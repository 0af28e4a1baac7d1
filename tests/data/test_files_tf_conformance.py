"""list_files, TextLineDataset, interleave, cardinality, options and FILE auto-sharding give
what TF 2.21 gave for file_cases.CASES (recorded by record_tf_files.py)."""

import os

from file_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_files.json"): CASES})
