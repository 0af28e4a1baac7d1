"""Keras layers, models, activations, losses and training give what TF 2.15 gave for
keras_cases.CASES (recorded by record_tf_keras.py): values, shapes, names, orders, errors."""

import os

from keras_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

# STRICT: marked pytest.mark.array_api by tests/array_api_subset.py (a dataset filter's
# predicate, a fit whose data has an unknown size).
STRICT = ("steps_per_execution > 1 with data of unknown size",)

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_keras.json"): CASES},
    before_each=tf.keras.backend.clear_session, strict=STRICT)
