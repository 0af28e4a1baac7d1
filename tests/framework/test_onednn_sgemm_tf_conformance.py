"""float32 matmuls give TF 2.21's CPU bits for onednn_sgemm_cases.CASES (recorded by
record_tf_onednn_sgemm.py): oneDNN's sgemm tiles inside Eigen's contraction blocks, fused
multiply-add chains rounded once per step (simdist/framework/ops/onednn_sgemm.py)."""

import os

import onednn_sgemm_cases
from tf_snippets import conformance_tests

import simdist as tf

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
test_every_case_was_recorded, test_same_bits_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_onednn_sgemm.json"): onednn_sgemm_cases.CASES})
