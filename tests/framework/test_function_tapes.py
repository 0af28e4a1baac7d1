"""GradientTape.reset inside tf.function: function_tape_cases.CASES replayed against TF
2.21's recording (record_tf_function.py), each traced into a graph (no eager fallback); and
function_fallback_cases (reset after a variable is made), which test_function_fallback.py
replays with reset made untraceable, traced as TF traces them."""

import os

import function_fallback_cases
from function_tape_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_tapes.json"):
         CASES}, traced=True)

test_fallback_cases_were_recorded, test_fallback_cases_trace_as_in_tensorflow = \
    conformance_tests(tf, {os.path.join(os.path.dirname(__file__), "fixtures",
                                        "tf_function_fallback.json"):
                           function_fallback_cases.CASES}, traced=True)
