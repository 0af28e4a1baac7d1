"""MirroredStrategy's default cross-device ops on logical CPUs: default_ops_cases.CASES
replayed against TF 2.21's recording (record_tf_default_ops.py), on 4 logical CPUs as the
recorder has them (on simdist's "cpu" machine: TF's has no GPU). The sums' bits are compared
exactly (sha256 prefixes)."""

import os

from default_ops_cases import CASES
from tf_snippets import conformance_tests, split_cpu

import simdist as tf
from simdist.testing import reset_world


def cpu_machine():
    reset_world("cpu")
    split_cpu(tf, 4)


test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_default_ops.json"): CASES},
    before_each=cpu_machine)
