"""A fused per-variable optimizer update (keras/optimizers/fused.py: Adam, SGD with and
without (Nesterov) momentum, RMSprop plain / centered / with momentum, Adagrad) leaves
exactly what the eager ops leave: bit-identical variables and slots, the same device clocks
and the same trace events, op by op. So does Adam's fused step size (``alpha``, made once
per step and device from the iteration count)."""

import numpy as np
import pytest

import simdist as tf
from simdist.hardware import backend as _backend
from simdist.hardware import machine as machine_lib
from simdist.keras.optimizers import adam, fused, fused_apply
from simdist.testing import reset_world

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="the fused optimizer kernels run on the NumPy backend only (keras/optimizers/fused.py)")

OPTIMIZERS = {
    "adam": lambda: tf.keras.optimizers.Adam(0.05),
    "adam-amsgrad": lambda: tf.keras.optimizers.Adam(0.05, amsgrad=True),
    "sgd": lambda: tf.keras.optimizers.SGD(0.05),
    "sgd-momentum": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.9),
    "sgd-nesterov": lambda: tf.keras.optimizers.SGD(0.05, momentum=0.5, nesterov=True),
    "rmsprop": lambda: tf.keras.optimizers.RMSprop(0.01),
    "rmsprop-centered-momentum": lambda: tf.keras.optimizers.RMSprop(
        0.01, momentum=0.5, centered=True),
    "rmsprop-centered": lambda: tf.keras.optimizers.RMSprop(0.01, centered=True),
    "adagrad": lambda: tf.keras.optimizers.Adagrad(0.1),
}


def _train(optimizer_name, steps=3):
    reset_world()
    strategy = tf.distribute.MirroredStrategy()
    tf.keras.utils.set_random_seed(3)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation="relu",
                                                           input_shape=(3,)),
                                     tf.keras.layers.Dense(1)])
        optimizer = OPTIMIZERS[optimizer_name]()

    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((model(x) - y) ** 2) / 8.0
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    x = tf.constant(np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3))
    y = tf.constant(np.linspace(0, 2, 8, dtype=np.float32).reshape(8, 1))
    for _ in range(steps):
        strategy.run(step, args=(x, y))
    machine = machine_lib.get_machine()
    devices = sorted(machine.devices.values(), key=lambda d: d.name)
    events = [(e.name, e.device, e.start, e.end, e.args.get("flops"), e.args.get("bytes"))
              for d in devices for e in d.trace.events]
    values = [c.numpy().tobytes() for v in optimizer.variables + model.variables
              for c in strategy.experimental_local_results(v)]
    return values, [d.clock for d in devices], events


@pytest.mark.parametrize("optimizer_name", sorted(OPTIMIZERS))
def test_fused_update_equals_the_eager_ops(monkeypatch, optimizer_name):
    calls = []
    original = fused.arrays_fit  # both fused paths (per variable, fused_apply) ask it
    monkeypatch.setattr(fused, "arrays_fit", lambda *a: calls.append(original(*a)) or calls[-1])
    fused_run = _train(optimizer_name)
    if optimizer_name != "adam-amsgrad":
        assert calls and all(calls)  # the fused path ran for every update
    monkeypatch.setattr(fused, "applicable", lambda *a: False)
    monkeypatch.setattr(fused_apply._switch, "on", False)
    eager_run = _train(optimizer_name)
    assert fused_run[0] == eager_run[0]
    assert fused_run[1] == eager_run[1]
    assert fused_run[2] == eager_run[2] and len(eager_run[2]) > 0


@pytest.mark.parametrize("optimizer_name", ["adam", "adam-amsgrad"])
def test_adams_fused_step_size_equals_the_eager_ops(monkeypatch, optimizer_name):
    calls = []
    original = adam.Adam._fused_prepare_local
    monkeypatch.setattr(adam.Adam, "_fused_prepare_local",
                        lambda *a: calls.append(original(*a)) or calls[-1])
    fused_run = _train(optimizer_name, steps=4)  # steps 1..4: Pow by 1, 2 (squares), 3, 4
    assert calls and all(calls)
    monkeypatch.setattr(adam.Adam, "_fused_prepare_local", lambda *a: False)
    eager_run = _train(optimizer_name, steps=4)
    assert fused_run[0] == eager_run[0]
    assert fused_run[1] == eager_run[1]
    assert fused_run[2] == eager_run[2] and len(eager_run[2]) > 0


def test_adams_step_size_is_computed_once_per_step_for_every_device(monkeypatch):
    """Four replicas' copies share one computation of ``alpha`` per step; each device is
    charged its ops as when each computed its own (values, clocks, events)."""
    calls = []
    original, quiet = adam.Adam._fused_alpha, adam.Adam._alpha_quiet
    monkeypatch.setattr(adam.Adam, "_fused_alpha",
                        staticmethod(lambda *a: calls.append(1) or original(*a)))
    # (the steps after the first, whose charges are kept, on NumPy scalars)
    monkeypatch.setattr(adam.Adam, "_alpha_quiet",
                        staticmethod(lambda *a: calls.append(1) or quiet(*a)))
    shared_run = _train("adam", steps=4)
    assert len(calls) == 4   # one per step, not one per device

    def each_its_own(owner, compute, inputs, quiet=None):
        k = fused.Charges()
        return compute(k, *inputs), k.charges, None

    monkeypatch.setattr(fused, "shared_scalars", each_its_own)
    # and no device's scalars made from the first device's (Adam._fused_local_like)
    monkeypatch.setattr(adam.Adam, "_fused_local_like", lambda *a: None)
    own_run = _train("adam", steps=4)
    assert len(calls) == 4 + 16
    assert shared_run == own_run and len(own_run[2]) > 0


def test_adams_shared_step_size_follows_a_new_learning_rate(monkeypatch):
    """The learning rate assigned between steps (and a schedule's) reaches the shared
    computation: the same values, clocks and events as the eager ops."""
    def run():
        reset_world()
        strategy = tf.distribute.MirroredStrategy()
        tf.keras.utils.set_random_seed(3)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
            fixed = tf.keras.optimizers.Adam(0.05)
            scheduled = tf.keras.optimizers.Adam(
                tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5))
        x = tf.constant(np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3))

        def step(optimizer):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(x) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))

        for i in range(4):
            fixed.learning_rate.assign(0.05 * (i + 1))
            strategy.run(step, args=(fixed,))
            strategy.run(step, args=(scheduled,))
        machine = machine_lib.get_machine()
        return ([c.numpy().tobytes() for v in model.variables
                 for c in strategy.experimental_local_results(v)],
                [(d.name, d.clock) for d in machine.devices.values()],
                [(e.name, e.device, e.start, e.end) for e in machine.trace.events])

    shared_run = run()
    monkeypatch.setattr(adam.Adam, "_fused_prepare_local", lambda *a: False)
    eager_run = run()
    assert shared_run == eager_run and len(eager_run[2]) > 0


def test_adams_step_constants_are_converted_once(monkeypatch):
    """Adam's per-step constants (``fused.constants``) convert their numbers at the first
    step and give the same read-only arrays to every later step's tensors on every device:
    the same values, clocks, events and memory (in use and peak) as converting each one
    afresh with ``tf.constant``."""
    def world():
        values, clocks, events = _train("adam", steps=2)
        devices = sorted(machine_lib.get_machine().devices.values(), key=lambda d: d.name)
        return values, clocks, events, [(d.memory_in_use, d.peak_memory) for d in devices]

    made, original = [], fused.constants

    owner, specs = [], []

    def recording(owner_, specs_):
        tensors = original(owner_, specs_)
        made.append([t._value for t in tensors])
        owner.append(owner_)
        specs.append(specs_)
        return tensors

    monkeypatch.setattr(fused, "constants", recording)
    kept_run = world()
    # two calls at the first step, on its first device (the others' are made from the
    # first's: Adam._fused_local_like); the second step's first device takes the arrays
    # they kept (Adam._fused_prepare_at)
    assert len(made) == 2
    for arrays, specs_ in zip(made, specs):   # converted once, kept
        assert list(map(id, fused.kept_constants(owner[0], specs_))) == list(map(id, arrays))
    held = []   # the optimizer held as the first run's ``owner`` holds it: equal memory
    monkeypatch.setattr(fused, "constants", lambda owner_, specs_: held.append(owner_) or [
        tf.constant(value, dtype=dtype) for value, dtype in specs_])
    assert world() == kept_run


# Adam's step size for these iteration counts (``t = iterations + 1``): every t up to 64,
# then powers of two and their neighbours, and a few large counts, up to 2**24 + 1.
_STEPS = sorted({*range(64), *(2 ** k + d for k in range(6, 25) for d in (-2, -1, 0, 1)),
                 999, 9_999, 99_999, 123_456, 999_999})


@pytest.mark.parametrize("betas", [(0.9, 0.999), (0.5, 0.75)])
def test_adams_fused_step_size_has_the_eager_pows_bits(monkeypatch, betas):
    """``_fused_alpha``'s scalar Pow (NumPy's ``**`` of 0-d float32 arrays: ``powf``, and a
    square for an exponent of 2) gives the bits of the eager ``tf.pow``: a scalar is fewer
    than Eigen's 8-value packet, so TF (and math_ops) take ``std::pow``, not generic_pow.
    Both paths of ``Adam._prepare_local``, step by step."""
    with tf.device("/CPU:0"):
        optimizer = tf.keras.optimizers.Adam(0.001, beta_1=betas[0], beta_2=betas[1])

        def alphas():
            out = []
            for step in _STEPS:
                optimizer.iterations.assign(step)
                out.append(optimizer._prepare_local("float32")["alpha"].numpy().tobytes())
            return out

        calls = []
        original = adam.Adam._fused_prepare_local
        monkeypatch.setattr(adam.Adam, "_fused_prepare_local",
                            lambda *a: calls.append(original(*a)) or calls[-1])
        fused_alphas = alphas()
        assert len(calls) == len(_STEPS) and all(calls)   # the fused path gave each
        monkeypatch.setattr(adam.Adam, "_fused_prepare_local", lambda *a: False)
        assert alphas() == fused_alphas
