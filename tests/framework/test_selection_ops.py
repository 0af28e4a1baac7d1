"""numpy_function, py_function, unique, boolean_mask, slice, pad, the 3-argument where and
one_hot's axis, eager and traced: selection_ops_cases.CASES replayed against TF 2.21's
recording (record_tf_function.py), traced into graphs (no eager fallback)."""

import os

from selection_ops_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_selection_ops.json"): CASES},
    traced=True)
