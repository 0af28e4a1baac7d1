"""tf.linalg's factorisations, solves and composites replay TF 2.21's results
(linalg_cases, recorded by record_tf_linalg.py; simdist/framework/ops/
linalg_decompositions.py and linalg_impl.py), each case's tf.functions traced."""

import os

from linalg_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_linalg.json"): CASES},
    traced=True)
