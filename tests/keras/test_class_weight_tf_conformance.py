"""fit's class_weight gives what TF 2.21 + tf-keras gave for class_weight_cases.CASES
(recorded by record_tf_keras.py, group class_weight): weights, losses and errors."""

import os

from class_weight_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_class_weight.json"): CASES},
    before_each=tf.keras.backend.clear_session)
