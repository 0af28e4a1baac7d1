"""A tape's whole span replayed as one program (framework/section_plan.py): the same values,
clocks, memory, trace events and Keras marks as the section's own steps
(``section_plan.disabled()``), and the section's steps wherever its inputs change or a tape
would record it."""

import numpy as np
import pytest
import replica_programs
import world_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework import graph_plan, kernels, section_plan
from simdist.hardware import backend as _backend

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="compiled graph plans lower ops on the NumPy backend only (graph_plan.py)")


def _assert_same(program):
    return world_state.assert_same(program, section_plan.disabled, seed=5)


def _sections(fn):
    """Whether each section of ``fn``'s first trace runs its program."""
    plan = fn._traces[0].graph._plans[None]
    return [s.lowered for s in plan.steps if isinstance(s, section_plan.SectionStep)]


def _seed_like_program(steps=2, rows=32):
    """Seed 001's custom loop in small: 4 replicas, BCE(NONE) + compute_average_loss, Adam,
    a metric; the last batch smaller (another trace)."""
    return replica_programs.seed_like(rows=rows, steps=steps)()


def test_each_replicas_tape_span_replays_as_one_program_exactly():
    step = _assert_same(_seed_like_program)
    assert _sections(step) == [True] * 4   # forward, loss and sweep of each replica


def test_the_plans_build_is_each_sections_first_capture():
    """The build's run of a section's nodes is its first capture: the graph's second
    execution confirms the program (it needed a third before)."""
    step = _assert_same(replica_programs.seed_like(rows=16, batch=8, steps=1))
    assert _sections(step) == [True] * 4


def test_the_build_verifies_each_op_of_a_section_once(monkeypatch):
    """The build verifies a section's single-op nodes as kernel steps, then every op of the
    section's capture on the same arrays: each op's kernel runs for it once."""
    asked = []
    verify = kernels._verified

    def counted(op_type, attrs, values, out, quiet):
        asked.append(out)   # kept: an id is not reused while the test holds the array
        return verify(op_type, attrs, values, out, quiet)

    monkeypatch.setattr(kernels, "_verified", counted)
    layer = tf.keras.layers.Dense(3, activation="relu")
    mse = tf.keras.losses.MeanSquaredError()

    @tf.function
    def f(x, t):
        with tf.GradientTape() as tape:
            loss = mse(t, tf.sigmoid(layer(x)))
        return tape.gradient(loss, layer.trainable_variables)

    x = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(4, 2)
    f(x, np.ones((4, 3), np.float32))   # traced, then the plan's build
    kinds = [k for _, k in graph_plan.describe(f._traces[0].graph)]
    assert kinds.count("kernel") == 4   # MatMul, BiasAdd, Relu, Sigmoid as their own steps
    ids = [id(out) for out in asked]
    assert len(ids) > 4 and len(ids) == len(set(ids))
    assert _sections(f) == [False]   # a section, captured once (the next call confirms it)


def test_a_section_reads_its_variables_at_each_replay():
    """Weights written between calls (the optimizer inside, an assign outside) are read
    anew: the program's reads are not constants."""
    def program():
        layer = tf.keras.layers.Dense(2, activation="tanh")
        mse = tf.keras.losses.MeanSquaredError()

        @tf.function
        def f(x, t):
            with tf.GradientTape() as tape:
                loss = mse(t, layer(x))
            return loss, tape.gradient(loss, layer.trainable_variables)

        x = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
        t = np.ones((4, 2), np.float32)
        out = []
        for k in range(6):
            out.append(f(x, t))
            layer.kernel.assign(layer.kernel * 0.5 + float(k))
        return out, f

    f = _assert_same(program)
    assert _sections(f) == [True]


def test_a_recording_outer_tape_or_a_new_shape_runs_the_sections_steps():
    def program():
        layer = tf.keras.layers.Dense(2, activation="relu", kernel_initializer="ones")
        mse = tf.keras.losses.MeanSquaredError()

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                      tf.TensorSpec([None, 2], tf.float32)])
        def f(x, t):
            with tf.GradientTape() as tape:
                loss = mse(t, layer(x))
            return loss, tape.gradient(loss, layer.trainable_variables)

        t = np.full((2, 2), 0.5, np.float32)
        out = [f(np.ones((2, 3), np.float32) * k, t) for k in range(4)]
        out.append(f(np.ones((5, 3), np.float32), np.ones((5, 2), np.float32)))   # a shape
        x = tf.constant(np.ones((2, 3), np.float32))
        with tf.GradientTape() as outer:                  # an outer tape records them
            outer.watch(x)
            loss, grads = f(x, t)
        out += [loss, grads, outer.gradient(loss, x)]
        return out, f

    f = _assert_same(program)
    assert _sections(f) == [True]


def test_a_replayed_section_leaves_keras_marks_on_its_outputs():
    """Keras marks a sigmoid output with its logits (``keras_attr``): after a replay the
    returned predictions still carry it, so an eager BCE computes from the logits."""
    def program():
        layer = tf.keras.layers.Dense(2, activation="sigmoid")
        mse = tf.keras.losses.MeanSquaredError()

        @tf.function
        def f(x, t):
            with tf.GradientTape() as tape:
                p = layer(x)
                loss = mse(t, p)
            return p, tape.gradient(loss, layer.trainable_variables)

        x = np.linspace(-30.0, 30.0, 12, dtype=np.float32).reshape(4, 3)
        t = np.ones((4, 2), np.float32)
        bce = tf.keras.losses.BinaryCrossentropy()
        out = []
        for _ in range(5):
            p, grads = f(x, t)
            out += [p, grads, bce(tf.ones_like(p), p)]
        return out, f

    f = _assert_same(program)
    assert _sections(f) == [True]


def test_a_persistent_tape_or_one_named_elsewhere_makes_no_section():
    def program():
        w = tf.Variable(np.full((2, 2), 0.5, np.float32))

        @tf.function
        def f(x):
            with tf.GradientTape(persistent=True) as tape:
                y = tf.sigmoid(tf.matmul(x, w))
            return tape.gradient(y, w), tape.gradient(y * y, w)

        return [f(np.eye(2, dtype=np.float32)) for _ in range(4)], f

    f = _assert_same(program)
    assert _sections(f) == []


_OPS = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b,
        "matmul": lambda a, b: tf.matmul(a, b, transpose_b=True),
        "relu": lambda a, b: tf.nn.relu(a - b), "sigmoid": lambda a, b: tf.sigmoid(a * b),
        "tanh": lambda a, b: tf.tanh(a), "sqdiff": lambda a, b: tf.math.squared_difference(a, b),
        "max": lambda a, b: tf.maximum(a, b), "exp": lambda a, b: tf.exp(a)}


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(st.sampled_from(sorted(_OPS)), min_size=1, max_size=5),
       n=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_random_sections_replay_exactly(ops, n, seed):
    rng = np.random.default_rng(seed)
    values = [rng.normal(size=(n, n)).astype(np.float32) for _ in range(7)]

    def program():
        layer = tf.keras.layers.Dense(n)
        mse = tf.keras.losses.MeanSquaredError()

        @tf.function
        def f(x, b):
            with tf.GradientTape() as tape:
                y = layer(x)
                for name in ops:
                    y = _OPS[name](y, b)
                loss = mse(x, y)
            return loss, tape.gradient(loss, layer.trainable_variables)

        out = []
        for v in values[2:]:
            out.append(f(v, values[1]))
            layer.kernel.assign_sub(out[-1][1][0] * 0.1)
        return out, f

    f = _assert_same(program)
    assert _sections(f) == [True]


def test_a_section_keys_the_variables_it_reads_and_only_those():
    """Each replica's section names every component of the mirrored weights (a node names
    the whole variable) but its program reads its own replica's: a replay checks those
    (one of a new shape: the section's steps run), not the others."""
    from simdist.framework.tensor import Tensor

    step = _assert_same(_seed_like_program)
    for s in [s for s in step._traces[0].graph._plans[None].steps
              if isinstance(s, section_plan.SectionStep)]:
        section = s.program
        read = s._read[1]
        assert 0 < len(read) and 4 * len(read) == len(section.variables)
        assert {v._device for v in read} == {section.program.devices[0][1]}
        dev = read[0]._device
        env = {k: Tensor(np.zeros(shape, dtype), dev) for k, (shape, dtype) in
               zip(section.env_keys, section.key)}
        other = next(v for v in section.variables if not any(v is w for w in read))
        for var, replays in [(other, True), (read[-1], False)]:
            kept = var._value
            var._value = np.zeros((7,) + kept.shape, kept.dtype)   # a new shape
            try:
                assert (s.inputs(env, section) is not None) is replays
            finally:
                var._value = kept
        assert s.inputs(env, section) is not None


def test_reads_looks_custom_gradient_up_without_loading_it(monkeypatch):
    """section_plan._reads: with custom_gradient not loaded no node can be a custom
    gradient's, so a plan's build neither loads it (nor function_library behind it) nor
    counts differently; a graph with a custom gradient keeps every tensor (None)."""
    import sys

    from simdist.framework import custom_gradient, func_graph

    @tf.custom_gradient
    def doubled(x):
        return x * 2.0, lambda dy: dy * 3.0

    def graph_of(body):
        f = tf.function(body)
        f(tf.constant(np.ones((2, 2), np.float32)))
        return f._traces[0].graph

    def plain(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sigmoid(x * x)
        return tape.gradient(y, x)

    def custom(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = doubled(x)
        return tape.gradient(y, x)

    graph = graph_of(plain)
    loaded = section_plan._reads(func_graph, graph)
    assert loaded   # counts, not None
    assert section_plan._reads(func_graph, graph_of(custom)) is None
    monkeypatch.delitem(sys.modules, custom_gradient.__name__)
    monkeypatch.delattr(sys.modules["simdist.framework"], "custom_gradient")   # as unloaded
    assert section_plan._reads(func_graph, graph) == loaded
    program = replica_programs.seed_like(rows=16, batch=8, steps=2)
    tf.keras.utils.set_random_seed(5)
    program()
    assert custom_gradient.__name__ not in sys.modules
