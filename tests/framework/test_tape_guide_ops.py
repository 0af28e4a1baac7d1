"""linspace, the slice and pad gradients, variables as a tape's targets, TF's LookupError for an
op without a gradient, tf.image's adjust_contrast / convert_image_dtype, nn.softplus and
Keras's attribute variables (what TF's autodiff and basic_training_loops guides found
missing): tape_guide_cases.CASES replayed against TF 2.21's recording
(``record_tf_framework.py tape_guide``), traced into graphs (no eager fallback)."""

import os

from tape_guide_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_tape_guide.json"): CASES},
    before_each=tf.keras.backend.clear_session, traced=True)
