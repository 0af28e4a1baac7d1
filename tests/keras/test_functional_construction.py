"""Functional construction and layer metrics give what TF 2.21 with tf-keras recorded
(record_tf_layers.py functional_construction, add_metric): a user layer's call on symbolic
tensors in a scratch graph, the KerasTensors' names, repr and str
(functional_construction_cases.CASES); ``Layer.add_metric`` in fit, evaluate and eager
calls, and its errors (add_metric_cases.CASES); ``Functional.get_config`` in tf-keras's
format and ``Model.from_config`` of TF's configs (functional_config_cases.CASES)."""

import os

import add_metric_cases
import functional_config_cases
import functional_construction_cases
from tf_snippets import conformance_tests

import simdist as tf

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
GROUPS = {"tf_functional_construction.json": functional_construction_cases.CASES,
          "tf_add_metric.json": add_metric_cases.CASES,
          "tf_functional_config.json": functional_config_cases.CASES}

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, name): cases for name, cases in GROUPS.items()},
    before_each=tf.keras.backend.clear_session)
