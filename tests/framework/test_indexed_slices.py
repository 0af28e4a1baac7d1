"""Gradients of tf.gather / embedding lookups as tf.IndexedSlices: indexed_slices_cases.CASES
replayed against TF 2.21 (record_tf_function.py, fixtures/tf_indexed_slices.json), each
traced into a graph (no eager fallback); the MirroredStrategy cases on 4 logical CPUs, as
the recorder has them."""

import os

from indexed_slices_cases import CASES
from tf_snippets import conformance_tests, split_cpu

import simdist as tf


def _fresh_session_on_four_cpus():
    tf.keras.backend.clear_session()
    split_cpu(tf, 4)


test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_indexed_slices.json"): CASES},
    before_each=_fresh_session_on_four_cpus, traced=True)
