"""tf.Module SavedModels, a module's deferred restore, tf.summary's graph trace, the
profiler's errors and Keras's serializable registry give what TF 2.21 gave for
saved_module_cases.CASES (recorded by record_tf_saved_module.py)."""

import os

from saved_module_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_saved_module.json"): CASES},
    before_each=tf.keras.backend.clear_session)
