"""The hoisted apply (keras/optimizers/fused_apply.py) equals the per-variable path
(``extended.update`` per variable, each copy's fused update): bit-identical variables and
slots, the same device clocks, memory in use and peak, and the same trace events in the
same order, eagerly and in a traced step; and it steps aside where it does not apply."""

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.hardware import backend as _backend
from simdist.hardware import machine as machine_lib
from simdist.keras.optimizers import fused_apply, fused_flat
from simdist.testing import reset_world

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="the fused optimizer kernels run on the NumPy backend only (keras/optimizers/fused.py)")


def _train(*args, **kwargs):
    """_run with the cycle collector off: when it runs is not the same from run to run, and
    a tensor it frees changes the memory in use (a learning-rate variable's reads). Nothing
    is collected first: the garbage of earlier runs holds the devices of earlier machines
    (``_run`` starts a new one), and with the collector off none of it is freed in this run;
    a full collection took 0.2-1 s in a test process's heap, most of a small run's time."""
    gc.disable()
    try:
        return _run(*args, **kwargs)
    finally:
        gc.enable()


def _run(widths, replicas, steps, traced, make_optimizer, lr_variable=False):
    reset_world()
    strategy = tf.distribute.MirroredStrategy([f"/gpu:{i}" for i in range(replicas)])
    tf.keras.utils.set_random_seed(5)
    with strategy.scope():
        layers = [tf.keras.layers.Dense(w, activation="tanh") for w in widths]
        model = tf.keras.Sequential([tf.keras.Input((3,)), *layers, tf.keras.layers.Dense(1)])
        optimizer = make_optimizer()
        if lr_variable:
            optimizer.learning_rate = tf.Variable(0.02)

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((model(x) - y) ** 2) / 8.0
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    def run(x, y):
        return strategy.run(step, args=(x, y))

    if traced:
        run = tf.function(run)
    x = tf.constant(np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3))
    y = tf.constant(np.linspace(0, 2, 8, dtype=np.float32).reshape(8, 1))
    for _ in range(steps):
        run(x, y)
    machine = machine_lib.get_machine()
    devices = sorted(machine.devices.values(), key=lambda d: d.name)
    traces = {id(d.trace): d.trace for d in devices}
    events = [(e.name, e.cat, e.device, e.start, e.end, sorted(e.args.items()))
              for t in traces.values() for e in t.events]
    values = [c.numpy().tobytes() for v in optimizer.variables + model.variables
              for c in strategy.experimental_local_results(v)]
    memory = [(d.clock, d.memory_in_use, d.peak_memory) for d in devices]
    return values, memory, events


def _both(*args, **kwargs):
    """(the hoisted apply's run, the per-variable run, whether each apply was hoisted)."""
    taken = []
    original = fused_apply._entries

    def counted(*a):
        entries = original(*a)
        taken.append(entries is not None)
        return entries

    fused_apply._entries = counted
    try:
        hoisted = _train(*args, **kwargs)
    finally:
        fused_apply._entries = original
    with fused_apply.disabled():
        per_variable = _train(*args, **kwargs)
    return hoisted, per_variable, taken


def _adam():
    return tf.keras.optimizers.Adam(0.05)


@settings(max_examples=6, deadline=None)
@given(widths=st.lists(st.integers(1, 5), min_size=0, max_size=2),
       replicas=st.integers(1, 4), steps=st.integers(1, 3), traced=st.booleans())
def test_hoisted_apply_equals_the_per_variable_path(widths, replicas, steps, traced):
    hoisted, per_variable, taken = _both(widths, replicas, steps, traced, _adam)
    assert taken and all(taken)   # every step's apply was the hoisted one
    assert hoisted[0] == per_variable[0]
    assert hoisted[1] == per_variable[1]
    assert hoisted[2] == per_variable[2] and len(hoisted[2]) > 0


@settings(max_examples=5, deadline=None)
@given(widths=st.lists(st.integers(1, 5), min_size=0, max_size=2),
       replicas=st.integers(1, 4), steps=st.integers(1, 3), traced=st.booleans(),
       lr_variable=st.booleans())
def test_the_flat_update_equals_each_copys_own(widths, replicas, steps, traced, lr_variable):
    """fused_flat (every copy's update as one element-wise computation) against each
    copy's fused update in turn: the same bits, clocks, memory and events in order."""
    taken = []
    original = fused_flat.apply

    def counted(*a):
        taken.append(original(*a))
        return taken[-1]

    fused_flat.apply = counted
    try:
        flat = _train(widths, replicas, steps, traced, _adam, lr_variable=lr_variable)
    finally:
        fused_flat.apply = original
    with fused_flat.disabled():
        each = _train(widths, replicas, steps, traced, _adam, lr_variable=lr_variable)
    assert taken and all(taken)
    assert flat[0] == each[0]
    assert flat[1] == each[1]
    assert flat[2] == each[2] and len(flat[2]) > 0


def test_a_copy_whose_scalars_differ_is_computed_with_its_own():
    """A device whose step scalars differ from the first copy's (here: its own copy of a
    mirrored learning rate, set apart by hand) gets its own update, as per copy."""
    def run():
        reset_world()
        strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
        with strategy.scope():
            var = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32))
            optimizer = tf.keras.optimizers.Adam(0.05)
            optimizer.learning_rate = tf.Variable(0.05)
        optimizer.learning_rate.values[1]._value = np.array(0.5, np.float32)
        grad = np.linspace(1, 2, 6, dtype=np.float32)
        strategy.run(lambda: optimizer.apply_gradients([(tf.constant(grad), var)]))
        return [c.numpy().tobytes() for c in strategy.experimental_local_results(var)]

    flat = run()
    with fused_flat.disabled():
        each = run()
    assert flat == each and flat[0] != flat[1]


def test_a_variable_given_twice_is_updated_twice_as_per_copy():
    """The same variable twice in one apply: the second update reads the first's result
    (fused_flat steps aside, each copy's update runs in turn)."""
    def run():
        reset_world()
        strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
        with strategy.scope():
            var = tf.Variable(np.linspace(-1, 1, 4, dtype=np.float32))
            optimizer = tf.keras.optimizers.Adam(0.1)

        def step():
            grad = tf.constant(np.ones(4, np.float32))
            optimizer.apply_gradients([(grad, var), (grad * 2.0, var)])

        strategy.run(step)
        return [c.numpy().tobytes() for c in strategy.experimental_local_results(var)]

    flat = run()
    with fused_flat.disabled():
        assert run() == flat


@settings(max_examples=5, deadline=None)
@given(orders=st.lists(st.sampled_from([(0, 1, 2), (1,), (2, 1, 0), (0,), (2,)]),
                       min_size=1, max_size=4))
def test_kept_copies_follow_the_variables_of_each_step(orders):
    """The kept skeleton (each variable's copies, slots and devices) and flat layout are
    the ones of the step's own variables, whichever subset and order each step gives
    (shapes (3,), (), (2, 2)): the same bits and events as the per-variable path."""
    shapes = [(3,), (), (2, 2)]

    def run():
        reset_world()
        strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
        with strategy.scope():
            variables = [tf.Variable(np.linspace(-1, 1, int(np.prod(shape)),
                                                 dtype=np.float32).reshape(shape))
                         for shape in shapes]
            optimizer = tf.keras.optimizers.Adam(0.1)
            optimizer.build(variables)

        for order in orders:
            def step(order=order):
                optimizer.apply_gradients(
                    [(tf.constant(np.full(shapes[k], k + 1.0, np.float32)), variables[k])
                     for k in order])

            strategy.run(step)
        machine = machine_lib.get_machine()
        return ([(c._value.shape, c.numpy().tobytes()) for v in variables + optimizer.variables
                 for c in strategy.experimental_local_results(v)],
                [(e.name, e.device, e.start, e.end) for e in machine.trace.events])

    hoisted = run()
    with fused_apply.disabled():
        assert run() == hoisted


def test_a_learning_rate_variable_and_adamw_take_it_too():
    for make, lr_variable in ((_adam, True),
                              (lambda: tf.keras.optimizers.AdamW(0.05, weight_decay=0.1),
                               False)):
        hoisted, per_variable, taken = _both([4], 2, 2, False, make,
                                             lr_variable=lr_variable)
        assert taken and all(taken)
        assert hoisted == per_variable


class _OwnStep(tf.keras.optimizers.Adam):
    def update_step(self, gradient, variable):   # a user's own update: plain SGD
        variable.assign_sub(gradient * 0.1)


@pytest.mark.parametrize("make", [lambda: tf.keras.optimizers.Adam(0.05, amsgrad=True),
                                  _OwnStep, lambda: tf.keras.optimizers.SGD(0.05)],
                         ids=["amsgrad", "own-update-step", "sgd"])
def test_it_steps_aside_where_it_does_not_apply(make):
    hoisted, per_variable, taken = _both([3], 2, 2, False, make)
    assert taken and not any(taken)
    assert hoisted == per_variable


@pytest.mark.parametrize("traced", [False, True])
def test_other_devices_scalars_are_made_from_the_first_devices(traced):
    """Adam's scalars on every device but the step's first are made from the first's
    (``_fused_local_like``: the same tensors, allocations and charges, without the reads'
    and constants' Python), the first's from the kept constants (``_fused_prepare_at``,
    from the second step): taken on 3 of 4 devices at each step, with the per-variable
    path's bits, clocks, memory and events; a copy of the step counter set apart by hand
    makes its device's own."""
    made, firsts = [], []
    original = tf.keras.optimizers.Adam._fused_local_like
    original_first = tf.keras.optimizers.Adam._fused_prepare_at

    def counted(self, first, dtype, at=None):
        c = original(self, first, dtype, at)
        made.append(c is not None)
        return c

    def counted_first(self, dtype, at):
        c = original_first(self, dtype, at)
        firsts.append(c is not None)
        return c

    tf.keras.optimizers.Adam._fused_local_like = counted
    tf.keras.optimizers.Adam._fused_prepare_at = counted_first
    try:
        hoisted, per_variable, taken = _both([3], 4, 2, traced, _adam)
    finally:
        tf.keras.optimizers.Adam._fused_local_like = original
        tf.keras.optimizers.Adam._fused_prepare_at = original_first
    assert taken and all(taken)
    assert made == [True] * 6
    # the first device's scalars: through _prepare_local in its scopes at the first step
    # (its constants not converted yet), from the kept constants without them at the next
    assert firsts == [False, True]
    assert hoisted == per_variable


def test_a_step_counter_copy_set_apart_makes_its_own_scalars():
    def run():
        reset_world()
        strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1", "/gpu:2"])
        with strategy.scope():
            var = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32))
            optimizer = tf.keras.optimizers.Adam(0.05)
        grad = np.linspace(1, 2, 6, dtype=np.float32)
        step = lambda: optimizer.apply_gradients([(tf.constant(grad), var)])  # noqa: E731
        strategy.run(step)
        optimizer.iterations.values[2]._value = np.array(7, np.int64)
        strategy.run(step)
        machine = machine_lib.get_machine()
        return [c.numpy().tobytes() for c in strategy.experimental_local_results(var)], [
            (d.clock, d.memory_in_use, d.peak_memory) for d in machine.devices.values()]

    hoisted = run()
    with fused_apply.disabled():
        per_variable = run()
    assert hoisted == per_variable and hoisted[0][0] != hoisted[0][2]


@pytest.mark.parametrize("traced", [False, True])
def test_other_devices_scalars_account_their_bytes_as_each_tensor_would(traced):
    """``scalars_like`` accounts another device's scalars from the bytes the first device's
    call kept (``fused._Shared``; the step counter's copy holds a NumPy scalar after its
    first assign) instead of tensor by tensor (``hold``): the same bits, clocks, memory in
    use and peak, events and tensor ids drawn; taken on 3 of 4 devices at each step."""
    from simdist.framework import tensor as tensor_lib
    from simdist.keras.optimizers import fused

    original = fused._like_sizes
    taken = []

    def counted(*a):
        taken.append(original(*a) is not None)
        return None if skip else original(*a)

    def run():
        before = next(tensor_lib._ids)
        result = _train([3], 4, 3, traced, _adam)
        return result, next(tensor_lib._ids) - before

    fused._like_sizes = counted
    try:
        skip = False
        shortcut = run()
        shortcut_taken, taken[:] = list(taken), []
        skip = True
        pairwise = run()
    finally:
        fused._like_sizes = original
    assert shortcut_taken == [True] * 9
    assert shortcut == pairwise
