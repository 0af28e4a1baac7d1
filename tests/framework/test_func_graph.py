"""func_graph's entry points for control flow: no graph while executing eagerly."""

from simdist.framework import func_graph


def test_no_graph_is_traced_while_executing_eagerly():
    import simdist as tf

    assert func_graph.current() is None
    assert not func_graph.is_symbolic(tf.constant(1.0))
    assert not func_graph.is_symbolic(1.0)
