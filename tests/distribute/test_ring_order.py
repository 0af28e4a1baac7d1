"""TF's ring on 12 logical CPUs adds in replica order: ring_order_cases.CASES replayed
against TF 2.21's recording (record_tf_ring_order.py), bits compared exactly."""

import os

from ring_order_cases import CASES
from tf_snippets import conformance_tests, split_cpu

import simdist as tf
from simdist.testing import reset_world


def twelve_cpus():
    reset_world("cpu")
    split_cpu(tf, 12)


test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_ring_order.json"): CASES},
    before_each=twelve_cpus)
