"""A graph executed through its compiled plan (graph_plan) gives what the node-by-node
replay gives: the same outputs and variables bit for bit, the same simulated clocks, the
same trace events (names, devices, times, args) and the same memory (peaks, in use), on
dense models, control flow, random ops, variable updates, a MirroredStrategy step and an
iterator's next(); nodes it cannot lower run as before."""

import contextlib
import gc
import re

import numpy as np
import pytest
import world_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework import call_plan, gradient_plan, graph_plan, section_plan
from simdist.hardware import backend as _backend
from simdist.hardware.machine import get_machine
from simdist.testing import reset_world

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="compiled graph plans lower ops on the NumPy backend only (graph_plan.py)")


_world = world_state.world


def _numpy(x):
    return [np.asarray(v) for v in tf.nest.flatten(x)]


def _observe(program, planned: bool):
    """``program()`` (building and calling its functions) in a fresh world; (outputs,
    devices, events, the functions it returned)."""
    reset_world()
    tf.keras.utils.set_random_seed(7)   # the same initial weights in both runs
    if planned:
        out, fns = program()
    else:
        with graph_plan.disabled():
            out, fns = program()
    devices, events = _world()
    return _numpy(out), devices, events, fns


def _assert_same(program):
    """Plan and node-by-node replay agree exactly; the plan's functions (to inspect)."""
    old = _observe(program, planned=False)
    new = _observe(program, planned=True)
    assert len(old[0]) == len(new[0])
    for a, b in zip(old[0], new[0]):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()
    assert old[1] == new[1]                 # clocks, peak memory, memory in use
    assert len(old[2]) == len(new[2]) > 0
    assert old[2] == new[2]                 # every event: name, device, times, args
    return new[3]


def _kinds(fn):
    return dict(graph_plan.describe(fn._traces[0].graph))


def _dense_program():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="relu", input_shape=(5,)),
        tf.keras.layers.Dense(3, activation="sigmoid")])
    opt = tf.keras.optimizers.Adam(0.01)
    loss_fn = tf.keras.losses.MeanSquaredError()

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    rng = np.random.default_rng(0)
    losses = [step(rng.normal(size=(6, 5)).astype(np.float32),
                   rng.normal(size=(6, 3)).astype(np.float32)) for _ in range(4)]
    return losses + [w.numpy() for w in model.weights], step


def test_a_dense_training_step_lowers_its_layers_and_replays_exactly():
    with section_plan.disabled():   # each step's own lowering (test_section_plan: whole)
        step = _assert_same(_dense_program)
    kinds = _kinds(step)
    dense = "sequential/dense/"   # TF's names: the layer's call scope, TF's op types
    assert kinds[dense + "MatMul"] == kinds[dense + "BiasAdd"] == kinds[dense + "Relu"] \
        == "kernel"
    assert kinds[dense + "MatMul/ReadVariableOp"] == "read"   # TF: read in the op's scope
    assert kinds["gradients"] == "sweep"   # the tape's backward pass: gradient_plan
    # the loss's ops: call_plan
    assert kinds["mean_squared_error/weighted_loss/value"] == "call"
    assert _lowered(step, call_plan.CallStep) == [True]


def _control_flow_program():
    w = tf.Variable([[1.0, 0.5], [-0.5, 2.0]])

    @tf.function
    def f(x, n):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.matmul(x, w) + 1.0,
                    lambda: tf.nn.relu(x) * 3.0)
        i = tf.constant(0)
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * 1.5 - x),
                             [i, y])
        return tf.sigmoid(y)

    xs = [np.array([[1.0, 2.0]], np.float32), np.array([[-3.0, 1.0]], np.float32)]
    out = [f(x, tf.constant(k)) for x in xs for k in (0, 3)]
    return out, f


def test_cond_and_while_loop_replay_exactly():
    _assert_same(_control_flow_program)


def _random_program():
    @tf.function
    def f(x):
        return tf.random.normal([3, 4]) * x + tf.random.uniform([3, 4], seed=3)

    return [f(tf.constant(float(k))) for k in range(4)], f


def test_random_ops_keep_their_state_from_call_to_call():
    _assert_same(_random_program)


def _variables_program():
    v = tf.Variable(np.ones((4, 4), np.float32))
    acc = tf.Variable(0.0)

    @tf.function
    def f(x):
        v.assign(tf.matmul(v, x) - tf.matmul(x, x))
        acc.assign_add(tf.reduce_sum(v * x))
        return v.read_value() + acc

    x = tf.constant(np.eye(4, dtype=np.float32) * 0.5)
    return [f(x) for _ in range(4)] + [v.numpy(), acc.numpy()], f


def test_variable_updates_replay_exactly():
    kinds = _kinds(_assert_same(_variables_program))
    assert kinds["MatMul"] == "node"        # reads the variable inside the op: runs whole
    assert kinds["MatMul_1"] == "kernel"


def _mirrored_program():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(4, activation="relu", input_shape=(3,)),
            tf.keras.layers.Dense(1, activation="sigmoid")])
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)
    x = np.linspace(-1.0, 1.0, 48, dtype=np.float32).reshape(16, 3)
    y = (x.sum(axis=1, keepdims=True) > 0).astype(np.float32)
    iterator = iter(strategy.experimental_distribute_dataset(
        tf.data.Dataset.from_tensor_slices((x, y)).batch(8).repeat()))

    @tf.function
    def step():
        def fn(features, labels):
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(
                    loss_object(labels, model(features, training=True)), global_batch_size=8)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        return strategy.reduce("SUM", strategy.run(fn, args=next(iterator)), axis=None)

    return [step() for _ in range(3)] + [w.numpy() for w in model.weights], step


def test_a_mirrored_step_with_collectives_and_next_replays_exactly():
    with section_plan.disabled():   # each step's own lowering (test_section_plan: whole)
        step = _assert_same(_mirrored_program)
    kinds = _kinds(step)
    assert "kernel" in kinds.values() and "node" in kinds.values()
    assert _sweeps(step) == [True] * 4   # each replica's backward pass: kernel calls
    assert kinds["binary_crossentropy/weighted_loss/Mul"] == \
        kinds["replica_3/compute_average_loss"] == "call"   # TF: replica 3's name scope
    assert _lowered(step, call_plan.CallStep) == [True] * 8


def _lowered(fn, kind):
    """Whether each ``kind`` step of ``fn``'s first trace's plan runs its program."""
    plan = fn._traces[0].graph._plans[None]
    steps = [t for s in plan.steps   # a section's own steps (run while sections are off)
             for t in (s.inner if isinstance(s, section_plan.SectionStep) else [s])]
    return [s.lowered for s in steps if isinstance(s, kind)]


def _sweeps(fn):
    """Whether each tape.gradient node of ``fn``'s first trace sweeps by its program."""
    return _lowered(fn, gradient_plan.GradientStep)


def _tape_program(persistent=False, relaxed=False):
    """A plain GradientTape step: matmul, bias, activations, a mean, a clipped penalty."""
    w = tf.Variable(np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3))
    b = tf.Variable(np.full((3,), 0.1, np.float32))

    spec = [tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None, 3], tf.float32)]

    @tf.function(input_signature=spec if relaxed else None)
    def step(x, y):
        with tf.GradientTape(persistent=persistent) as tape:
            h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w), b))
            p = tf.sigmoid(h) * 2.0 - tf.tanh(h)
            loss = tf.reduce_mean(tf.square(p - y)) + tf.reduce_sum(tf.maximum(w, 0.5)) / 3
            if persistent:   # inside its context a persistent tape records the sweep
                gw, gb = tape.gradient(loss, [w, b])
        if not persistent:
            gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(gw * 0.1)
        b.assign_sub(gb * 0.1)
        return loss, gw, gb

    rng = np.random.default_rng(3)
    rows = [2, 2, 3, 2, 2] if relaxed else [2] * 5
    out = [step(rng.normal(size=(n, 4)).astype(np.float32),
                rng.normal(size=(n, 3)).astype(np.float32)) for n in rows]
    return out + [w.numpy(), b.numpy()], step


def test_a_gradient_tapes_backward_pass_replays_as_kernel_calls_exactly():
    from simdist.framework import execute
    from simdist.framework.tensor import Tensor

    init = Tensor.__dict__["__init__"]
    step = _assert_same(_tape_program)
    assert Tensor.__dict__["__init__"] is init and not execute.observers   # hooks removed
    assert _kinds(step)["gradients"] == "sweep"
    assert _sweeps(step) == [True]


@contextlib.contextmanager
def _memory_at_each_gradient(seen: list):
    """Around every tape.gradient: each device's peak put back to its use before, and
    (memory in use, peak) of every device after -- the sweep's own peak, as it left it."""
    from simdist.framework import backprop

    real = backprop.GradientTape._gradient

    def gradient(tape, *args):
        devices = sorted(get_machine().devices.items())
        for _, d in devices:
            d.peak_memory = d.memory_in_use
        out = real(tape, *args)
        seen.append([(d.memory_in_use, d.peak_memory) for _, d in devices])
        return out

    backprop.GradientTape._gradient = gradient
    try:
        yield
    finally:
        backprop.GradientTape._gradient = real


def test_a_tape_free_sweep_keeps_arrays_and_leaves_each_peak_as_the_ops_do():
    """A sweep's program runs its dying tensors as arrays (op_capture._Raw) and raises each
    device's peak once: after every sweep, memory in use and peak equal the rules'."""
    from simdist.framework import op_capture

    raw_runs = []
    real = op_capture._Raw.run

    def counted(raw, program, objs):
        raw_runs.append(len(raw.steps))
        return real(raw, program, objs)

    rules, planned = [], []
    with _memory_at_each_gradient(rules):
        _observe(_tape_program, planned=False)
    gc.collect()   # the first run's garbage, not freed inside the next run's captures
    op_capture._Raw.run = counted
    try:
        with _memory_at_each_gradient(planned):
            step = _observe(_tape_program, planned=True)[3]
    finally:
        op_capture._Raw.run = real
    assert _sweeps(step) == [True] and raw_runs and min(raw_runs) > 5
    assert len(rules) == len(planned) == 6   # the trace, then 5 executions
    assert rules == planned
    assert any(peak > use for sweep in rules for use, peak in sweep)   # a sweep peaked


def test_a_persistent_tape_and_a_changed_shape_sweep_by_the_rules_exactly():
    step = _assert_same(lambda: _tape_program(persistent=True))
    assert _sweeps(step) in ([], [False])   # a tape records the sweep: the rules run
    # one graph for every batch size: a confirmed program meets records of other shapes
    # at the third call (the rules sweep), its own again at the fourth
    calls = []
    real = gradient_plan._Sweep.__call__

    def spy(program, tape, *args):
        calls.append(gradient_plan._objects(tape.records, *args[:1], args[2])[1]
                     == program.key)
        return real(program, tape, *args)

    gradient_plan._Sweep.__call__ = spy
    try:
        step = _assert_same(lambda: _tape_program(relaxed=True))
    finally:
        gradient_plan._Sweep.__call__ = real
    assert _sweeps(step) == [True] and calls == [False, True, True]


def _relaxed_program():
    w = tf.Variable(np.full((3, 2), 0.25, np.float32))

    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.nn.relu(tf.matmul(x, w)) * x[:, :2]

    out = [f(np.ones((n, 3), np.float32) * n) for n in (2, 3, 4, 5, 4)]
    return out, f


def test_a_relaxed_shape_runs_the_node_when_its_shape_changes():
    _assert_same(_relaxed_program)


def _half_program():
    @tf.function
    def f(a, b):
        return tf.matmul(a, b) + a

    a = tf.constant(np.full((2, 2), 1.5, np.float16))
    return [f(a, a), f(a, a)], f


def test_a_half_precision_matmul_is_not_lowered_and_still_replays_exactly():
    f = _assert_same(_half_program)
    kinds = _kinds(f)
    assert kinds["MatMul"] == "node"      # float16 accumulates in float32: the op runs
    assert kinds["add"] == "kernel"


_OPS = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
        "matmul": lambda a, b: tf.matmul(a, b, transpose_b=True),
        "relu": lambda a, b: tf.nn.relu(a - b), "sigmoid": lambda a, b: tf.sigmoid(a * b),
        "bias": lambda a, b: tf.nn.bias_add(a, b[0]), "tanh": lambda a, b: tf.tanh(a),
        "exp": lambda a, b: tf.exp(a * 0.25), "sqrt": lambda a, b: tf.sqrt(tf.abs(a)),
        "square": lambda a, b: tf.square(a) - b, "neg": lambda a, b: tf.negative(a),
        "max": lambda a, b: tf.maximum(a, b), "min": lambda a, b: tf.minimum(a, b),
        "sqdiff": lambda a, b: tf.math.squared_difference(a, b)}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(st.sampled_from(sorted(_OPS)), min_size=1, max_size=8),
       n=st.integers(1, 4), dtype=st.sampled_from([np.float32, np.float64]),
       seed=st.integers(0, 2**16))
def test_random_elementwise_programs_replay_exactly(ops, n, dtype, seed):
    rng = np.random.default_rng(seed)
    a0 = rng.normal(size=(n, n)).astype(dtype)
    b0 = rng.normal(size=(n, n)).astype(dtype)

    def program():
        @tf.function
        def f(a, b):
            for name in ops:
                a = _OPS[name](a, b)
            return a

        return [f(a0, b0), f(b0, a0), f(a0 * 2, b0)], f

    _assert_same(program)


def test_plans_can_be_turned_off_and_are_rebuilt_for_a_new_machine():
    out, f = _half_program()
    graph = f._traces[0].graph
    assert graph_plan.describe(graph)
    with graph_plan.disabled():
        assert not graph_plan.enabled()
    reset_world()
    plan = graph._plans[None]
    a = tf.constant(np.full((2, 2), 1.5, np.float16))
    np.testing.assert_array_equal(f(a, a).numpy(), out[0].numpy())
    assert graph._plans[None] is not plan   # the old plan held the old machine's devices
    with tf.device("/GPU:1"):               # one plan per device scope of the calls
        assert f(a, a).device.endswith("GPU:1")
    gpu1 = get_machine().devices[f(a, a).device.replace("GPU:0", "GPU:1")]
    assert set(graph._plans) == {None, gpu1}
    assert graph_plan.describe(graph, gpu1) == graph_plan.describe(graph)


@pytest.fixture(autouse=True)
def _fresh():
    yield
    reset_world()


def _oom_message(planned: bool) -> str:
    """The error of a lowered matmul whose output no longer fits its device."""
    reset_world()
    ctx = graph_plan.disabled() if not planned else contextlib.nullcontext()
    with ctx:
        f = tf.function(lambda a, b: tf.matmul(a, b))
        a = tf.constant(np.ones((64, 64), np.float32))
        f(a, a)
        f(a, a)
        dev = get_machine().devices[a.device]
        dev.memory_limit = dev.memory_in_use + 100
        with pytest.raises(tf.errors.ResourceExhaustedError) as e:
            f(a, a)
    # each tf.function's concrete function has its own number (__inference_<lambda>_7)
    return re.sub(r"__inference_<lambda>_\d+", "__inference_<lambda>_N", str(e.value))


def test_an_output_that_no_longer_fits_raises_the_ops_own_error():
    assert _oom_message(True) == _oom_message(False)
    # at a graph's execution TF names the node after the kernel's text, then the function
    assert "by allocator GPU_0_bfc\n\t [[{{node MatMul}}]] [Op:__inference_<lambda>_N]\n" \
        "It needs" in _oom_message(True)


def _variable_argument_program():
    @tf.function
    def f(v, x):
        return tf.matmul(v.read_value(), x) + x

    x = tf.constant(np.eye(2, dtype=np.float32))
    a, b = tf.Variable(x * 2.0), tf.Variable(x * 3.0)
    return [f(a, x), f(b, x), f(a, x)], f


def test_a_variable_argument_is_read_from_each_calls_variable():
    kinds = _kinds(_assert_same(_variable_argument_program))
    # read_value() reads in a "Read" scope, as TF names it
    assert kinds["Read/ReadVariableOp"] == "read" and kinds["MatMul"] == "kernel"


def _iterator_program():
    data = np.arange(12, dtype=np.float32).reshape(6, 2)
    iterator = iter(tf.data.Dataset.from_tensor_slices(data).batch(2))
    w = tf.Variable(np.array([[1.0], [-1.0]], np.float32))

    @tf.function
    def f():
        return tf.sigmoid(tf.matmul(next(iterator), w) * 0.5)

    out = [f() for _ in range(3)]
    with pytest.raises(tf.errors.OutOfRangeError):
        f()
    return out, f


def test_an_iterators_next_replays_exactly_and_ends_in_out_of_range():
    _assert_same(_iterator_program)


def test_every_lowered_op_of_the_random_programs_becomes_a_kernel():
    a = np.linspace(-1.0, 1.0, 9, dtype=np.float32).reshape(3, 3)

    @tf.function
    def f(a, b):
        for name in sorted(_OPS):
            a = _OPS[name](a, b)
        return a

    f(a, a.T)
    f(a.T, a)
    kinds = graph_plan.describe(f._traces[0].graph)
    # the Python-scalar operand of exp's a * 0.25 runs as a node; b[0] (a strided slice
    # by a constant key) is a kernel
    assert [n for n, k in kinds if k == "node"] == ["mul"]
    assert dict(kinds)["strided_slice"] == "kernel"
    assert len(kinds) > 15


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(st.sampled_from(sorted(_OPS)), min_size=1, max_size=6),
       n=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_random_programs_backward_passes_replay_exactly(ops, n, seed):
    rng = np.random.default_rng(seed)
    values = [rng.normal(size=(n, n)).astype(np.float32) for _ in range(6)]

    def program():
        a, b = tf.Variable(values[0]), tf.Variable(values[1])

        @tf.function
        def f(x):
            with tf.GradientTape() as tape:
                y = a * x
                for name in ops:
                    y = _OPS[name](y, b)
                loss = tf.reduce_sum(y * x)
            return tape.gradient(loss, [a, b])

        return [f(v) for v in values[2:]], f

    _assert_same(program)


def _loss_program(make_loss):
    loss_fn = make_loss()
    layer = tf.keras.layers.Dense(2, activation="sigmoid")   # keeps its logits

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, layer(x))
        return loss, tape.gradient(loss, layer.trainable_variables)

    x = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(4, 3)
    ys = [np.array([[0, 1]] * 4, np.float32), np.array([[1, 0]] * 4, np.float32)] * 2
    return [step(x * (k + 1), y) for k, y in enumerate(ys)], step


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("make_loss", [
    lambda: tf.keras.losses.BinaryCrossentropy(from_logits=True),   # warns: runs whole
    lambda: tf.keras.losses.MeanSquaredError()])
def test_a_loss_replays_as_kernel_calls_only_where_its_python_has_no_effect(make_loss):
    with section_plan.disabled():   # the call's own lowering, not its tape's section
        step = _assert_same(lambda: _loss_program(make_loss))
    whole = not isinstance(make_loss(), tf.keras.losses.MeanSquaredError)
    assert _lowered(step, call_plan.CallStep) == ([] if whole else [True])


def test_a_cyclic_collection_during_a_capture_does_not_refuse_it():
    """The cyclic garbage collector, run at an allocation inside a captured run, would
    free an older tensor there (a death a program cannot replay, so the capture is
    refused) at a moment set by allocation counts: a suite run lowered a loss or not by
    where the collections fell. Captures run with the collector paused."""
    import gc

    from simdist.framework import kernels, op_capture

    class Junk:   # a cycle holding a tensor from before the run: only the collector frees it
        def __init__(self):
            self.me, self.tensor = self, tf.constant([1.0, 2.0])

    kernels.ensure_installed()
    x = tf.constant([3.0, 4.0])
    thresholds = gc.get_threshold()
    gc.collect()
    Junk()
    cap = op_capture.Capture(False)
    try:
        with cap.watching():
            gc.set_threshold(1, 1, 1)   # a collection at the run's next allocation
            y = x + x * x
    finally:
        gc.set_threshold(*thresholds)
    program = cap.compile({id(x): 0}, [y])
    assert cap.refused is None and program is not None
    assert gc.isenabled()
    np.testing.assert_array_equal(program.run([x])[program.result[0]].numpy(), [12.0, 20.0])
