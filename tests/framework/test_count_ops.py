"""tf.math.bincount, tf.histogram_fixed_width(_bins) and tf.strings.format, eager and traced:
count_ops_cases.CASES replayed against TF 2.21's recording (record_tf_strings.py), traced
into graphs (no eager fallback)."""

import os

from count_ops_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_count_ops.json"): CASES},
    traced=True)
