"""float32 tf.linalg.qr, the Orthogonal initializer and RNN kernels with 48 reflectors or
more give TF 2.21's bits for blocked_qr_cases.CASES (recorded by record_tf_blocked_qr.py on
a CPU whose L1 data cache is 32 KiB and L2 512 KiB, the caches eigen_gebp models)."""

import os

import blocked_qr_cases
from tf_snippets import conformance_tests

import simdist as tf

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
test_every_case_was_recorded, test_same_bits_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_blocked_qr.json"): blocked_qr_cases.CASES},
    before_each=tf.keras.backend.clear_session)
