"""``v.read_value()`` in a trace: TF's names (``Read/ReadVariableOp``, then an ``Identity``
of the read; function_names_cases replays them against TF 2.21) cost nothing of their
own: a function reading its variable with ``read_value()`` charges the devices and writes
the trace exactly as one reading it with ``value()`` (same clocks, memory, events)."""

import numpy as np

import simdist as tf
from simdist.hardware.machine import get_machine
from simdist.testing import reset_world


def _world():
    m = get_machine()
    devices = [(name, d.clock, d.peak_memory, d.memory_in_use)
               for name, d in sorted(m.devices.items())]
    events = [(e.name, e.cat, e.device, e.start, e.end) for e in m.trace.events]
    return devices, events


def _run(read):
    reset_world()
    v = tf.Variable(np.arange(12.0, dtype=np.float32).reshape(3, 4))

    @tf.function
    def step(x):
        return tf.matmul(read(v), x) + tf.reduce_sum(read(v))

    x = tf.ones([4, 2])
    outs = [step(x).numpy() for _ in range(3)]
    names = [o.name for o in step.get_concrete_function(x).graph.get_operations()]
    return outs, _world(), names


def test_read_value_costs_what_value_costs():
    outs_r, world_r, names_r = _run(lambda v: v.read_value())
    outs_v, world_v, names_v = _run(lambda v: v.value())
    reset_world()
    np.testing.assert_array_equal(outs_r, outs_v)
    assert world_r == world_v
    # the two programs did read differently (the graphs' names)
    assert "Read/ReadVariableOp" in names_r and "Read/ReadVariableOp" not in names_v
