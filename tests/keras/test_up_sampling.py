"""UpSampling2D's bilinear interpolation and ResizeBilinear's gradient give what TF 2.21 with
tf-keras recorded (record_tf_layers.py up_sampling; up_sampling_cases.CASES)."""

import os

import up_sampling_cases
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_up_sampling.json"):
         up_sampling_cases.CASES}, before_each=tf.keras.backend.clear_session)
