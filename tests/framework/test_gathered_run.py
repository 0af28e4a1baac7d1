"""Gathered program runs (framework/gathered_run.py): kernels first, charges after, one
errstate per block -- the same values, clocks, memory, trace events and NumPy warnings as
the op-by-op run of the same program (``gathered_run.disabled()``)."""

import contextlib
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework import gathered_run, gradient_plan, op_capture
from simdist.hardware import backend as _backend
from simdist.hardware.machine import get_machine
from simdist.testing import reset_world

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="compiled graph plans lower ops on the NumPy backend only (graph_plan.py)")

# Ops whose gradients run loud kernels (reductions, divisions: they may warn) between
# quiet ones, and inputs that make them warn (zeros, negatives).
_OPS = {"log": lambda a, b: tf.math.log(a),          # log(0), log(<0): warnings, inf/NaN
        "div": lambda a, b: a / b,
        "sqrt": lambda a, b: tf.sqrt(a - b),
        "mean": lambda a, b: a - tf.reduce_mean(a * b, axis=0),
        "bias": lambda a, b: tf.nn.bias_add(a, b[0]),
        "matmul": lambda a, b: tf.matmul(a, b, transpose_b=True),
        "sigmoid": lambda a, b: tf.sigmoid(a * b),
        "relu": lambda a, b: tf.nn.relu(a - b)}


def _observe(program, gathered: bool):
    reset_world()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if gathered:
            out = program()
        else:
            with gathered_run.disabled():
                out = program()
    m = get_machine()
    devices = [(name, d.clock, d.peak_memory, d.memory_in_use)
               for name, d in sorted(m.devices.items())]
    events = [(e.name, e.cat, e.device, e.start, e.end, sorted(e.args.items()))
              for e in m.trace.events]
    values = [np.asarray(v).tobytes() for v in tf.nest.flatten(out)]
    numpy_warnings = [(w.category, str(w.message)) for w in seen
                      if issubclass(w.category, RuntimeWarning)]
    return values, devices, events, numpy_warnings


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(st.sampled_from(sorted(_OPS)), min_size=1, max_size=6),
       n=st.integers(1, 3), zero=st.booleans(), seed=st.integers(0, 2**16))
@example(ops=["log", "div", "mean", "matmul", "sigmoid"], n=2, zero=True, seed=3)
def test_gathered_sweeps_and_calls_equal_op_by_op_runs(ops, n, zero, seed):
    rng = np.random.default_rng(seed)
    values = [rng.normal(size=(n, n)).astype(np.float32) for _ in range(6)]
    if zero:
        values[3][0, 0] = 0.0
    ran = []

    def program():
        a, b = tf.Variable(values[0]), tf.Variable(values[1])
        loss_fn = tf.keras.losses.MeanSquaredError()   # a call program under the tape

        @tf.function
        def f(x):
            with tf.GradientTape() as tape:
                y = a * x
                for name in ops:
                    y = _OPS[name](y, b)
                loss = loss_fn(x, y)
            return loss, tape.gradient(loss, [a, b])

        out = [f(v) for v in values[2:] + values[2:]]
        ran.append(f)
        return out

    old = _observe(program, gathered=False)
    runs = []
    real = gathered_run.Gathered.run

    def counted(self, slots, outer):
        runs.append(len(self.segments))
        return real(self, slots, outer)

    gathered_run.Gathered.run = counted
    try:
        new = _observe(program, gathered=True)
    finally:
        gathered_run.Gathered.run = real
    assert old == new
    assert len(new[2]) > 0 and runs   # programs ran gathered (the loss call, sweeps)
    if "bias" not in ops:   # (a strided slice's gradient has no kernel: the rules sweep)
        step = ran[-1]._traces[0].graph._plans[None].steps
        assert any(isinstance(s, gradient_plan.GradientStep) and s.lowered for s in step)


class _Boom(Exception):
    pass


def test_a_kernel_that_raises_leaves_only_the_ops_before_it_charged():
    """Three ops on one device, the second one's kernel raises: the first is charged (as
    the op-by-op run charges it before the second runs), the others are not."""
    reset_world()
    dev = get_machine().devices["/job:localhost/replica:0/task:0/device:GPU:0"]
    done = []

    def ok(slots):
        done.append(len(done))

    def boom(slots):
        raise _Boom

    charge = ("Mul", 100.0, 4096, False)
    run = gathered_run.Gathered([ok, boom, ok], [False, True, False],
                                [(dev, charge)] * 3)
    clock, events = dev.clock, len(get_machine().trace)
    with pytest.raises(_Boom):
        run.run([], np.geterr())
    assert done == [0]
    assert len(get_machine().trace) == events + 1
    assert dev.clock == clock + dev.op_cost(100.0, 4096)
    assert get_machine().trace.events[-1].name == "Mul"


def test_blocks_group_steps_by_errstate_and_constants_join_either():
    steps = [object() for _ in range(6)]
    run = gathered_run.Gathered(steps, [None, False, True, None, True, False], [None] * 6)
    assert [(loud, len(block)) for loud, block in run.blocks] == \
        [(False, 2), (True, 3), (False, 1)]


def test_a_logged_placement_runs_op_by_op():
    assert gathered_run.usable()
    tf.debugging.set_log_device_placement(True)
    try:
        assert not gathered_run.usable()
    finally:
        tf.debugging.set_log_device_placement(False)
    with gathered_run.disabled():
        assert not gathered_run.usable()
    assert op_capture.gathered_run is gathered_run


def test_a_loud_kernel_warns_in_a_gathered_run_as_the_op_does():
    """BiasAddGrad's sum overflows float32 and NumPy warns, as the op does: under the
    caller's errstate inside a gathered sweep too (its neighbours stay quiet)."""
    ran = []

    def program():
        layer = tf.keras.layers.Dense(2, kernel_initializer="zeros")
        x = np.full((4, 3), 2e38, np.float32)
        y = np.full((4, 2), 2e38, np.float32)

        @tf.function
        def f(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(layer(x) * y)
            return tape.gradient(loss, layer.trainable_variables)

        ran.append(f)
        return [f(x, y) for _ in range(5)]

    old = _observe(program, gathered=False)
    new = _observe(program, gathered=True)
    assert old == new
    assert len(new[3]) == 5 and "overflow" in new[3][-1][1]   # every call warned
    steps = ran[-1]._traces[0].graph._plans[None].steps
    assert any(isinstance(s, gradient_plan.GradientStep) and s.lowered for s in steps)


@settings(max_examples=30, deadline=None)
@given(entries=st.lists(st.tuples(st.integers(0, 2), st.booleans(), st.booleans()),
                        max_size=12),
       trace=st.booleans(), launch=st.booleans(), scratch=st.booleans(),
       done=st.integers(0, 12))
@example(entries=[(0, True, False), (0, False, False), (1, False, True), (1, True, False)],
         trace=False, launch=False, scratch=False, done=4)
@example(entries=[(0, False, False), (0, True, False), (0, False, False), (2, False, False)],
         trace=True, launch=False, scratch=False, done=4)
def test_charges_by_runs_equal_op_by_op_charges(entries, trace, launch, scratch, done):
    """A program's charges (ops on three devices, some variable writes, constants between)
    give the clocks and events each op's own charge gives under the skip rule: after all
    the steps (merged runs on one device) or a prefix (a kernel raised)."""
    from simdist.framework import execute
    from simdist.hardware.device import Device
    from simdist.hardware.specs import SPECS

    spec = SPECS["V100"] if launch else SPECS["V100"]._replace(launch_s=0.0)

    def devices():
        return [Device(f"/job:localhost/replica:0/task:0/device:GPU:{i}", spec)
                for i in range(3)]

    def charges(devs):
        return [None if const else (devs[i], ("Mul", 1e9 * j, 4096, False), True)[:3 if write
                                                                              else 2]
                for j, (i, write, const) in enumerate(entries)]

    def world(devs):
        events = [[(e.name, e.device, e.start, e.end, e.args) for e in d.trace.events]
                  for d in devs]
        return [d.clock for d in devs], events

    gathered_devs, each_devs = devices(), devices()
    for d in gathered_devs + each_devs:
        d.clock, d.trace.enabled = 0.25, trace
    run = gathered_run.Gathered([None] * len(entries), [None] * len(entries),
                                charges(gathered_devs))
    n = run.before[min(done, len(entries))]
    with execute.shape_inference() if scratch else contextlib.nullcontext():
        run._charge(n)
        for entry in [c for c in charges(each_devs) if c is not None][:n]:
            dev, charge = entry[:2]
            if len(entry) > 2 or not scratch and (trace or launch):
                dev.run_op(*charge)
    assert world(gathered_devs) == world(each_devs)
