"""The replicas' identical sections as one stacked NumPy computation
(framework/stacked_sections.py, stacked_kernels.py): the same values, clocks, memory and
trace events as each replica's own replay (``stacked_sections.disabled()``); refused where
the replicas' programs differ; every stacked kernel's rows equal the op's kernel on them."""

import contextlib
import re

import numpy as np
import pytest
import replica_programs
import world_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework import (
    call_plan,
    execute,
    kernels,
    section_plan,
    stacked_kernels,
    stacked_sections,
)
from simdist.framework.ops import nn_ops
from simdist.hardware import backend as _backend

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="compiled graph plans lower ops on the NumPy backend only (graph_plan.py)")


def _groups(fn, kind=section_plan.SectionStep):
    """Per trace of ``fn``: whether its first group of ``kind`` steps (sections; the metric
    updates: call_plan.CallStep) computes stacked (None: no group)."""
    found = []
    for trace in fn._traces:
        plan = trace.graph._plans[None]
        first = next(s for s in plan.steps if isinstance(s, kind))
        found.append(None if first.group is None else bool(first.group.stacked))
    return found


def _assert_same(program):
    return world_state.assert_same(program, stacked_sections.disabled, seed=3)


def test_four_replicas_sections_compute_stacked_exactly():
    step = _assert_same(replica_programs.seed_like(steps=3))
    assert _groups(step) == [True]


@pytest.mark.parametrize("metric", ["accuracy", "mse"])
def test_four_replicas_metric_updates_write_stacked_exactly(metric):
    """Each replica's metric update (a call that writes its own total and count) computed
    stacked: the same variables after every step, clocks, memory and events."""
    step = _assert_same(replica_programs.seed_like(steps=4, metric=metric))
    assert _groups(step, call_plan.CallStep) == [True]


def test_outputs_nothing_reads_are_held_as_bytes(monkeypatch):
    """A section's outputs no other node reads (each replica's activations, the sweep's
    intermediate results) are committed as their bytes (stacked_sections.Held), not as
    tensors: memory in use and peak when the optimizer's node starts (after the sections,
    all-reduce included), clocks and events are each replica's own replay's."""
    from simdist.hardware.machine import get_machine
    from simdist.keras.optimizers.optimizer import Optimizer

    held, seen = [], []
    init, apply = stacked_sections.Held.__init__, Optimizer._distributed_apply_gradients_fn

    def counted(self, device, nbytes):
        held.append(nbytes)
        init(self, device, nbytes)

    def probed(self, *args, **kwargs):
        seen.append([(d.memory_in_use, d.peak_memory)
                     for _, d in sorted(get_machine().devices.items())])
        return apply(self, *args, **kwargs)

    monkeypatch.setattr(stacked_sections.Held, "__init__", counted)
    monkeypatch.setattr(Optimizer, "_distributed_apply_gradients_fn", probed)
    _assert_same(replica_programs.seed_like(steps=2))   # 8 executions: 4 stacked
    assert held and min(held) > 0
    half = len(seen) // 2   # each replica's own replay first, then the stacked one
    assert len(seen) == 2 * half > 0 and seen[:half] == seen[half:]


def test_an_error_committing_a_later_replica_is_raised_by_its_own_step(monkeypatch):
    """The first replica's call commits every replica's row; an error committing replica
    2's (here from its outputs' hand-over) is raised by replica 2's own step: the same
    error, naming the same node, and the same world left, as replica 2's own replay."""
    from simdist import errors
    from simdist.testing import reset_world

    finish = section_plan.SectionStep.finish
    calls = []

    def failing(self, env, section, slots):
        calls.append(self.member)
        if calls.count(2) == 4:   # the fourth execution: stacked (after capture, confirm)
            raise errors.InternalError(None, None, "boom")
        return finish(self, env, section, slots)

    monkeypatch.setattr(section_plan.SectionStep, "finish", failing)

    def observe(off):
        reset_world()
        tf.keras.utils.set_random_seed(3)
        calls.clear()
        with off() if off else contextlib.nullcontext():
            with pytest.raises(errors.InternalError) as raised:
                replica_programs.seed_like(steps=2)()
        # (the function's name counts the traces made in this process)
        message = re.sub(r"__inference_step_\d+", "", str(raised.value))
        return message, world_state.world(), list(calls)

    alone, stacked = observe(stacked_sections.disabled), observe(None)
    assert "boom" in stacked[0] and "node" in stacked[0]
    assert stacked == alone


def test_each_execution_answers_its_members_from_its_own_commit(monkeypatch):
    """Two executions of one plan interleaved (two threads): each member's call answers
    from its own execution's commit -- committed, to replay alone, or to raise what
    committing it raised -- whatever the other execution's first call did meanwhile."""
    import types

    boom = RuntimeError("boom")

    class Stash:
        def __init__(self, done):
            self.done = done

        def commit(self, members, env):
            return self.done

    done = {"a": (4, None), "b": (2, boom), "c": (1, None)}
    monkeypatch.setattr(stacked_sections.Group, "_compute",
                        lambda self, env: Stash(done[env["name"]]))
    members = [types.SimpleNamespace(member=k) for k in range(4)]
    group = stacked_sections.Group(members)
    a, b, c = {"name": "a"}, {"name": "b"}, {"name": "c"}
    assert group.replay(members[0], a) and group.replay(members[0], b)
    assert group.replay(members[1], b) and group.replay(members[0], c)
    assert [group.replay(m, a) for m in members[1:]] == [True, True, True]
    with pytest.raises(RuntimeError, match="boom"):
        group.replay(members[2], b)
    assert not group.replay(members[3], b)
    assert [group.replay(m, c) for m in members[1:]] == [False, False, False]


def test_a_smaller_last_batch_traces_again_and_stacks_too():
    step = _assert_same(replica_programs.seed_like(rows=28, steps=5))   # batches of 8, 8, 8 and 4
    assert _groups(step) == [True, True]


def test_replicas_with_other_row_counts_are_refused():
    """A global batch of 6 splits 2, 2, 1, 1: the programs differ, each replays alone."""
    step = _assert_same(replica_programs.seed_like(rows=24, batch=6, steps=3))
    assert _groups(step) == [False]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=st.sampled_from([4, 8, 12]), width=st.integers(1, 5),
       activation=st.sampled_from(["relu", "tanh", "sigmoid", None]),
       loss=st.sampled_from(["bce", "mse"]), last=st.sampled_from(["sigmoid", "linear"]),
       metric=st.sampled_from(["accuracy", "auc", "mse"]))
def test_random_models_stack_exactly(batch, width, activation, loss, last, metric):
    _assert_same(replica_programs.seed_like(rows=2 * batch + 4, batch=batch, width=width,
                                            activation=activation, loss=loss, steps=2,
                                            last=last, metric=metric))


# --- the kernels --------------------------------------------------------------------------
_UNARY = {"Neg": tf.negative, "Square": tf.square, "Abs": tf.abs, "Exp": tf.exp,
          "Reciprocal": tf.math.reciprocal, "Log": tf.math.log, "Log1p": tf.math.log1p,
          "Sqrt": tf.sqrt, "Tanh": tf.tanh, "Sigmoid": tf.sigmoid, "Relu": tf.nn.relu}
_BINARY = {"AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply, "RealDiv": tf.divide,
           "Maximum": tf.maximum, "Minimum": tf.minimum,
           "SquaredDifference": tf.math.squared_difference, "Greater": tf.greater,
           "GreaterEqual": tf.greater_equal, "Less": tf.less, "LessEqual": tf.less_equal,
           "Equal": tf.equal, "NotEqual": tf.not_equal}
_SHAPES = {1: [((5, 3),), ((4,),), ((),)],
           2: [((5, 3), (5, 3)), ((5, 3), ()), ((), (5, 3)), ((5, 3), (3,)),
               ((5, 1), (5, 3)), ((), ())]}


def _rows_equal(op, per_replica):
    """Run ``op`` eagerly on each replica's inputs; the stacked kernel of the op it ran
    (built from the first replica's) must give each replica's output in its row."""
    seen = []

    def watch(op_type, inputs, out, attrs, flops, dev):
        seen.append((op_type, attrs))

    execute.observers.append(watch)
    try:
        outs = [op(*[tf.constant(v) for v in values]).numpy() for values in per_replica]
    finally:
        execute.observers.remove(watch)
    op_type, attrs = seen[-1]
    first = list(per_replica[0])
    kernels.ensure_installed()
    kernel = kernels.verified(op_type, attrs, first, np.asarray(outs[0]))
    assert kernel is not None, op_type
    stacked = stacked_kernels.build(op_type, getattr(kernel, "raw", kernel), attrs, first,
                                    np.asarray(outs[0]))
    assert stacked is not None, op_type
    with np.errstate(all="ignore"):
        got = stacked(*[np.stack([v[i] for v in per_replica]) for i in range(len(first))])
    return all(got[r, ...].dtype == np.asarray(w).dtype and got[r, ...].shape == np.shape(w)
               and got[r, ...].tobytes() == np.asarray(w).tobytes() for r, w in enumerate(outs))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), replicas=st.integers(2, 4))
def test_elementwise_stacked_kernels_give_each_replicas_bits(data, replicas):
    table = data.draw(st.sampled_from([_UNARY, _BINARY]))
    op = table[data.draw(st.sampled_from(sorted(table)))]
    shapes = data.draw(st.sampled_from(_SHAPES[1 if table is _UNARY else 2]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    per_replica = [tuple(np.asarray(rng.standard_normal(s) * 3, np.float32) for s in shapes)
                   for _ in range(replicas)]
    with np.errstate(all="ignore"):
        assert _rows_equal(op, per_replica)


_DTYPES = [(np.float32, np.float32), (np.int32, np.int32), (np.float64, np.float64),
           (np.float32, np.float64), (np.int64, np.float32), (np.bool_, np.bool_)]


@pytest.mark.parametrize("dtypes", _DTYPES)
@pytest.mark.parametrize("op_type", sorted(stacked_kernels._DIRECT) + ["SelectV2"])
def test_direct_stacked_kernels_are_the_kernels_bits_and_errors(op_type, dtypes):
    """Where a stacked kernel is the op's NumPy function itself (stacked_kernels._DIRECT),
    it gives what the kernel gives on the stacked arrays (dtype, bits) or refuses, and
    meets the same floating-point errors (an overflow raises under the caller's "raise",
    as the kernel's own arithmetic does: a stacked run's loud or quiet block decides)."""
    kernels.ensure_installed()
    rng = np.random.default_rng(11)
    big = np.finfo(np.float32).max
    arity = 1 if op_type == "Neg" else 3 if op_type == "SelectV2" else 2
    direct, raised = [], []
    for shapes in _SHAPES[min(arity, 2)]:
        shapes = shapes + ((5, 3),) if arity == 3 else shapes
        types = (np.bool_,) + dtypes[:1] * 2 if arity == 3 else dtypes[:arity]
        with np.errstate(all="ignore"):   # row 0 near float32's largest: overflows
            rows = [[(rng.standard_normal(sh) * 3 + big * (i == 0)).astype(t)
                     for sh, t in zip(shapes, types)] for i in range(3)]
        first = rows[0]
        with np.errstate(all="ignore"):
            out = kernels._BUILDERS[op_type]({}, first, None)
            out = None if out is None else getattr(out, "raw", out)(*first)
        kernel = None if out is None else kernels.verified(op_type, {}, first, np.asarray(out))
        if kernel is None:
            continue
        raw = getattr(kernel, "raw", kernel)
        stacked = stacked_kernels.build(op_type, raw, {}, first, np.asarray(out))
        inputs = [np.stack([r[i] for r in rows]) for i in range(arity)]
        want = stacked_kernels._padded(raw, first)
        direct.append(stacked_kernels._direct(op_type, first, np.asarray(out)) is not None)
        for state in ("ignore", "raise"):
            results = []
            for fn in (stacked, want):
                with np.errstate(all=state):
                    try:
                        results.append(fn(*inputs))
                    except FloatingPointError as e:
                        results.append(str(e))
            got, expected = results
            if isinstance(expected, str):
                assert got == expected
                raised.append(op_type)
            else:
                assert type(got) is np.ndarray and got.dtype == expected.dtype
                assert got.shape == expected.shape and got.tobytes() == expected.tobytes()
    if dtypes == (np.float32, np.float32):   # the seed-001 loop's: the direct path, checked
        assert direct and all(direct)
        if op_type in ("AddV2", "Mul"):
            assert raised


def test_stacked_exp_of_scalars_gives_each_replicas_bits():
    """Stacked Exp computes each row as a tensor of its own; a row of 0-d values (a NumPy
    float32 scalar when Exp ran row by row) took NumPy's own exp (one ulp off Eigen's for
    0.37719065; found by the property test above)."""
    per_replica = [(np.asarray(0.37719065, np.float32),), (np.asarray(-0.3963146, np.float32),)]
    assert _rows_equal(tf.exp, per_replica)


@pytest.mark.parametrize("shape", [(64, 1), (5, 3), (7,)])
def test_stacked_exp_gives_each_replicas_bits_packets_and_tail(shape):
    """Stacked float32 Exp computes every row at once (eigen_cpu.exp_rows): each row's
    whole packets of 8 by Eigen's polynomial and its last ``size % 8`` values by
    ``std::exp``, as the row's own tensor takes them (not the stacked array's tail)."""
    rng = np.random.default_rng(7)
    per_replica = [(np.asarray(rng.standard_normal(shape) * 20, np.float32),)
                   for _ in range(3)]
    with np.errstate(all="ignore"):
        assert _rows_equal(tf.exp, per_replica)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), replicas=st.integers(2, 4))
def test_shaping_and_reducing_stacked_kernels_give_each_replicas_bits(data, replicas):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16)))
    rows, cols = data.draw(st.integers(1, 70)), data.draw(st.integers(1, 9))
    case = data.draw(st.sampled_from(["matmul", "bias", "bias_grad", "sum", "mean", "reshape",
                                      "broadcast", "ones", "zeros", "size"]))
    a = [(rng.standard_normal((rows, cols)) * 2).astype(np.float32) for _ in range(replicas)]
    if case == "matmul":
        ta, tb = data.draw(st.booleans()), data.draw(st.booleans())
        b = [rng.standard_normal((rows, 4) if ta else (cols, 4)).astype(np.float32)
             for _ in range(replicas)]
        b = [x.T.copy() if tb else x for x in b]
        op = lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb)  # noqa: E731
        per_replica = list(zip(a, b))
    elif case == "bias":
        op, per_replica = tf.nn.bias_add, list(zip(a, [x[0] for x in a]))
    elif case in ("sum", "mean"):
        axis = data.draw(st.sampled_from([None, 0, 1, -1, [0, 1]]))
        keep = data.draw(st.booleans())
        fn = tf.reduce_sum if case == "sum" else tf.reduce_mean
        op, per_replica = (lambda x: fn(x, axis=axis, keepdims=keep)), [(x,) for x in a]
    elif case == "broadcast":   # a column to 3 columns
        op = lambda x: tf.broadcast_to(x, [rows, 3])  # noqa: E731
        per_replica = [(x[:, :1].copy(),) for x in a]
    else:
        op = {"reshape": lambda x: tf.reshape(x, [-1]), "ones": tf.ones_like,
              "bias_grad": lambda x: nn_ops.bias_add_grad(x, -1),
              "zeros": tf.zeros_like, "size": tf.size}[case]
        per_replica = [(x,) for x in a]
    assert _rows_equal(op, per_replica)


@pytest.mark.parametrize("shape,axis", [((64, 1), 0), ((64, 1), 1), ((64, 1), None), ((64,), 0),
                                        ((3, 40), 1), ((40, 3), 0), ((2, 3, 33), 2)])
@pytest.mark.parametrize("op", [tf.reduce_sum, tf.reduce_mean])
def test_stacked_sums_and_means_give_each_replicas_bits(shape, axis, op):
    """Sums TF takes as row sums or copies (the seed-001 loop's (64,) and (64, 1) over
    axis 0 and (64, 1) over axis 1 among them): one inner_sum of every replica's rows."""
    rng = np.random.default_rng(5)
    per_replica = [(rng.standard_normal(shape).astype(np.float32),) for _ in range(4)]
    assert _rows_equal(lambda x: op(x, axis=axis), per_replica)


@pytest.mark.parametrize("shape", [(64, 1), (64, 8), (64, 16), (2, 1), (70, 3)])
def test_stacked_bias_grads_give_each_replicas_bits(shape):
    rng = np.random.default_rng(6)
    per_replica = [(rng.standard_normal(shape).astype(np.float32),) for _ in range(4)]
    assert _rows_equal(lambda x: nn_ops.bias_add_grad(x, -1), per_replica)


def test_consecutive_calls_where_one_reads_the_others_output_replay_in_turn():
    """A loss call then compute_average_loss of its output: consecutive call steps, but
    the second's input is made by the first; they are not stacked, each runs in turn."""
    def program():
        loss_object = tf.keras.losses.BinaryCrossentropy(
            reduction=tf.keras.losses.Reduction.NONE)

        @tf.function
        def f(y, p):
            return tf.nn.compute_average_loss(loss_object(y, p), global_batch_size=8)

        y = tf.constant(np.linspace(0, 1, 8, dtype=np.float32).reshape(8, 1))
        p = tf.constant(np.linspace(0.1, 0.9, 8, dtype=np.float32).reshape(8, 1))
        return [f(y, p) for _ in range(5)], f

    fn = _assert_same(program)
    steps = fn._traces[0].graph._plans[None].steps
    assert [type(s) for s in steps] == [call_plan.CallStep] * 2
    assert steps[0].group is steps[1].group and steps[0].group.stacked is False


class _Value:
    def __init__(self, value):
        self._value = value


@pytest.mark.parametrize("state", ["ignore", "warn", "raise"])
def test_a_stacked_run_steps_under_their_blocks_errstate(state):
    """Quiet blocks' steps run with every floating-point error ignored, loud ones' under
    the caller's state made strict (warn -> raise): an overflow in a quiet step is kept,
    one in a loud step drops the run (None: each member replays alone, warning or raising
    as its op does) unless the caller ignores it; the caller's state is back after."""
    big = np.full(3, np.finfo(np.float32).max, np.float32)
    seen = []

    def step(slot, loud):
        def run(arrays, objs):
            seen.append((loud, np.geterr()))
            arrays[slot] = arrays[0] * arrays[0] if loud is not None else arrays[0]
        return run

    blocks = [(False, (step(1, False),)), (True, (step(2, True), step(3, None))),
              (False, (step(4, False),))]
    stacked = stacked_sections._Stacked(5, 5, [0], blocks, [[], []], [], [], [0])
    objs = [[_Value(big)], [_Value(big)]]
    with np.errstate(all=state):
        before = np.geterr()
        stash = stacked.run(objs)
        assert np.geterr() == before
    quiet = dict.fromkeys(before, "ignore")
    strict = {k: "ignore" if v == "ignore" else "raise" for k, v in before.items()}
    expected = [(False, quiet), (True, strict), (None, strict), (False, quiet)]
    if state == "ignore":
        assert stash is not None and np.isinf(stash.arrays[2]).all()
        assert seen == expected
    else:   # the loud overflow raised: the run stops there
        assert stash is None and seen == expected[:2]


@pytest.mark.parametrize("loss", ["bce", "sparse"])
def test_fit_replays_its_steps_as_programs_exactly(loss):
    """Keras's fit step: each replica's forward pass, loss (its loss metric's update
    inside the tape) and backward sweep is one section computed stacked, as are the
    accuracy's updates (binary cross-entropy); or its sweep and accuracy updates are
    programs (sparse categorical: the loss checks its labels' values in Python, so it
    runs whole); the same History,
    weights, clocks, memory and events as the node-by-node replay."""
    from simdist.framework import gradient_plan, graph_plan

    fn = world_state.assert_same(replica_programs.fitted(loss), graph_plan.disabled, seed=3)
    steps = [t for s in fn._traces[0].graph._plans[None].steps   # a section's own steps
             for t in (s.inner if isinstance(s, section_plan.SectionStep) else [s])]
    if loss == "bce":
        assert _groups(fn) == [True]
        assert _groups(fn, call_plan.CallStep) == [True]   # the accuracy's updates
    else:
        assert [s.lowered for s in steps if isinstance(s, gradient_plan.GradientStep)] == \
            [True] * 4
        updates = [s for s in steps if isinstance(s, call_plan.CallStep) and
                   s.node.name.endswith("MeanMetricWrapper.update_state")]
        assert [s.lowered for s in updates] == [True] * 4


@pytest.mark.parametrize("case", ["shape", "slice", "squeeze", "expand", "argmax", "argmin",
                                  "softmax", "xent_softmax"])
def test_fit_steps_stacked_kernels_give_each_replicas_bits(case):
    """The kernels of a fit step's shape ops, its accuracy's ArgMax and its softmaxes."""
    rng = np.random.default_rng(11)
    shape = (5, 1) if case == "squeeze" else (6, 3)
    per_replica = [((rng.standard_normal(shape) * 3).astype(np.float32),) for _ in range(4)]
    op = {"shape": tf.shape, "slice": lambda x: x[1:, 0], "squeeze": tf.squeeze,
          "expand": lambda x: tf.expand_dims(x, -1), "argmax": lambda x: tf.argmax(x, 1),
          "argmin": lambda x: tf.argmin(x, 0), "softmax": tf.nn.softmax,
          "xent_softmax": nn_ops.xent_softmax}[case]
    assert _rows_equal(op, per_replica)
