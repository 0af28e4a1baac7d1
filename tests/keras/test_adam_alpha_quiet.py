"""Adam's step size on NumPy scalars (``Adam._alpha_quiet``: a step whose charges are kept)
equals its per-op computation (``Adam._fused_alpha``) bit for bit, or steps aside (a NaN,
inputs of other kinds); a run with it equals one without it."""

import numpy as np
import pytest

import simdist as tf
from simdist.hardware import backend as _backend
from simdist.hardware import machine as machine_lib
from simdist.keras.optimizers import fused
from simdist.keras.optimizers.adam import Adam
from simdist.testing import reset_world

pytestmark = pytest.mark.skipif(
    _backend.get_backend() != "numpy",
    reason="the fused optimizer kernels run on the NumPy backend only (keras/optimizers/fused.py)")

_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 0.9, 0.999, 1e-30, 1e30, np.inf, -np.inf, np.nan,
            3.4e38, 1e-45]
_STEPS = [-3, -2, -1, 0, 1, 2, 3, 1000, 2**24, 2**24 + 1, 2**62, 2**63 - 1, -2**63]


def _f32(x):
    return np.asarray(np.float32(x))


def test_the_scalar_step_size_has_the_per_op_bits():
    """Random and special learning rates, betas and steps (t = 1, 2, 3: ``a ** b``'s fast
    exponents; a wrapping step), each read as an array or a NumPy scalar: the same
    0-d float32 array's bits, or None where the per-op value is a NaN."""
    rng = np.random.default_rng(21)
    quiet = 0
    for _ in range(3000):
        lr = _f32(rng.choice(_SPECIAL) if rng.random() < .2 else
                  rng.standard_normal() * 10.0 ** rng.integers(-8, 3))
        b1 = _f32(rng.choice(_SPECIAL) if rng.random() < .3 else rng.random())
        b2 = _f32(rng.choice(_SPECIAL) if rng.random() < .3 else 1 - rng.random() ** 3)
        step = int(rng.choice(_STEPS)) if rng.random() < .4 else int(rng.integers(0, 10**6))
        inputs = (lr if rng.random() < .5 else lr[()],
                  np.asarray(np.int64(step)) if rng.random() < .5 else np.int64(step),
                  np.asarray(np.int64(1)), _f32(1.0), b1, b2)
        want = Adam._fused_alpha(fused._Silent, *inputs)
        got = Adam._alpha_quiet(*inputs)
        if got is None:
            assert np.isnan(want)
            continue
        quiet += 1
        assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == () and \
            got.tobytes() == want.tobytes(), inputs
    assert quiet > 2000


def test_other_kinds_of_inputs_step_aside():
    one_64, one = np.asarray(np.int64(1)), _f32(1.0)
    ok = (_f32(0.1), np.int64(3), one_64, one, _f32(0.9), _f32(0.999))
    assert Adam._alpha_quiet(*ok) is not None
    for i, other in [(0, np.asarray(0.1)), (0, np.full((1,), 0.1, np.float32)),
                     (1, np.int32(3)), (4, np.float32(0.9)), (5, np.asarray(0.999))]:
        assert Adam._alpha_quiet(*ok[:i], other, *ok[i + 1:]) is None


def _run():
    """Three steps of a mirrored Adam whose learning rate is assigned between steps."""
    reset_world()
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1", "/gpu:2"])
    with strategy.scope():
        var = tf.Variable(np.linspace(-1, 1, 6, dtype=np.float32))
        optimizer = tf.keras.optimizers.Adam(0.05)
        optimizer.learning_rate = tf.Variable(0.05)
    grad = np.linspace(1, 2, 6, dtype=np.float32)
    for lr in (0.05, 0.05, 0.01):
        optimizer.learning_rate.assign(lr)
        strategy.run(lambda: optimizer.apply_gradients([(tf.constant(grad), var)]))
    machine = machine_lib.get_machine()
    return [c.numpy().tobytes() for c in strategy.experimental_local_results(var)], [
        (d.clock, d.memory_in_use, d.peak_memory) for d in machine.devices.values()]


def test_a_run_with_it_equals_one_without(monkeypatch):
    calls = []
    original = Adam.__dict__["_alpha_quiet"].__func__

    def counted(*a):
        alpha = original(*a)
        calls.append(alpha is not None)
        return alpha

    monkeypatch.setattr(Adam, "_alpha_quiet", staticmethod(counted))
    quiet = _run()
    monkeypatch.setattr(Adam, "_alpha_quiet", staticmethod(lambda *a: None))
    per_op = _run()
    assert calls and all(calls)
    assert quiet == per_op
