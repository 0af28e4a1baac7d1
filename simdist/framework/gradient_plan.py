"""A traced ``tape.gradient``'s backward sweep, replayed as kernel calls without the rules.

Glossary:
  sweep       -- ``backprop._backprop``: the reverse walk over a tape's records that calls
                 one gradient rule per op and returns {id: gradient}. For one trace it makes
                 the same kernel calls at every execution: which ops run is fixed by the
                 records' structure, not by their values.
  capture     -- one real sweep, watched (op_capture): every tensor it makes, every op,
                 when each tensor dies, and the {id: gradient} it returns.
  program     -- the capture compiled (op_capture.Program: kernel calls that make the same
                 tensors in the same order, charged and recorded as the ops were), and the
                 {id: gradient} entries: values, clocks, trace events and memory (in use
                 and peak) equal the rules' sweep.
  structure   -- what the program assumes: the tape's records (op types, attributes, how
                 each input connects to an earlier output, a source or a target, and every
                 tensor's shape and dtype). A sweep whose records differ runs the rules.
  confirmed   -- a program is used only after a later capture gave the same program,
                 constants included (op_capture.Program.same_as).

What stays on the rules' path: a tape that records while it sweeps (a persistent tape in
its context, an outer tape), given output gradients, sparse gradients, ops without a
kernel, anything that charges, waits or allocates other than through ``execute`` and
tensors, and a sweep that would not fit a device's memory (the op raises its own error).

Mirrors tensorflow/python/eager/backprop.py (the imperative gradient) as TF's graph mode
runs it: the gradient ops built once with the function (gradients_util.py), executed with
the forward ops.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import backprop, op_capture
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor


# --- structure ---------------------------------------------------------------------------
def _objects(records, targets, sources):
    """The sweep's inputs in a fixed order (sources, targets, each record's inputs and
    outputs), and their structure key: (program inputs, key)."""
    objs, key, first = [], [], {}
    for group in (sources, targets):
        for o in group:
            _visit(o, objs, key, first)
    append, seen, ndarray = key.append, first.get, np.ndarray
    for rec in records:   # _visit inlined for the records' tensors (every sweep walks them)
        append(rec.type)
        append(len(rec.inputs))
        for part in (rec.inputs, rec.outputs):
            for o in part:
                if type(o) is not Tensor:
                    _visit(o, objs, key, first)
                    continue
                pos = seen(o._id)
                if pos is not None:
                    append(pos)
                    continue
                first[o._id] = len(objs)
                objs.append(o)
                v = o._value
                append((v.shape, v.dtype) if type(v) is ndarray else None)
        append(rec.attrs)
    return objs, key


def _visit(o, objs, key, first):
    oid = getattr(o, "_id", None)
    pos = first.get(oid) if oid is not None else None
    if pos is not None:
        key.append(pos)
        return
    if oid is not None:
        first[oid] = len(objs)
    objs.append(o)
    if type(o) is Tensor:
        v = o._value
        key.append((v.shape, v.dtype) if type(v) is np.ndarray else None)
    else:
        key.append(id(o))


def _plain(out_grads) -> bool:
    """Whether the sweep may be a program: no output gradients, no tape recording it."""
    return all(g is None for g in out_grads) and \
        not any(t.recording for t in tape_lib.stack())


# --- capture -----------------------------------------------------------------------------
class _SweepCapture:
    """backprop's sweep, captured: the hook backprop calls instead of _backprop."""

    def __init__(self, fixed_device: bool, like=None):
        self.fixed_device = fixed_device
        self.like = like   # the program this capture may confirm (op_capture: its kernels)
        self.program = None
        self.refused = None

    def __call__(self, tape, targets, out_grads, sources):
        cap = op_capture.Capture(self.fixed_device)
        if not _plain(out_grads):
            cap.refuse("output gradients given, or a tape records the sweep")
        objs, key = _objects(tape.records, targets, sources)
        where = {id(o): k for k, o in enumerate(objs)}
        with cap.watching():
            grads = backprop._backprop(tape, targets, out_grads, sources)
        ids = {getattr(o, "_id", None): k for k, o in enumerate(objs)}
        if not all(k in ids for k in grads):
            cap.refuse("a gradient of a tensor outside the records")
        program = cap.compile(where, list(grads.values()), like=self.like)
        self.refused = cap.refused
        if program is not None:
            self.program = _Sweep(program, key, [ids.get(k) for k in grads])
        return grads


class _Sweep:
    """A sweep's program and the ids its gradients are kept under."""

    def __init__(self, program, key, keys):
        self.program, self.key, self.keys = program, key, keys

    def same_as(self, other) -> bool:
        return self.key == other.key and self.keys == other.keys and \
            self.program.same_as(other.program)

    def __call__(self, tape, targets, out_grads, sources):
        """The sweep: the program where the records are those it was built for."""
        objs, key = _objects(tape.records, targets, sources)
        if key != self.key or not _plain(out_grads) or not self.program.fits():
            return backprop._backprop(tape, targets, out_grads, sources)
        slots = self.program.run(objs)
        return {slots[k]._id: slots[s] for k, s in zip(self.keys, self.program.result)}


# --- the graph node ----------------------------------------------------------------------
def capture(node, env, fixed_device: bool, like=None):
    """Run the gradient ``node`` once, capturing its sweep: its program, or None;
    ``like``: the _Sweep this capture may confirm (op_capture: its kernels)."""
    cap = _SweepCapture(fixed_device, None if like is None else like.program)
    with backprop.sweep_scope(cap):
        node.run(env)
    return cap.program


class GradientStep(op_capture.ConfirmingStep):
    """The plan's step of a ``tape.gradient`` node: its node runs at each execution, its
    sweep by the program once a later capture confirmed it (see the module docstring)."""

    capture = staticmethod(capture)

    def replay(self, env, program):
        with backprop.sweep_scope(program):
            self.node.run(env)
