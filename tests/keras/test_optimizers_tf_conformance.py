"""Adamax, Nadam, Adadelta and Ftrl give what TF 2.21 + tf-keras gave for
optimizer_cases.CASES (recorded by record_tf_keras.py, group ``optimizers``): per-step bits
(Ftrl: values), slots, configs, names and argument errors."""

import os

from optimizer_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_optimizers.json"): CASES},
    before_each=tf.keras.backend.clear_session)
