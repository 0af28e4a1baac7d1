"""func_graph: what a trace records, what runs at execution, and the visible eager fallback
(simdist's own behaviour; TF's behaviour is replayed in test_function_tracing.py)."""

import logging

import numpy as np
import pytest
from untraceable import reset_untraceable  # noqa: F401 - the fixture

import simdist as tf
from simdist.framework import func_graph
from simdist.hardware.machine import get_machine


def test_no_graph_is_traced_while_executing_eagerly():
    assert func_graph.current() is None
    assert not func_graph.is_symbolic(tf.constant(1.0))
    assert not func_graph.is_symbolic(1.0)


def test_current_is_the_graph_while_tracing_but_not_inside_an_op():
    seen = {}

    def probe(x):
        seen["in_op"] = func_graph.current()
        return tf.identity(x)

    op = func_graph.recorded(probe)

    @tf.function
    def f(x):
        seen["tracing"] = func_graph.current()
        seen["symbolic"] = func_graph.is_symbolic(x)
        return op(x)

    f(tf.constant(1.0))
    assert isinstance(seen["tracing"], func_graph.FuncGraph)
    assert seen["symbolic"] is True
    assert seen["in_op"] is None   # an op computes eagerly on placeholder values
    assert func_graph.current() is None


def test_execution_runs_the_recorded_ops_not_the_python():
    calls = []

    @tf.function
    def f(x, y):
        calls.append(1)
        return tf.matmul(x, y) + 1.0

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((3, 2), np.float32)
    for k in range(3):
        np.testing.assert_allclose(f(tf.constant(a * k), tf.constant(b)).numpy(),
                                   (a * k) @ b + 1.0)
    assert len(calls) == 1
    assert [type(n).__name__ for n in f.get_concrete_function(
        tf.constant(a), tf.constant(b)).graph.nodes] == ["Node", "Node"]


def test_trace_retrace_and_execution_are_function_events_in_the_trace():
    @tf.function
    def f(x):
        return x * 2.0

    f(tf.constant(1.0))
    f(tf.constant(2.0))
    f(tf.constant([1.0, 2.0]))
    names = [e.name for e in get_machine().trace.filter(cat="function")]
    assert names == ["trace f", "f (graph)", "f (graph)", "retrace f", "f (graph)"]


@pytest.mark.usefixtures("reset_untraceable")
def test_what_a_graph_cannot_record_runs_eagerly_with_one_warning(caplog):
    printed = []

    @tf.function
    def step(x):
        printed.append(1)
        with tf.GradientTape() as tape:
            tape.watch(x)
            tape.reset()   # untraceable here (untraceable.reset_untraceable)
            y = x * 2.0
        return y

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        out = [float(step(tf.constant(v))) for v in (1.0, 2.0, 3.0)]
    assert out == [2.0, 4.0, 6.0]
    # eager: the Python runs at every call, after the one trace that found reset
    # (a list append there is not undone; TF would append once)
    assert len(printed) == 4
    warnings = [r.getMessage() for r in caplog.records if "could not trace" in r.getMessage()]
    assert len(warnings) == 1 and "GradientTape.reset" in warnings[0]


def test_python_control_flow_on_a_tensor_is_traced_once_through_autograph(caplog):
    traced = []

    @tf.function
    def f(x):
        traced.append(1)
        if x > 0:
            return x
        return -x

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert [float(f(tf.constant(v))) for v in (2.0, -3.0, 4.0)] == [2.0, 3.0, 4.0]
    assert len(traced) == 1 and f.experimental_get_tracing_count() == 1
    assert not [r for r in caplog.records if "could not trace" in r.getMessage()]


@pytest.mark.usefixtures("reset_untraceable")
def test_a_failed_trace_prints_once_and_the_eager_run_prints(capsys):
    @tf.function
    def f(x):
        print("body")
        with tf.GradientTape() as tape:
            tape.reset()
            return x + 1.0

    assert float(f(tf.constant(1.0))) == 2.0
    assert capsys.readouterr().out == "body\n"   # not twice: the trace's output is dropped


def test_a_gradient_tape_outside_sees_the_executed_graph():
    v = tf.Variable(3.0)

    @tf.function
    def f(x):
        return v * x * x

    x = tf.constant(2.0)
    for _ in range(2):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        gx, gv = tape.gradient(y, [x, v])
        assert (float(gx), float(gv)) == (12.0, 4.0)


def test_placeholder_shapes_give_unknown_dimensions():
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        y = tf.matmul(x, tf.ones((3, 4))) + tf.range(4, dtype=tf.float32)
        shapes.append((y.shape.as_list(), tf.reduce_sum(y, axis=0).shape.as_list()))
        return y

    assert f(tf.ones((5, 3))).shape == (5, 4)
    assert shapes == [([None, 4], [4])]


@pytest.mark.parametrize("bad", ["numpy", "bool"])
def test_errors_raised_by_the_users_code_propagate(bad):
    @tf.function(autograph=False)
    def f(x):
        return x.numpy() if bad == "numpy" else bool(x)

    with pytest.raises((AttributeError, TypeError)):
        f(tf.constant(1.0))
    # The trace raised: TF 2.21 does not count it (function_cases: "a trace that raises
    # is not counted").
    assert f.experimental_get_tracing_count() == 0


def test_a_composite_nodes_packer_rebuilds_what_pack_then_collapse_did():
    """Node.run's packer(structure)(leaves) is collapse(pack_sequence_as(...)): composites
    rebuilt, dicts in their own key order (leaves in sorted order), named tuples, lists."""
    import collections

    from simdist.distribute import distribute_graph  # noqa: F401 - registers the composites
    from simdist.distribute.values import Mirrored, PerReplica
    from simdist.framework import nest

    pair = collections.namedtuple("pair", "a b")
    value = ((PerReplica([1, 2]), [Mirrored([3, 4]), pair(5, (6,))], ()),
             {"z": PerReplica([7, [8, 9]]), "b": {"y": 10, "x": 11}, "c": []})
    structure = func_graph.expand(value)
    leaves = [f"leaf{i}" for i in range(len(nest.flatten(structure)))]
    want = func_graph.collapse(nest.pack_sequence_as(structure, leaves))
    got = func_graph.packer(structure)(leaves)
    assert repr(got) == repr(want)
    assert type(got[0][0]) is PerReplica and type(got[0][1][0]) is Mirrored
    assert list(got[1]) == ["z", "b", "c"] and list(got[1]["b"]) == ["y", "x"]
    assert got[0][1][1] == pair("leaf4", ("leaf5",)) and got[1]["b"] == {"y": "leaf7",
                                                                         "x": "leaf6"}
    assert got[1]["z"].values[1] == ["leaf9", "leaf10"]


def test_expanded_leaves_are_the_flattened_expansion():
    """expanded_leaves(x) == nest.flatten(expand(x)): composites' components in place,
    dicts by sorted key, named tuples and empty containers as nest flattens them."""
    import collections

    from simdist.distribute import distribute_graph  # noqa: F401 - registers the composites
    from simdist.distribute.values import Mirrored, PerReplica
    from simdist.framework import nest

    pair = collections.namedtuple("pair", "a b")
    value = ((PerReplica([1, [2, {"q": 3, "p": 4}]]), [Mirrored([5, 6]), pair(7, (8,))], ()),
             {"z": None, "b": {"y": 9, "x": PerReplica([10, 11])}, "c": []})
    assert func_graph.expanded_leaves(value) == nest.flatten(func_graph.expand(value)) == [
        1, 2, 4, 3, 5, 6, 7, 8, 10, 11, 9, None]


def test_expanded_leaves_of_tensors_are_the_flattened_expansion():
    """Plain Tensors (appended without a call) and a Tensor subclass in seeded random nests
    of lists, tuples, dicts, named tuples, Mirrored and PerReplica: the same objects in the
    same order as nest.flatten(expand(x))."""
    import collections
    import random

    from simdist.distribute import distribute_graph  # noqa: F401 - registers the composites
    from simdist.distribute.values import Mirrored, PerReplica
    from simdist.framework import nest

    pair = collections.namedtuple("pair", "a b")
    tensors = [tf.constant(float(i)) for i in range(3)]
    symbolic = func_graph.SymbolicTensor.__new__(func_graph.SymbolicTensor)
    leaves = tensors + [symbolic, 1.5, None, "s"]
    rng = random.Random(21)

    def nested(depth):
        kind = rng.randrange(8 if depth < 4 else 1)
        if kind == 0:
            return rng.choice(leaves)
        parts = [nested(depth + 1) for _ in range(rng.randrange(1 if kind > 5 else 0, 4))]
        return [list(parts), tuple(parts), {rng.choice("abcd"): p for p in parts},
                pair(parts, tuple(parts)), Mirrored(parts), PerReplica(parts),
                Mirrored(tensors[:len(parts)])][kind - 1]

    for _ in range(2000):
        value = nested(0)
        got, want = func_graph.expanded_leaves(value), nest.flatten(func_graph.expand(value))
        assert len(got) == len(want) and all(a is b for a, b in zip(got, want)), value
        # record's walk: the value itself (leaves walked once) where expand keeps it
        structure, flat = func_graph._expanded_leaves(value)
        assert len(flat) == len(want) and all(a is b for a, b in zip(flat, want)), value
        assert (structure is value) == (func_graph.expand(value) is value), value


def test_a_traces_placeholder_runs_take_numpys_float32_product(monkeypatch):
    """A trace keeps only the shapes of what an op computes on placeholders: its MatMul runs
    NumPy's product there, not TF's order of sums (onednn_sgemm), which an eager call and
    the graph's execution keep."""
    from simdist.framework.ops import onednn_sgemm

    calls = []
    sgemm = onednn_sgemm.sgemm
    monkeypatch.setattr(onednn_sgemm, "sgemm",
                        lambda *a, **k: calls.append(a[0].shape) or sgemm(*a, **k))

    @tf.function
    def f(x, w):
        return tf.matmul(tf.nn.relu(x), w)

    x = tf.random.stateless_normal([6, 5], seed=[1, 2])
    w = tf.random.stateless_normal([5, 7], seed=[3, 4])
    assert f.get_concrete_function(x, w).structured_outputs.shape == (6, 7)
    assert calls == []
    want = tf.matmul(tf.nn.relu(x), w)
    assert calls == [(6, 5)]
    np.testing.assert_array_equal(f(x, w).numpy(), want.numpy())
