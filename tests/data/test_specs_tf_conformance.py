"""Element specs and dataset functions traced once when the dataset is made, scan and
group_by_window give what TF 2.21 gave for spec_cases.CASES and scan_cases.CASES (recorded
by record_tf_specs.py)."""

import os

import scan_cases
import spec_cases
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_specs.json"): spec_cases.CASES,
         os.path.join(os.path.dirname(__file__), "fixtures", "tf_scan.json"): scan_cases.CASES},
    traced=True)
