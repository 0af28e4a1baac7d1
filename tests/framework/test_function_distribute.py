"""tf.function + a distribution strategy: function_distribute_cases.CASES replayed against
TF 2.21's recording (record_tf_function.py), on 4 logical CPUs as the recorder has them."""

import os

from function_distribute_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf


def _four_logical_cpus():
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * 4)


test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_distribute.json"):
         CASES}, before_each=_four_logical_cpus, traced=True)
