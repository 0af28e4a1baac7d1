"""Record what TF 2.21 gives for function_cases.CASES into fixtures/tf_function.json, for
graph_control_flow_cases.CASES into fixtures/tf_graph_control_flow.json, for
graph_gradient_cases.CASES into fixtures/tf_graph_gradients.json, for
function_variable_cases.CASES into fixtures/tf_function_variables.json, for
indexed_slices_cases.CASES into fixtures/tf_indexed_slices.json, for
function_distribute_cases.CASES into fixtures/tf_function_distribute.json, for
function_dataset_cases.CASES into fixtures/tf_function_datasets.json, for
tensor_array_cases.CASES into fixtures/tf_tensor_array.json, for
function_tape_cases.CASES into fixtures/tf_function_tapes.json, for
function_fallback_cases.CASES into fixtures/tf_function_fallback.json, for
function_nested_cases.CASES into fixtures/tf_function_nested.json, for
function_names_cases.CASES into fixtures/tf_function_names.json, for
graph_def_cases.CASES into fixtures/tf_graph_def.json, for
function_method_cases.CASES into fixtures/tf_function_methods.json, for
selection_ops_cases.CASES into fixtures/tf_selection_ops.json and for
function_error_cases.CASES into fixtures/tf_function_errors.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/framework/record_tf_function.py
"""

import os
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras is tf-keras (Keras 2) in TF 2.16+
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets
from tf_snippets import record, split_cpu  # noqa: E402

split_cpu(tf, 4)

import function_cases  # noqa: E402 - after the logical devices exist
import function_dataset_cases  # noqa: E402
import function_distribute_cases  # noqa: E402
import function_error_cases  # noqa: E402
import function_fallback_cases  # noqa: E402
import function_method_cases  # noqa: E402
import function_names_cases  # noqa: E402
import function_nested_cases  # noqa: E402
import function_tape_cases  # noqa: E402
import function_variable_cases  # noqa: E402
import graph_control_flow_cases  # noqa: E402
import graph_def_cases  # noqa: E402
import graph_gradient_cases  # noqa: E402
import indexed_slices_cases  # noqa: E402
import selection_ops_cases  # noqa: E402
import tensor_array_cases  # noqa: E402

GROUPS = {"tf_function.json": function_cases.CASES,
          "tf_graph_control_flow.json": graph_control_flow_cases.CASES,
          "tf_graph_gradients.json": graph_gradient_cases.CASES,
          "tf_function_variables.json": function_variable_cases.CASES,
          "tf_indexed_slices.json": indexed_slices_cases.CASES,
          "tf_function_distribute.json": function_distribute_cases.CASES,
          "tf_function_datasets.json": function_dataset_cases.CASES,
          "tf_tensor_array.json": tensor_array_cases.CASES,
          "tf_function_tapes.json": function_tape_cases.CASES,
          "tf_function_fallback.json": function_fallback_cases.CASES,
          "tf_function_nested.json": function_nested_cases.CASES,
          "tf_function_names.json": function_names_cases.CASES,
          "tf_graph_def.json": graph_def_cases.CASES,
          "tf_function_methods.json": function_method_cases.CASES,
          "tf_selection_ops.json": selection_ops_cases.CASES,
          "tf_function_errors.json": function_error_cases.CASES}

if __name__ == "__main__":
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
    for fixture, cases in GROUPS.items():
        names = [n for n in sys.argv[1:] if n in cases]
        if sys.argv[1:] and not names:
            continue
        record(tf, cases, os.path.join(HERE, "fixtures", fixture), strategy,
               before_each=tf.keras.backend.clear_session, names=names)
