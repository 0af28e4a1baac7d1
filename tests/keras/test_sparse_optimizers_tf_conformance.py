"""Keras optimizers given IndexedSlices gradients give what TF 2.21 + tf-keras gave for
sparse_optimizer_cases.CASES (recorded by record_tf_keras.py, group ``sparse_optimizers``):
variables' and slots' bits after each optimizer's sparse branch, eagerly, in a fit and
under MirroredStrategy."""

import os

from sparse_optimizer_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_sparse_optimizers.json"):
         CASES},
    before_each=tf.keras.backend.clear_session)
