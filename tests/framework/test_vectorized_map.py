"""tf.vectorized_map replays TF 2.21's results (vectorized_map_cases, recorded by
record_tf_linalg.py; simdist/framework/ops/parallel_for.py), each case's tf.functions
traced."""

import os

from tf_snippets import conformance_tests
from vectorized_map_cases import CASES

import simdist as tf

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_vectorized_map.json"): CASES},
    traced=True)


def test_ops_without_a_converter_are_tensorflows():
    """parallel_for.NO_CONVERTER holds op types TF 2.21 registers and its pfor has no
    converter for (record_tf_pfor_converters.py)."""
    import json

    from simdist.framework.ops import parallel_for

    with open(os.path.join(os.path.dirname(__file__), "fixtures",
                           "tf_pfor_converters.json")) as f:
        recorded = json.load(f)["op_types"]
    assert sorted(recorded) == sorted(parallel_for.NO_CONVERTER)
    for op_type, found in recorded.items():
        assert found == {"registered": True, "converter": False}, op_type


def test_a_traced_vectorized_map_is_listed_whole():
    """get_operations() of a traced vectorized_map (it raised AttributeError): not TF's
    ops (TF lists loop_body/..., pfor/all_indices and each op's '<op>/pfor/<Type>'), but
    the node recorded whole, as graph_operations lists what it has no listing for,
    between TF's argument Placeholder and output Identity."""
    @tf.function
    def f(x):
        return tf.vectorized_map(lambda r: r * 2.0 + 1.0, x)

    graph = f.get_concrete_function(tf.ones([3, 2])).graph
    listed = [(o.name, o.type, [t.name for t in o.inputs]) for o in graph.get_operations()]
    assert listed == [("x", "Placeholder", []), ("pfor", "pfor", ["x:0"]),
                      ("Identity", "Identity", ["pfor:0"])]
    assert "node {" in str(graph.as_graph_def())
