"""An error inside a Keras layer's call carries tf-keras's call context:
layer_call_error_cases.CASES replayed against TF 2.21's recording (record_tf_keras.py),
whole texts compared (traceback_utils)."""

import os

from layer_call_error_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_layer_call_errors.json"):
         CASES}, before_each=tf.keras.backend.clear_session)
