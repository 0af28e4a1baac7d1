"""Element specs and dataset functions traced once when the dataset is made, scan,
group_by_window and the functions returning datasets give what TF 2.21 gave for
spec_cases.CASES, scan_cases.CASES, dataset_function_cases.CASES and dataset_ops_cases.CASES
(recorded by record_tf_specs.py): take_while, unique, assert_cardinality and the rest."""

import os

import dataset_function_cases
import dataset_ops_cases
import scan_cases
import spec_cases
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_specs.json"): spec_cases.CASES,
         os.path.join(os.path.dirname(__file__), "fixtures", "tf_scan.json"): scan_cases.CASES,
         os.path.join(os.path.dirname(__file__), "fixtures", "tf_dataset_functions.json"):
             dataset_function_cases.CASES,
         os.path.join(os.path.dirname(__file__), "fixtures", "tf_dataset_ops.json"):
             dataset_ops_cases.CASES},
    traced=True)
