"""Checkpoints save, name, restore, defer and refuse what TF 2.15 did for
checkpoint_cases.CASES, and save iterators and track attributes as TF 2.21 did for
checkpoint_tracking_cases.CASES (recorded by record_tf_checkpoint.py)."""

import os

import checkpoint_tracking_cases
from checkpoint_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_checkpoint.json"): CASES},
    before_each=tf.keras.backend.clear_session)
test_every_tracking_case_was_recorded, test_tracking_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_checkpoint_tracking.json"):
         checkpoint_tracking_cases.CASES},
    before_each=tf.keras.backend.clear_session)
