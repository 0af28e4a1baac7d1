"""An unknown loss or metric name is accepted by ``compile`` and raises at the first step, as
tf-keras 2.21 does: compile_error_cases.CASES replayed against the recording
(record_tf_keras.py compile_errors), each error's type and cause compared whole."""

import os

from compile_error_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_compile_errors.json"):
         CASES}, before_each=tf.keras.backend.clear_session)
