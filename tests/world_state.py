"""What a simulated run leaves behind, to compare two ways of running one program: the
outputs' bits, every device's clock and memory, every event of the machine's trace.

Glossary:
  world        -- (devices, events): each device's (name, clock, peak memory, memory in
                  use), each trace event's (name, category, device, start, end, args).
  observe      -- ``program()`` in a fresh world (a fixed Keras seed), as it is or under
                  ``off()`` (a context that turns a fast path off): (values, devices,
                  events, what the program returned beside its outputs).
  assert_same  -- both runs leave the same values, devices and events (at least one).
"""

import numpy as np

import simdist as tf
from simdist.hardware.machine import get_machine
from simdist.testing import reset_world


def world():
    """Every device's clock and memory, and every event of the machine's trace."""
    m = get_machine()
    devices = [(name, d.clock, d.peak_memory, d.memory_in_use)
               for name, d in sorted(m.devices.items())]
    events = [(e.name, e.cat, e.device, e.start, e.end, sorted(e.args.items()))
              for e in m.trace.events]
    return devices, events


def observe(program, off=None, seed=0):
    """``program() -> (outputs, fn)`` in a fresh world, under ``off()`` when given:
    (values as dtype, shape and bytes, devices, events, fn)."""
    reset_world()
    tf.keras.utils.set_random_seed(seed)
    if off is None:
        out, fn = program()
    else:
        with off():
            out, fn = program()
    devices, events = world()
    values = [(np.asarray(v).dtype, np.asarray(v).shape, np.asarray(v).tobytes())
              for v in tf.nest.flatten(out)]
    return values, devices, events, fn


def assert_same(program, off, seed=0):
    """The program run as it is and under ``off()`` leaves the same values, clocks and
    memory, and events; the fast run's ``fn`` (to inspect)."""
    old = observe(program, off, seed)
    new = observe(program, None, seed)
    assert old[0] == new[0]
    assert old[1] == new[1]                   # clocks, peak memory, memory in use
    assert len(old[2]) == len(new[2]) > 0
    assert old[2] == new[2]                   # every event
    return new[3]
