"""``tf.tensordot`` replayed against TF 2.21 (tensordot_cases, record_tf_graph_steps.py):
values, errors, gradients and the ops a trace lists."""

import os

from tensordot_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

HERE = os.path.dirname(__file__)

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(HERE, "fixtures", "tf_tensordot.json"): CASES}, traced=True)
