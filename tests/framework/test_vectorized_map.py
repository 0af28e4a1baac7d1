"""tf.vectorized_map replays TF 2.21's results (vectorized_map_cases, recorded by
record_tf_linalg.py; simdist/framework/ops/parallel_for.py), each case's tf.functions
traced."""

import os

from tf_snippets import conformance_tests
from vectorized_map_cases import CASES

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_vectorized_map.json"): CASES},
    traced=True)
