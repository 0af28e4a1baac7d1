"""A fused per-variable Adam update (keras/optimizers/fused.py) leaves exactly what the
eager ops leave: bit-identical variables and slots, the same device clocks and the same
trace events, op by op."""

import numpy as np
import pytest

import simdist as tf
from simdist.hardware import machine as machine_lib
from simdist.keras.optimizers import fused
from simdist.testing import reset_world


def _train(steps=3, amsgrad=False):
    reset_world()
    strategy = tf.distribute.MirroredStrategy()
    tf.keras.utils.set_random_seed(3)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation="relu",
                                                           input_shape=(3,)),
                                     tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam(0.05, amsgrad=amsgrad)

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


@pytest.mark.parametrize("amsgrad", [False, True])
def test_fused_adam_equals_the_eager_ops(monkeypatch, amsgrad):
    calls = []
    original = fused.applicable
    monkeypatch.setattr(fused, "applicable", lambda *a: calls.append(1) or original(*a))
    fused_run = _train(amsgrad=amsgrad)
    if not amsgrad:
        assert calls  # the fused path ran
    monkeypatch.setattr(fused, "applicable", lambda *a: False)
    eager_run = _train(amsgrad=amsgrad)
    assert fused_run[0] == eager_run[0]
    assert fused_run[1] == eager_run[1]
    assert fused_run[2] == eager_run[2] and len(eager_run[2]) > 0
