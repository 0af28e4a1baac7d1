"""A stretch of op calls captured once, then replayed as kernel calls (an op program).

Glossary:
  capture   -- one real run, watched on its thread: every tensor it makes (an op's output,
               seen through ``execute.observers``, or a constant: a tensor made without an
               op), every op with where its inputs come from, when each tensor dies (weak
               references), and anything a program could not replay (another allocation,
               a device run or wait, a trace event not an op's, a Python warning, a
               Python read of a value that is not a constant made in the run) -- then it
               is refused.
  inputs    -- the tensors from before the run that its ops read, in a fixed order
              (``objs``): the caller says where each comes from at every replay.
  program   -- the capture compiled: per tensor made, its kernel (``kernels.verified``:
               bit for bit against the op's output) and input slots, or the constant; the
               tensors to drop before the next one is made. It makes the same tensors in
               the same order on the same devices, charges them as ``execute`` does
               (``Device.run_op``: the same clock and trace event), logs their placement
               and records them on the recording tapes, so values, clocks, trace events,
               tape records and memory (in use and peak) equal the run's.
  results   -- the tensors the run hands on (its outputs, and those the tapes recorded):
               any other tensor still alive after the run is refused (it went elsewhere).
  same_as   -- a program is used only after a second capture gave the same one, constants
               included: a value computed from data without an op would differ.
  like      -- the program a confirming capture is compiled against (``compile(like=)``):
               an op of the same type and attributes on inputs and an output of the same
               shapes and dtypes at the same place takes that program's kernel, verified
               at the first capture, instead of verifying it again (a kernel depends on
               those only: ``kernels``' builders).

Used by gradient_plan (a tape's backward sweep) and call_plan (a whole library call).

Mirrors tensorflow/core/common_runtime/executor.cc (a graph's kernels prepared once, then
run in order) for code that TF would have built as a graph.
"""

from __future__ import annotations

import functools
import gc
import threading
import warnings
import weakref

import numpy as np

from simdist import warnings as teach
from simdist.framework import execute, gathered_run, kernels
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor
from simdist.hardware.device import Device
from simdist.hardware.trace import Trace

_FOREIGN = ((Device, "allocate"), (Device, "run"), (Device, "wait_until"), (Trace, "record"),
            (warnings, "warn"))
_WRITES = {"AssignAddVariableOp": np.add, "AssignSubVariableOp": np.subtract}
_READS = ("numpy", "__array__", "__bool__", "__float__", "__int__", "__index__", "__iter__")


class Refused(Exception):
    """The capture saw something a program cannot replay."""


class Capture:
    """One run, watched (see the module docstring): ``with capture.watching(): ...``."""

    def __init__(self, fixed_device: bool, variables=(), writes: bool = False):
        self.thread = threading.get_ident()
        # writes: a variable's assign_add / assign_sub of a tensor made in the run is a
        # step (a write); any other write is refused, as is every write without it
        self.writes = [] if writes else None
        self.writing = False   # inside a write the run makes: its device charge is its own
        self.delta = None      # (variable, the array its pending write adds or subtracts)
        self.fixed_device = fixed_device   # a tf.device scope places every op
        # per tensor made: [id, device, nbytes, op or None, value, variable read or None]
        self.made: list = []
        # a tensor made of one of these variables' arrays, without an op, is its read
        self.variables = {id(v._value): v for v in variables}
        self.live: dict = {}   # id(tensor) -> its index in made, while it lives
        self.deaths: dict = {}   # index in made -> how many tensors were made before
        self.refs: list = []
        self.frees = 0
        self.refused = None
        self.open = True
        self.given = None   # given(): the tensors whose teaching tags the hooks watch
        self.retags: dict = {}   # id -> (such a tensor, its tag before the run wrote it)

    def refuse(self, why: str) -> None:
        if self.refused is None:
            self.refused = why

    def watching(self):
        return _Hooks(self)

    # --- what the hooks report (this thread only) ---------------------------------------
    def made_tensor(self, t) -> None:
        made, value = self.made, t._value
        i = len(made)
        made.append([id(t), t._device, t._nbytes, None, value,
                     self.variables.get(id(value)) if self.variables else None])
        self.live[id(t)] = i
        self.refs.append(weakref.ref(t, functools.partial(self.died, i)))

    def died(self, i, _ref=None) -> None:
        if self.open:
            self.deaths[i] = len(self.made)
            self.live.pop(self.made[i][0], None)

    def new_value(self, var, array) -> None:
        self.delta = (var, array)

    def wrote(self, var, op_name, new) -> None:
        """``var`` was given ``new`` (its ``op_name`` write, charged): a write step."""
        pending, self.delta = self.delta, None
        if op_name not in _WRITES or pending is None or pending[0] is not var:
            return self.refuse(f"a variable write ({op_name})")
        for i in range(len(self.made) - 1, -1, -1):   # the delta: a tensor of the run
            if self.made[i][4] is pending[1] and i in self.live.values():
                break
        else:
            return self.refuse(f"{op_name}: a delta that is not a tensor of the run")
        self.writes.append((len(self.made), var, op_name, i, var._device, new.size,
                            2 * new.nbytes))
        self.variables[id(var._value)] = var   # later reads of it are reads, not constants

    def retagged(self) -> bool:
        """Whether the run changed the teaching tag of a tensor it was ``given`` (a
        replay would not: simdist.warnings.tag and replays write it as an attribute)."""
        for t, tag in self.retags.values():
            if getattr(t, "_teach_tag", None) != tag:
                return True
        return False

    def read(self, t, how) -> None:
        i = self.live.get(id(t))
        if i is None or self.made[i][3] is not None:
            self.refuse(f"Python read a tensor's value ({how})")

    def op(self, op_type, inputs, out, attrs, flops, dev) -> None:
        if _get_ident() != self.thread:
            return
        live, made = self.live, self.made
        i = live.get(id(out), -1) if type(out) is Tensor else -1
        if i != len(made) - 1 or made[i][3] is not None:
            return self.refuse(f"{op_type}: an output that is not the last tensor made")
        ins = []   # where each input comes from; no reference (it would outlive its death)
        for x in inputs:
            if type(x) is not Tensor:
                return self.refuse(f"{op_type}: an input that is not a tensor")
            j = live.get(id(x))
            ins.append(("made", j) if j is not None else ("object", id(x)))
        first = inputs[0]._device if inputs else None
        made[i][3] = (op_type, attrs, flops, dev, ins, [x._value for x in inputs], first)

    # --- after the run ------------------------------------------------------------------
    def object_ids(self) -> list:
        """The ids of the tensors from before the run its ops read, in first-read order."""
        seen: dict = {}
        for entry in self.made:
            op = entry[3]
            for kind, ref in (op[4] if op is not None else ()):
                if kind == "object":
                    seen.setdefault(ref, len(seen))
        return list(seen)

    def compile(self, where: dict, results, held=frozenset(), like=None):
        """The program of this capture, or None (``refused`` says why). ``where``: id of
        an input tensor -> its index in the replay's ``objs``; ``results``: the tensors
        the run handed on, in order; ``held``: ids of tensors tapes hold (may outlive);
        ``like``: the Program of the capture this one may confirm (its kernels)."""
        self.open = False
        if self.refused is None:
            try:
                return Program(self, where, results, held, like)
            except Refused as e:
                self.refuse(str(e))
        return None


def given(env) -> dict:
    """{id: key in ``env``} of the execution's tensors a run is given (a capture's
    ``given``: its hooks note each write of their teaching tags, ``retagged``)."""
    return {id(v): key for key, v in env.items() if type(v) is Tensor}


class _Hooks:
    """Watch this thread's tensors, ops, frees and reads, and anything else that charges
    (on the classes, only while a capture runs)."""

    def __init__(self, cap: Capture):
        self.cap = cap

    def __enter__(self):
        cap, thread = self.cap, self.cap.thread
        self.patched = _one_at_a_time.acquire(blocking=False)
        if not self.patched:   # another thread captures (its patches are on the classes)
            cap.refuse("another capture was running")
            return self
        # No cyclic collection inside the run: it would free older tensors (or this run's)
        # at a moment set by allocation counts, not by the run, and refuse the capture or
        # make two captures of the same code differ.
        self.collecting = gc.isenabled()
        gc.disable()
        names = [(Tensor, "__init__"), (Device, "free")] + list(_FOREIGN) + \
            [(Tensor, name) for name in _READS]
        self.saved = [(owner, name, owner.__dict__[name]) for owner, name in names]
        init, free, made_tensor = Tensor.__init__, Device.free, cap.made_tensor

        def made(t, value, device):
            init(t, value, device)
            if _get_ident() == thread:
                made_tensor(t)

        def freed(dev, nbytes):
            if nbytes and _get_ident() == thread:   # (a free of nothing: no effect)
                cap.frees += 1
            return free(dev, nbytes)

        def foreign(name, fn):
            def call(*args, **kwargs):
                if threading.get_ident() == thread and not cap.writing:
                    cap.refuse(f"the run called {name}")
                return fn(*args, **kwargs)
            return call

        def read(name, fn):
            def call(t, *args, **kwargs):
                if threading.get_ident() == thread:
                    cap.read(t, name)
                return fn(t, *args, **kwargs)
            return call

        Tensor.__init__ = made
        Device.free = freed
        for owner, name, fn in self.saved[2:2 + len(_FOREIGN)]:
            setattr(owner, name, foreign(f"{owner.__name__}.{name}", fn))
        for owner, name, fn in self.saved[2 + len(_FOREIGN):]:
            setattr(owner, name, read(name, fn))
        if cap.writes is not None:
            self._watch_writes(cap, thread)
        if cap.given is not None:
            self._watch_tags(cap)
        execute.observers.append(cap.op)
        return self

    def _watch_tags(self, cap):
        """Note the first write of each given tensor's teaching tag (on any thread, as
        comparing every given tensor's tag before and after the run would see it):
        Tensor's ``_teach_tag`` slot behind a property (restored by __exit__)."""
        slot = Tensor.__dict__["_teach_tag"]
        self.saved.append((Tensor, "_teach_tag", slot))
        given, retags = cap.given, cap.retags

        def note(t):
            if id(t) in given and id(t) not in retags:
                retags[id(t)] = (t, getattr(t, "_teach_tag", None))

        def write(t, tag):
            note(t)
            slot.__set__(t, tag)

        def delete(t):
            note(t)
            slot.__delete__(t)

        Tensor._teach_tag = property(slot.__get__, write, delete)

    def _watch_writes(self, cap, thread):
        """Patch Variable._new_value and ._write (restored by __exit__ with the rest)."""
        from simdist.framework.variables import Variable

        new_value, write = Variable.__dict__["_new_value"], Variable.__dict__["_write"]
        self.saved += [(Variable, "_new_value", new_value), (Variable, "_write", write)]

        def watched_new_value(var, value, op):
            out = new_value(var, value, op)
            if threading.get_ident() == thread:
                cap.new_value(var, out)
            return out

        def watched_write(var, new, op_name):
            if threading.get_ident() != thread:
                return write(var, new, op_name)
            cap.writing = True
            try:
                write(var, new, op_name)
            finally:
                cap.writing = False
            cap.wrote(var, op_name, new)

        Variable._new_value, Variable._write = watched_new_value, watched_write

    def __exit__(self, *exc):
        if self.patched:
            execute.observers.remove(self.cap.op)
            for owner, name, fn in self.saved:
                setattr(owner, name, fn)
            if self.collecting:
                gc.enable()
            _one_at_a_time.release()
        return False


_one_at_a_time = threading.Lock()   # captures patch the classes: one thread at a time
_get_ident = threading.get_ident   # (the hooks ask it at every tensor and op)


class Program:
    """A capture compiled (see the module docstring)."""

    def __init__(self, cap: Capture, where: dict, results, held, like=None):
        base = len(where)
        made = cap.made
        n = len(made)
        if cap.frees != sum(1 for i in cap.deaths if made[i][2]):
            raise Refused("a tensor from before the run died in it")
        drops: list = [[] for _ in range(n + 1)]
        for i, at in cap.deaths.items():
            drops[at].append(base + i)
        self.steps, self.consts = [], []
        # per tensor made: (op type, attributes, shapes and dtypes, kernel) of an op's
        self.kernels: list = []
        peak: dict = {}
        use: dict = {}
        known = like.kernels if like is not None else ()
        with kernels.silenced():   # once for every kernel verified below
            self._compile(made, drops, base, where, cap.fixed_device, peak, use, known)
        if cap.writes:
            self.steps = _with_writes(self.steps, cap.writes, where, base)
        self.peak = list(peak.items())
        alive = {base + i for i in range(n) if i not in cap.deaths}
        self.result = []
        for t in results:
            slot = base + cap.live[id(t)] if id(t) in cap.live else where.get(id(t))
            if slot is None or type(t) is not Tensor:
                raise Refused("a result that is not a tensor of the run or its inputs")
            alive.discard(slot)
            self.result.append(slot)
        for slot in list(alive):
            if made[slot - base][0] in held:
                alive.discard(slot)
        if alive:
            raise Refused("a tensor the run made outlives it elsewhere")
        self.tags = []   # the teaching tags of the tensors that outlive the run
        for i in range(n):
            if i not in cap.deaths:
                tag = getattr(cap.refs[i](), "_teach_tag", None)
                if tag is not None:
                    self.tags.append((base + i, tag))
        self.teach = teach.enabled()
        self.size = n
        self.base = base
        self.held = bool(held)
        charges = _charges(self, made, base)
        # raw and gathered are built at their first use: a capture that only confirms or
        # fails to confirm another (ConfirmingStep, a section's) never runs
        self._charges = None if charges is None else (cap.deaths, charges[0])
        self.devices = () if charges is None else charges[1]

    @functools.cached_property
    def raw(self):
        """The _Raw plan of a tape-free run, or None (see _raw_steps)."""
        if self._charges is None:
            return None
        deaths, charges = self._charges
        return _raw_steps(self, deaths, self.base, charges)

    @functools.cached_property
    def gathered(self):
        """The program's steps as a gathered run, or None (byte counts not known)."""
        return None if self._charges is None else _gathered(self.steps, self._charges[1])

    def _compile(self, made, drops, base, where, fixed, peak, use, known) -> None:
        """The steps of ``made``, in order (see ``__init__``); ``known``: the kernels of
        the program this capture may confirm."""
        record = self.kernels.append
        for i, (_tid, dev, nbytes, op, value, read) in enumerate(made):
            use[dev] = use.get(dev, 0) + nbytes
            if use[dev] > peak.get(dev, 0):
                peak[dev] = use[dev]
            for d in drops[i + 1]:
                j = d - base
                use[made[j][1]] -= made[j][2]
            if op is None and read is not None:
                if where.get(id(read)) is None:
                    raise Refused("a read of a variable that is not an input")
                self.steps.append(_ReadStep(where[id(read)], dev, base + i, drops[i + 1]))
                record(None)
            elif op is None:
                if type(value) is not np.ndarray:
                    raise Refused("a constant that is not a NumPy array")
                self.consts.append(value)
                self.steps.append(_ConstStep(value, dev, base + i, drops[i + 1]))
                record(None)
            else:
                step, kernel = _op_step(op, value, base + i, drops[i + 1], base, where, fixed,
                                        known[i] if i < len(known) else None)
                self.steps.append(step)
                record(kernel)
            made[i][4] = None

    def signature(self) -> tuple:
        return (self.base, self.size, tuple(s.signature() for s in self.steps),
                tuple(self.result), tuple(self.tags), self.teach)

    def same_as(self, other) -> bool:
        """Whether ``other`` (a capture of a later run) is this program."""
        return self.signature() == other.signature() and \
            len(self.consts) == len(other.consts) and \
            all(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
                for a, b in zip(self.consts, other.consts))

    def fits(self) -> bool:
        """Whether every tensor it makes fits its device (else the op raises its own
        error: the caller runs the real code) and teaching tags are as when captured."""
        for dev, extra in self.peak:
            if dev.memory_in_use + extra > dev.memory_limit:
                return False
        return self.teach == teach.enabled()

    def run(self, objs: list) -> list:
        """Make its tensors from ``objs`` (the run's inputs); the slots (results at
        ``self.result``)."""
        placed = all(objs[k]._device is dev for k, dev in self.devices)
        if self.raw is not None and not _tapes.items and placed:
            return self.raw.run(self, objs)
        slots = objs + [None] * self.size
        outer = np.geterr()   # what a kernel that may warn runs under (the op's own state)
        if self.gathered is not None and placed and gathered_run.usable():
            self.gathered.run(slots, outer)
            for slot, tag in self.tags:
                slots[slot]._teach_tag = tag
            return slots
        with np.errstate(all="ignore"):   # one for the ops that each set it
            for step in self.steps:
                step(slots, outer)
        for slot, tag in self.tags:
            slots[slot]._teach_tag = tag
        return slots


def _op_step(op, value, slot, drops, base, where, fixed, known):
    """An op's step and its entry of ``Program.kernels``: its kernel ``known``'s (the same
    op on arrays like these: see ``like``), else verified quietly (the caller is under
    kernels.silenced)."""
    op_type, attrs, flops, dev, sources, values, first = op
    ins = []
    for kind, ref in sources:
        s = base + ref if kind == "made" else where.get(ref)
        if s is None:
            raise Refused(f"{op_type}: an input from outside the run")
        ins.append(s)
    shapes = kernels.array_signature(values, value)
    if known is not None and known[0] == op_type and known[2] == shapes and \
            shapes is not None and kernels.same_attributes(known[1], attrs):
        kernel = known[3]
    else:
        kernel = kernels.verified(op_type, attrs, values, value, quiet=True)
    if kernel is None:
        raise Refused(f"{op_type}: no kernel")
    if not fixed and first is not dev:   # placement follows the first input
        raise Refused(f"{op_type}: placed apart from its first input")
    size = value.size if flops is None else flops
    low = execute.low_precision(value.dtype)
    return (_OpStep(op_type, kernel, ins, attrs, size, low, slot, drops, dev if fixed else None),
            (op_type, attrs, shapes, kernel))


class _ConstStep:
    """A tensor made without an op (a Python number a rule converted)."""

    __slots__ = ("value", "dev", "slot", "drops")

    def __init__(self, value, dev, slot, drops):
        self.value, self.dev, self.slot, self.drops = value, dev, slot, drops

    def signature(self):
        return ("const", self.dev.name, self.slot, tuple(self.drops))

    def __call__(self, slots, outer):
        slots[self.slot] = Tensor(self.value, self.dev)
        for d in self.drops:
            slots[d] = None

    def compute(self, slots):
        slots[self.slot] = Tensor(self.value, self.dev)
        for d in self.drops:
            slots[d] = None


class _ReadStep:
    """A variable's read (a tensor of its array made without an op): the variable is the
    run's input ``obj``."""

    __slots__ = ("obj", "dev", "slot", "drops")

    def __init__(self, obj, dev, slot, drops):
        self.obj, self.dev, self.slot, self.drops = obj, dev, slot, drops

    def signature(self):
        return ("read", self.obj, self.dev.name, self.slot, tuple(self.drops))

    def __call__(self, slots, outer):
        self.compute(slots)

    def compute(self, slots):
        slots[self.slot] = Tensor(slots[self.obj]._value, self.dev)
        for d in self.drops:
            slots[d] = None


def _with_writes(steps, writes, where, base):
    """``steps`` (one per tensor made) with each write at its place: after the tensors made
    before it, taking over the drops that followed them (the tensors that died after the
    write, its delta maybe among them)."""
    out = []
    pending = sorted(writes, key=lambda w: w[0])
    k = 0
    for i, step in enumerate(steps + [None]):
        group = []
        while k < len(pending) and pending[k][0] == i:
            at, var, op_name, delta, dev, size, nbytes = pending[k]
            if where.get(id(var)) is None:
                raise Refused(f"{op_name}: a variable that is not an input")
            group.append(_WriteStep(where[id(var)], base + delta, op_name, dev, size, nbytes))
            k += 1
        if group:
            if i == 0:
                raise Refused("a write before any tensor was made")
            before = out[-1]   # the step of the tensor made just before the writes
            group[-1].drops, before.drops = before.drops, []
            out.extend(group)
        if step is not None:
            out.append(step)
    return out


class _WriteStep:
    """A variable's assign_add / assign_sub of a tensor made in the run (input ``obj``):
    its new array, then its charge, as ``Variable._write`` makes them."""

    __slots__ = ("obj", "delta", "op_type", "fn", "dev", "size", "nbytes", "drops", "loud")

    def __init__(self, obj, delta, op_type, dev, size, nbytes):
        self.obj, self.delta, self.op_type, self.fn = obj, delta, op_type, _WRITES[op_type]
        self.dev, self.size, self.nbytes, self.drops = dev, size, nbytes, []
        self.loud = True   # the write's arithmetic runs under the caller's errstate

    def signature(self):
        return ("write", self.obj, self.delta, self.op_type, self.dev.name, self.size,
                self.nbytes, tuple(self.drops))

    def __call__(self, slots, outer):
        var = slots[self.obj]
        with np.errstate(**outer):
            self.compute(slots)
        var._device.run(self.op_type, self.size, self.nbytes)

    def compute(self, slots):
        var, d = slots[self.obj], slots[self.delta]
        var._value = self.fn(var._value, d._value if type(d) is Tensor else d)
        for i in self.drops:
            slots[i] = None


class _OpStep:
    """One op: its kernel on the input slots, charged and recorded as ``execute`` does."""

    __slots__ = ("op_type", "kernel", "ins", "attrs", "size", "low", "slot", "drops", "dev",
                 "loud")

    def __init__(self, op_type, kernel, ins, attrs, size, low, slot, drops, dev):
        self.op_type, self.ins, self.attrs = op_type, ins, attrs
        self.size, self.low, self.slot, self.drops = size, low, slot, drops
        self.dev = dev   # a tf.device scope's, or None: the first input's
        raw = getattr(kernel, "raw", None)   # the run is under errstate(all="ignore")
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

    def compute(self, slots):
        """The step without its charge and placement log (a gathered run: under its
        block's errstate, on the captured device)."""
        xs = [slots[i] for i in self.ins]
        t = Tensor(self.kernel(*[x._value for x in xs]), self.dev or xs[0]._device)
        if _tapes.items:
            tape_lib.record(self.op_type, xs, (t,), self.attrs)
        slots[self.slot] = t
        for i in self.drops:
            slots[i] = None


_log = execute._log_placement
_scratch = execute._scratch
_tapes = tape_lib._tapes


# --- tape-free runs: the tensors that die in the run stay arrays ----------------------------
class _Raw:
    """A program's run when no tape records (a backward sweep's): a tensor made and dropped
    within the run is never seen outside it, so it stays a NumPy array -- no Tensor, no
    memory accounting of its own; the run instead raises each device's peak once, at its
    start, by the program's own peak (``Program.peak``: the live bytes it makes, tensor by
    tensor, as the op-by-op run accounts them), and the tensors that outlive the run are
    Tensors made at their turn. Values, clocks, trace events, memory in use and peak equal
    the op-by-op run's (tensor ids aside: an array takes none). Used only where every
    input sits on the device it sat on at the capture (so each op's device is the
    captured one). Its charges are gathered (gathered_run) unless placement is logged."""

    __slots__ = ("steps", "gathered")

    def __init__(self, steps, gathered):
        self.steps, self.gathered = steps, gathered

    def run(self, program, objs):
        raise_peaks(program)
        slots = objs + [None] * program.size
        outer = np.geterr()
        if gathered_run.usable():
            self.gathered.run(slots, outer)
        else:
            with np.errstate(all="ignore"):
                for step in self.steps:
                    step(slots, outer)
        for slot, tag in program.tags:
            slots[slot]._teach_tag = tag
        return slots


def inputs_used(program) -> list | None:
    """The input slots ``program``'s steps read or write, in order (a section's inputs
    name every component of a mirrored variable, its steps touch their own replica's);
    None where a step is of another kind."""
    used = set()
    for step in program.steps:
        kind = type(step)
        if kind is _OpStep:
            used.update(step.ins)
        elif kind is _ReadStep:
            used.add(step.obj)
        elif kind is _WriteStep:
            used.update((step.obj, step.delta))
        elif kind is not _ConstStep:
            return None
    return sorted(i for i in used if i < program.base)


def raise_peaks(program) -> None:
    """Raise each device's peak memory by ``program``'s own (a tape-free run's start)."""
    for dev, extra in program.peak:
        lock = dev._lock
        try:
            lock.acquire()   # inside the try: see Device.allocate_all
            if dev.memory_in_use + extra > dev.peak_memory:
                dev.peak_memory = dev.memory_in_use + extra
        finally:
            lock.release()


def _charges(program, made, base):
    """Per step of ``program``, its charge as ``(device, (op type, FLOPs, bytes, low))``
    (None for a constant), from the capture's byte counts, and the inputs whose device
    places an op (input index -> the device it sat on); None where a byte count is not
    known (an input that is not a NumPy array)."""
    devices = {}
    charges = []
    i = -1   # the made tensor of the step
    for step in program.steps:
        if type(step) is _WriteStep:   # charged as Device.run charges it (always)
            devices[step.obj] = step.dev
            charges.append((step.dev, (step.op_type, step.size, step.nbytes, False), True))
            continue
        i += 1
        if type(step) is _ReadStep:   # the variable must sit where it sat
            devices[step.obj] = step.dev
        if type(step) in (_ConstStep, _ReadStep):
            charges.append(None)
            continue
        dev, nbytes, op = made[i][1], made[i][2], made[i][3]
        for (kind, ref), slot in zip(op[4], step.ins):
            if kind == "made":
                nbytes += made[ref][2]
            else:
                obj_nbytes = _captured_nbytes(op, slot, step.ins)
                if obj_nbytes is None:
                    return None
                nbytes += obj_nbytes
        if step.dev is None:   # placed by its first input: it must sit where it sat
            first = step.ins[0]
            if first < base:
                devices[first] = dev
        charges.append((dev, (step.op_type, step.size, nbytes, step.low)))
    return charges, sorted(devices.items(), key=lambda kv: kv[0])


def _gathered(steps, charges):
    """The steps as a gathered run (gathered_run.Gathered)."""
    loud = [getattr(s, "loud", None) for s in steps]   # constants: either state
    return gathered_run.Gathered([s.compute for s in steps], loud, charges)


def _raw_steps(program, deaths, base, charges):
    """The _Raw plan of ``program`` (see _Raw), or None where a run must make every tensor
    (a tape held some of them at the capture)."""
    if program.held:
        return None
    kept = set(program.result)
    raw = {base + i for i in deaths if base + i not in kept}
    steps = []
    for step, charge in zip(program.steps, charges):
        if type(step) is _ConstStep:
            steps.append(_RawConst(step.value, step.dev, step.slot, step.slot in raw,
                                   step.drops))
            continue
        if type(step) is _ReadStep:
            steps.append(_RawRead(step.obj, step.dev, step.slot, step.slot in raw,
                                  step.drops))
            continue
        if type(step) is _WriteStep:
            steps.append(step)
            continue
        dev, (_, _, nbytes, _) = charge[:2]
        steps.append(_RawOp(step, dev, nbytes, [(j, j in raw) for j in step.ins],
                            step.slot in raw))
    gathered = _gathered(steps, charges)
    return _Raw(steps, gathered)


def _captured_nbytes(op, slot, ins):
    """The bytes of the input at ``slot`` when captured (its value is in the op's record)."""
    for value, j in zip(op[5], ins):
        if j == slot:
            return value.nbytes if type(value) is np.ndarray else None
    return None


class _RawConst:
    __slots__ = ("value", "dev", "slot", "raw", "drops")

    def __init__(self, value, dev, slot, raw, drops):
        self.value, self.dev, self.slot, self.raw, self.drops = value, dev, slot, raw, drops

    def __call__(self, slots, outer):
        self.compute(slots)

    def compute(self, slots):
        slots[self.slot] = self.value if self.raw else Tensor(self.value, self.dev)
        for d in self.drops:
            slots[d] = None


class _RawRead:
    """A _ReadStep in a tape-free run: the variable's array (or a Tensor that outlives
    the run)."""

    __slots__ = ("obj", "dev", "slot", "raw", "drops")

    def __init__(self, obj, dev, slot, raw, drops):
        self.obj, self.dev, self.slot, self.raw, self.drops = obj, dev, slot, raw, drops

    def __call__(self, slots, outer):
        self.compute(slots)

    def compute(self, slots):
        value = slots[self.obj]._value
        slots[self.slot] = value if self.raw else Tensor(value, self.dev)
        for d in self.drops:
            slots[d] = None


class _RawOp:
    """An _OpStep in a tape-free run: arrays in, an array (or a Tensor that outlives the
    run) out, charged as the op is (its bytes known from the capture)."""

    __slots__ = ("op_type", "kernel", "loud", "size", "low", "slot", "drops", "dev",
                 "nbytes", "ins", "raw")

    def __init__(self, step, dev, nbytes, ins, raw):
        self.op_type, self.kernel, self.loud = step.op_type, step.kernel, step.loud
        self.size, self.low, self.slot, self.drops = step.size, step.low, step.slot, step.drops
        self.dev, self.nbytes, self.ins, self.raw = dev, nbytes, ins, raw

    def __call__(self, slots, outer):
        vals = [slots[i] if r else slots[i]._value for i, r in self.ins]
        d = self.dev
        if self.loud:
            with np.errstate(**outer):
                v = self.kernel(*vals)
        else:
            v = self.kernel(*vals)
        slots[self.slot] = v if self.raw else Tensor(v, d)
        if _log[0]:
            execute._log(self.op_type, d)
        if (d.trace.enabled or d.spec.launch_s != 0) and not _scratch.value:
            d.run_op(self.op_type, self.size, self.nbytes, self.low)
        for i in self.drops:
            slots[i] = None

    def compute(self, slots):
        """The step without its charge and log (a gathered run: under its block's
        errstate)."""
        v = self.kernel(*[slots[i] if r else slots[i]._value for i, r in self.ins])
        slots[self.slot] = v if self.raw else Tensor(v, self.dev)
        for i in self.drops:
            slots[i] = None


_TRIES = 3   # later captures that may fail to confirm a program before giving up for good
LATER = object()   # a ConfirmingStep's candidate before its first capture


class ConfirmingStep:
    """A plan step that runs its node, captured, until a later capture confirms the first
    one's program (``same_as``); then ``replay``s it. Subclasses give ``capture(env)``
    (run the node once, captured: its program or None) and ``replay(env, program)``.
    A step made with the program ``LATER`` (the plan's build ran its node inside a
    section's capture) takes its first capture at its first run. A later capture is
    compiled ``like`` the candidate (``capture(node, env, fixed_device, like)``: the
    candidate, whose ``program`` has the kernels)."""

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
            return self.replay(env, self.program)
        if self.candidate is None:
            return self.node.run(env)
        like = None if self.candidate is LATER else self.candidate
        again = self.capture(self.node, env, self.fixed_device, like)
        if self.candidate is LATER:
            self.candidate = again   # None: the node's own code from now on
            return None
        if again is not None and self.candidate.same_as(again):
            self.program = again
            return None
        self.tries += 1   # a collection of garbage from elsewhere may have freed in it
        if self.tries >= _TRIES:
            self.candidate = None   # the node's own code from now on
        return None
