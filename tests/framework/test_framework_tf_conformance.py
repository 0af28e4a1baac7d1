"""GradientTape, Variable, tf.function and composite ops give what TF 2.15 gave for
framework_cases.CASES (recorded by record_tf_framework.py): values, dtypes, errors."""

import os

from framework_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_framework.json"): CASES},
    before_each=tf.keras.backend.clear_session)
