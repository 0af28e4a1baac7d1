"""A traced ``tape.gradient``'s backward sweep, replayed as kernel calls without the rules.

Glossary:
  sweep       -- ``backprop._backprop``: the reverse walk over a tape's records that calls
                 one gradient rule per op and returns {id: gradient}. For one trace it makes
                 the same kernel calls at every execution: which ops run is fixed by the
                 records' structure, not by their values.
  capture     -- one real sweep, watched: every tensor it makes (an op's output, or a
                 constant a rule converted), every op (``execute.observers``), when each of
                 its tensors dies (weak references), and what it returns.
  program     -- the capture compiled: per tensor made, its kernel (``kernels.verified``:
                 bit for bit against the op's output) and input positions, or the constant;
                 the tensors to drop before the next one is made; the {id: gradient}
                 entries. It makes the same tensors in the same order on the same devices,
                 charges them as ``execute`` does (``Device.run_op``: the same clock and
                 trace event) and records them on recording tapes, so values, clocks, trace
                 events and memory (in use and peak) equal the rules' sweep.
  structure   -- what the program assumes: the tape's records (op types, attributes, how
                 each input connects to an earlier output, a source or a target, and every
                 tensor's shape and dtype). A sweep whose records differ runs the rules.
  confirmed   -- a program is used only after a second capture (the next execution) gave
                 the same program, constants included: a value a rule computed from data
                 without an op would differ between the two.

What stays on the rules' path: a tape that records while it sweeps (a persistent tape in
its context, an outer tape), given output gradients, sparse gradients, ops without a
kernel, anything that charges, waits or allocates other than through ``execute`` and
tensors, and a sweep that would not fit a device's memory (the op raises its own error).

Mirrors tensorflow/python/eager/backprop.py (the imperative gradient) as TF's graph mode
runs it: the gradient ops built once with the function (gradients_util.py), executed with
the forward ops.
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from simdist import warnings as teach
from simdist.framework import backprop, execute, kernels
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor
from simdist.hardware.device import Device
from simdist.hardware.trace import Trace


class _Refused(Exception):
    """The capture saw something a program cannot replay."""


# --- structure ---------------------------------------------------------------------------
def _objects(records, targets, sources):
    """The sweep's inputs in a fixed order (sources, targets, each record's inputs and
    outputs), and their structure key: (program inputs, key)."""
    objs, key, first = [], [], {}
    for group in (sources, targets):
        for o in group:
            _visit(o, objs, key, first)
    for rec in records:
        key.append(rec.type)
        key.append(len(rec.inputs))
        for o in rec.inputs:
            _visit(o, objs, key, first)
        for o in rec.outputs:
            _visit(o, objs, key, first)
        key.append(rec.attrs)
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


# --- capture -----------------------------------------------------------------------------
class _Capture:
    """One real sweep, watched (see the module docstring)."""

    def __init__(self, fixed_device: bool):
        self.thread = threading.get_ident()
        self.fixed_device = fixed_device
        self.made: list = []      # per tensor made: [tensor id, device, nbytes, op or None]
        self.live: dict = {}      # id(tensor) -> its index in made, while it lives
        self.deaths: dict = {}    # index in made -> how many tensors were made before
        self.refs: list = []
        self.frees = 0
        self.refused = None
        self.open = True
        self.program = None

    def refuse(self, why: str) -> None:
        if self.refused is None:
            self.refused = why

    # hooks (this thread only)
    def made_tensor(self, t) -> None:
        i = len(self.made)
        self.made.append([id(t), t._device, t._nbytes, None, t._value])
        self.live[id(t)] = i
        self.refs.append(weakref.ref(t, lambda _r, i=i: self.died(i)))

    def died(self, i) -> None:
        if self.open:
            self.deaths[i] = len(self.made)
            self.live.pop(self.made[i][0], None)

    def op(self, op_type, inputs, out, attrs, flops, dev) -> None:
        if threading.get_ident() != self.thread:
            return
        i = self.live.get(id(out), -1) if type(out) is Tensor else -1
        if i != len(self.made) - 1 or self.made[i][3] is not None:
            return self.refuse(f"{op_type}: an output that is not the last tensor made")
        ins = []   # where each input comes from; no reference (it would outlive its death)
        for x in inputs:
            if type(x) is not Tensor:
                return self.refuse(f"{op_type}: an input that is not a tensor")
            j = self.live.get(id(x))
            ins.append(("made", j) if j is not None else ("object", id(x)))
        first = inputs[0]._device if inputs else None
        self.made[i][3] = (op_type, attrs, flops, dev, ins, [x._value for x in inputs],
                           first)

    def sweep(self, tape, targets, out_grads, sources):
        """backprop's sweep, captured (the hook backprop calls instead of _backprop)."""
        if any(g is not None for g in out_grads):
            self.refuse("output gradients given")
        if any(t.recording for t in tape_lib.stack()):
            self.refuse("a tape records the sweep")
        objs, key = _objects(tape.records, targets, sources)
        where = {id(o): k for k, o in enumerate(objs)}
        with _hooks(self):
            grads = backprop._backprop(tape, targets, out_grads, sources)
        self.open = False
        if self.refused is None:
            try:
                self.program = _Program(self, objs, key, where, grads)
            except _Refused as e:
                self.refuse(str(e))
        return grads


class _hooks:
    """Watch this thread's tensors, ops, frees and anything else that charges (a capture)."""

    def __init__(self, cap: _Capture):
        self.cap = cap

    def __enter__(self):
        cap = self.cap
        thread = cap.thread
        self.saved = [(Tensor, "__init__"), (Device, "free"), (Device, "allocate"),
                      (Device, "run"), (Device, "wait_until"), (Trace, "record")]
        self.saved = [(owner, name, owner.__dict__[name]) for owner, name in self.saved]
        init, free = Tensor.__init__, Device.free

        def made(t, value, device):
            init(t, value, device)
            if threading.get_ident() == thread:
                cap.made_tensor(t)

        def freed(dev, nbytes):
            if threading.get_ident() == thread:
                cap.frees += 1
            return free(dev, nbytes)

        def foreign(name, fn):
            def call(*args, **kwargs):
                if threading.get_ident() == thread:
                    cap.refuse(f"the sweep called {name}")
                return fn(*args, **kwargs)
            return call

        Tensor.__init__ = made
        Device.free = freed
        for owner, name, fn in self.saved[2:]:
            setattr(owner, name, foreign(f"{owner.__name__}.{name}", fn))
        execute.observers.append(cap.op)
        return self

    def __exit__(self, *exc):
        execute.observers.remove(self.cap.op)
        for owner, name, fn in self.saved:
            setattr(owner, name, fn)
        return False


# --- program -----------------------------------------------------------------------------
class _Program:
    """A captured sweep compiled (see the module docstring)."""

    def __init__(self, cap: _Capture, objs, key, where, grads):
        base = len(objs)
        made = cap.made
        n = len(made)
        if cap.frees != len(cap.deaths):
            raise _Refused("a tensor from before the sweep died in it")
        drops: list = [[] for _ in range(n + 1)]
        for i, at in cap.deaths.items():
            drops[at].append(base + i)
        self.steps = []
        self.consts = []
        peak: dict = {}
        use: dict = {}
        for i, (_tid, dev, nbytes, op, value) in enumerate(made):
            use[dev] = use.get(dev, 0) + nbytes
            if use[dev] > peak.get(dev, 0):
                peak[dev] = use[dev]
            for d in drops[i + 1]:
                j = d - base
                use[made[j][1]] -= made[j][2]
            if op is None:
                if type(value) is not np.ndarray:
                    raise _Refused("a constant that is not a NumPy array")
                self.consts.append(value)
                self.steps.append(_const_step(value, dev, base + i, drops[i + 1]))
                continue
            self.steps.append(self._op_step(op, value, base + i, drops[i + 1], base, where,
                                            cap.fixed_device))
            made[i][4] = None
        self.peak = list(peak.items())
        alive = {base + i for i in range(n) if i not in cap.deaths}
        self.result = []
        ids = {getattr(o, "_id", None): k for k, o in enumerate(objs)}
        for k, g in grads.items():
            if k not in ids or type(g) is not Tensor:
                raise _Refused("a gradient that is not a dense tensor of the sweep")
            slot = base + cap.live[id(g)] if id(g) in cap.live else where.get(id(g))
            if slot is None:
                raise _Refused("a gradient from outside the sweep")
            alive.discard(slot)
            self.result.append((ids[k], slot))
        if alive:
            raise _Refused("a tensor the sweep made outlives it elsewhere")
        self.tags = [(slot, getattr(cap.refs[slot - base](), "_teach_tag", None))
                     for _, slot in self.result if slot >= base]
        self.tags = [(slot, tag) for slot, tag in self.tags if tag is not None]
        self.key = key
        self.teach = teach.enabled()
        self.size = n
        self.shape = [(type(s).__name__, getattr(s, "op_type", None)) for s in self.steps]

    def _op_step(self, op, value, slot, drops, base, where, fixed):
        op_type, attrs, flops, dev, sources, values, first = op
        ins = []
        for kind, ref in sources:
            s = base + ref if kind == "made" else where.get(ref)
            if s is None:
                raise _Refused(f"{op_type}: an input from outside the sweep")
            ins.append(s)
        kernel = kernels.verified(op_type, attrs, values, value)
        if kernel is None:
            raise _Refused(f"{op_type}: no kernel")
        if not fixed and first is not dev:   # placement follows the first input
            raise _Refused(f"{op_type}: placed apart from its first input")
        size = value.size if flops is None else flops
        low = value.dtype in execute._LOW_PRECISION
        return _OpStep(op_type, kernel, ins, attrs, size, low, slot, drops,
                       dev if fixed else None)

    def same_as(self, other) -> bool:
        """Whether ``other`` (a capture of the next execution) is this program."""
        return (self.key == other.key and self.shape == other.shape
                and [s.signature() for s in self.steps] == [s.signature() for s in
                                                            other.steps]
                and self.result == other.result and self.tags == other.tags
                and len(self.consts) == len(other.consts)
                and all(a.dtype == b.dtype and a.shape == b.shape and
                        a.tobytes() == b.tobytes() for a, b in zip(self.consts, other.consts)))

    def __call__(self, tape, targets, out_grads, sources):
        """The sweep: this program where the records are those it was built for."""
        objs, key = _objects(tape.records, targets, sources)
        if key != self.key or self.teach != teach.enabled() or \
                any(g is not None for g in out_grads) or \
                any(t.recording for t in tape_lib.stack()):
            return backprop._backprop(tape, targets, out_grads, sources)
        for dev, extra in self.peak:
            if dev.memory_in_use + extra > dev.memory_limit:   # the op's own error
                return backprop._backprop(tape, targets, out_grads, sources)
        slots = objs + [None] * self.size
        outer = np.geterr()   # what a kernel that may warn runs under (the op's own state)
        with np.errstate(all="ignore"):   # one for the ops that each set it
            for step in self.steps:
                step(slots, outer)
        for slot, tag in self.tags:
            slots[slot]._teach_tag = tag
        return {slots[k]._id: slots[s] for k, s in self.result}


def _const_step(value, dev, slot, drops):
    def step(slots, outer):
        slots[slot] = Tensor(value, dev)
        for d in drops:
            slots[d] = None
    step.signature = lambda: ("const", dev.name, slot, tuple(drops))
    return step


class _OpStep:
    """One op of the sweep: its kernel on the input slots, charged and recorded as
    ``execute.execute`` does."""

    __slots__ = ("op_type", "kernel", "ins", "attrs", "size", "low", "slot", "drops", "dev",
                 "loud")

    def __init__(self, op_type, kernel, ins, attrs, size, low, slot, drops, dev):
        self.op_type, self.kernel, self.ins, self.attrs = op_type, kernel, ins, attrs
        self.size, self.low, self.slot, self.drops = size, low, slot, drops
        self.dev = dev   # a tf.device scope's, or None: the first input's
        raw = getattr(kernel, "raw", None)   # the sweep runs under errstate(all="ignore")
        self.kernel = kernel if raw is None else raw
        self.loud = raw is None   # may warn as the op does: the caller's errstate

    def signature(self):
        return (self.op_type, tuple(self.ins), self.size, self.low, self.slot,
                tuple(self.drops), None if self.dev is None else self.dev.name)

    def __call__(self, slots, outer):
        xs = [slots[i] for i in self.ins]
        d = self.dev or xs[0]._device
        if self.loud:
            with np.errstate(**outer):
                t = Tensor(self.kernel(*[x._value for x in xs]), d)
        elif len(xs) == 1:
            t = Tensor(self.kernel(xs[0]._value), d)
        else:
            t = Tensor(self.kernel(*[x._value for x in xs]), d)
        if _log[0]:
            execute._log(self.op_type, d)
        if (d.trace.enabled or d.spec.launch_s != 0) and not _scratch.value:
            nbytes = t._nbytes
            for x in xs:
                nbytes += x._nbytes
            d.run_op(self.op_type, self.size, nbytes, self.low)
        if _tapes.items:
            tape_lib.record(self.op_type, xs, (t,), self.attrs)
        slots[self.slot] = t
        for i in self.drops:
            slots[i] = None


_log = execute._log_placement
_scratch = execute._scratch
_tapes = tape_lib._tapes


# --- the graph node ----------------------------------------------------------------------
def capture(node, env, fixed_device: bool):
    """Run the gradient ``node`` once, capturing its sweep: its program, or None."""
    cap = _Capture(fixed_device)
    with backprop.sweep_scope(cap.sweep):
        node.run(env)
    return cap.program


_TRIES = 3   # captures that may fail to confirm a program before the rules sweep for good


class GradientStep:
    """The plan's step of a ``tape.gradient`` node: its node runs at each execution, its
    sweep by the program once a later capture confirmed it (see the module docstring)."""

    def __init__(self, node, program, fixed_device: bool):
        self.node = node
        self.candidate = program
        self.program = None
        self.fixed_device = fixed_device
        self.tries = 0

    @property
    def lowered(self) -> bool:
        return self.program is not None

    def __call__(self, env):
        if self.program is not None:
            with backprop.sweep_scope(self.program):
                return self.node.run(env)
        if self.candidate is None:
            return self.node.run(env)
        again = capture(self.node, env, self.fixed_device)
        if again is not None and self.candidate.same_as(again):
            self.program = again
            return None
        self.tries += 1   # a collection of garbage from elsewhere may have freed in it
        if self.tries >= _TRIES:
            self.candidate = None   # the rules sweep from now on
        return None
