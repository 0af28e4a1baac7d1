"""``str(graph.as_graph_def())`` prints TF's text: graph_def_cases.CASES replayed against
TF 2.21's recording (record_tf_function.py), the whole text compared: nodes, inputs and
control inputs, attrs in upb's order, Const TensorProtos, Placeholders, versions; and the
op definitions the attrs come from (op_def_table) against TF's registry."""

import json
import os

from graph_def_cases import CASES
from tf_snippets import conformance_tests

import simdist as tf

HERE = os.path.dirname(__file__)

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(HERE, "fixtures", "tf_graph_def.json"): CASES},
    before_each=tf.keras.backend.clear_session)


def test_op_def_table_holds_tensorflows_definitions():
    """simdist's op_def_table is TF 2.21's op registry for the types it holds
    (record_tf_op_defs.py): arguments, attrs with their defaults, statefulness."""
    from simdist.framework import op_def_table

    with open(os.path.join(HERE, "fixtures", "tf_op_defs.json")) as f:
        recorded = json.load(f)["op_defs"]
    assert sorted(recorded) == sorted(k.rstrip("!") for k in op_def_table._TABLE)
    for key, (inputs, outputs, attrs) in op_def_table._TABLE.items():
        assert [inputs, outputs, attrs, key.endswith("!")] == recorded[key.rstrip("!")], key
