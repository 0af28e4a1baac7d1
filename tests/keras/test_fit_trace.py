"""Keras's train/test/predict functions traced as TF 2.21 traces them: fit_trace_cases.CASES
replayed against the recording (record_tf_keras.py fit_trace): tracing counts, what
``call`` and ``train_step`` print (once per trace), run_eagerly, make_train_function(force=
True), the losses, metrics and predictions. No step function falls back to eager."""

import os

import pytest
from fit_trace_cases import CASES
from tf_snippets import conformance_tests, split_cpu

import simdist as tf


def _fresh():
    tf.keras.backend.clear_session()
    split_cpu(tf, 4)


pytestmark = pytest.mark.timeout(120)

# Under a strategy other than the default one, simdist builds the model's compiled metrics
# before the first step with an eager call of the model on the first batch (it cannot make
# them inside the replica functions): that call prints once more ("call True [2, 3] False").
KNOWN = {"fit under a 4-replica MirroredStrategy: the replica function traced per replica":
         "one eager call of the model before the first step (metrics built outside the "
         "replica functions)"}

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_fit_trace.json"): CASES},
    before_each=_fresh, traced=True, known=KNOWN)
