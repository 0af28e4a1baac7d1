"""Keras layers give what TF 2.15 gave for layer_cases.CASES (recorded by
record_tf_layers.py): batch norm's fused path, empty replicas and axes, weight names,
Sequential shapes, get_config, Flatten and Dropout; and the batch-norm options simdist
refuses rather than ignores."""

import json
import os

import pytest
from layer_cases import CASES
from tf_snippets import replay

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_layers.json")) as _f:
    RECORDED = json.load(_f)["results"]


def test_every_case_was_recorded():
    assert set(RECORDED) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_result_as_tensorflow(name):
    tf.keras.backend.clear_session()
    replay(tf, CASES[name], RECORDED[name], name)


@pytest.mark.parametrize("option", [dict(renorm=True), dict(virtual_batch_size=2),
                                    dict(adjustment=lambda shape: (1.0, 0.0)),
                                    dict(gamma_constraint="non_neg")])
def test_batch_norm_refuses_what_it_does_not_simulate(option):
    with pytest.raises(NotImplementedError, match="not simulated by simdist"):
        tf.keras.layers.BatchNormalization(**option)
