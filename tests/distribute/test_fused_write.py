"""A cross-replica assign_add / assign_sub of a number to a mirrored variable
(distribute/fused_write.py) equals ``extended.update``'s per-copy writes: the same values
and result, device clocks, memory in use and peak, trace events in order, and the numbers
drawn for tensors and variables."""

import numpy as np
from world_state import world

import simdist as tf
from simdist.distribute import fused_write
from simdist.framework import tensor as tensor_lib
from simdist.framework import variables
from simdist.hardware import machine as machine_lib
from simdist.testing import reset_world


def _writes():
    reset_world()
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1", "/gpu:2"])
    with strategy.scope():
        step = tf.Variable(0, dtype=tf.int64)
        rate = tf.Variable(0.25)
        vector = tf.Variable(np.zeros(2, np.float32))
    results, numbers = [], (next(variables._uid), next(tensor_lib._ids))
    with strategy.scope():
        for _ in range(3):   # the first converts the number, the later ones keep it
            results.append(step.assign_add(1))
            results.append(rate.assign_sub(0.5))
        try:
            vector.assign_add(1.0)   # a number to a vector: TF's shape error, per copy
        except ValueError as e:
            results.append(str(e))
    step.assign_add(1)   # outside the scope: the default context, as update runs it
    values = [np.asarray(c.numpy()).tobytes() for v in (step, rate, vector)
              for c in strategy.experimental_local_results(v)]
    shown = [r if isinstance(r, str) else
             [np.asarray(t.numpy()).tobytes() for t in strategy.experimental_local_results(r)]
             for r in results]
    drawn = (next(variables._uid) - numbers[0], next(tensor_lib._ids) - numbers[1])
    return values, shown, world(), machine_lib.get_machine().trace.events[-1].name, drawn


def _noted(taken, out):
    taken.append(out is not None)   # (not the result: it would hold its tensors)
    return out


def test_a_number_added_to_every_copy_equals_the_per_copy_writes(monkeypatch):
    taken, original = [], fused_write.update
    monkeypatch.setattr(fused_write, "update", lambda *args: _noted(taken, original(*args)))
    fused = _writes()
    monkeypatch.undo()
    with fused_write.disabled():
        per_copy = _writes()
    assert fused == per_copy
    # the first write of each number converts it (per copy, unless an earlier test did);
    # the vector's is refused
    assert taken[2:] == [True, True, True, True, False, True]
    assert fused[2][1] and fused[3] == "AssignAddVariableOp"
