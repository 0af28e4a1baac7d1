"""Cases replayed against TF 2.21 (record_tf_graph_steps.py) whose results are values and
traced listings together: tf.tensordot (tensordot_cases: values, errors, gradients, the
ops a trace lists) and Keras's loss functions called directly in a trace
(loss_function_cases: their ops and values)."""

import os

from loss_function_cases import CASES as LOSS_FUNCTIONS
from tensordot_cases import CASES as TENSORDOT
from tf_snippets import conformance_tests

import simdist as tf

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(FIXTURES, "tf_tensordot.json"): TENSORDOT,
         os.path.join(FIXTURES, "tf_loss_functions.json"): LOSS_FUNCTIONS}, traced=True)
