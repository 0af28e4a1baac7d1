"""A tf.function method holds its instance by weak reference, as TF 2.21's does:
function_method_cases.CASES replayed against the recording (record_tf_function.py): on an
instance nothing keeps, ``self`` is None in the trace (TF's "in user code:"
AttributeError, frames compared with files masked)."""

import os

from function_method_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_methods.json"):
         CASES})
