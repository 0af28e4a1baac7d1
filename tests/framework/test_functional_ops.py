"""tf.map_fn, tf.scan, tf.foldl / foldr, the cumulative ops and tf.nest's structure check
replay TF 2.21's results (functional_ops_cases, recorded by record_tf_linalg.py;
simdist/framework/ops/map_fn.py, functional_ops.py, scan_ops.py, framework/nest.py), each
case's tf.functions traced."""

import os

from functional_ops_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_functional.json"): CASES},
    traced=True)
