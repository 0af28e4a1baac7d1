"""The replicas' identical sections of a plan computed as one stacked NumPy computation.

Glossary:
  group     -- a plan's consecutive sections (section_plan: nothing between them but their
               own nodes), e.g. in a ``strategy.run`` step each replica's forward pass, loss
               and backward sweep, one after the other; or its consecutive call steps
               (call_plan), e.g. each replica's metric update.
  member    -- a SectionStep or CallStep of a group: its confirmed program (``program``:
               op_capture's, and where its inputs come from), ``inputs`` (checked),
               ``objects`` (unchecked) and ``finish`` (outputs handed on, marks run).
  stacked   -- the members' confirmed tape-free programs where they are one program on
               other devices (the same steps and slots, op types and attributes, constants,
               arrays of the same shapes and dtypes; no device shared), as one computation
               on the members' arrays stacked on a new leading axis (stacked_kernels): one
               NumPy call per op for every replica, not one per op per replica. A write
               (a metric's assign_add) computes the variables' new values stacked too;
               later reads in the program see them.
  verified  -- a stacked computation is used only after one on real inputs gave, in row r,
               every array member r's program makes (its kernels run one by one on the
               same inputs: a probe), bit for bit, with the same dtype and shape (and the
               same strides for a result); that verified run is the execution's stash (the
               members commit it). Otherwise, or where a member's program is not a
               tape-free run, the group is refused and each member replays alone.
  stash     -- the first member's call computes every member's arrays at once (no tensor,
               no charge: NumPy only; a floating-point error the caller's state would warn
               of or raise drops it), then commits each member's row in turn, as its own
               replay does (op_capture._Raw): its device's peak, its result tensors and
               variable writes (row r: a NumPy scalar for a 0-d variable, as NumPy's own
               arithmetic leaves it) in step order, its device's charges, teaching tags,
               outputs and marks -- so values, clocks, memory and trace events (their
               order too) and tensor ids are each member's own replay's. Nothing runs
               between the members' calls (consecutive steps), so a committed member's own
               call has nothing left to do; an error committing a member is raised by its
               own call (errors name its node). A section's dead outputs (section_plan)
               are committed as their bytes (``Held``, one per device), not as tensors. A
               member whose inputs are not the ones stashed, or that would not replay,
               drops the stash: it and the members after it replay alone.
  enabled   -- ``disabled()`` leaves every member to its own replay (tests compare both).

Mirrors what XLA's SPMD partitioner does for TPUStrategy (one program for all replicas);
TF's MirroredStrategy runs each replica's ops as their own nodes, which the simulated
devices still charge one by one.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import gathered_run, op_capture, stacked_kernels
from simdist.framework import tape as tape_lib
from simdist.framework import tensor as tensor_lib
from simdist.framework.switch import Switch
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api

_switch = Switch()
disabled = _switch.off
_TRIES = 3   # verifications that may fail (a floating-point error) before refusing for good
_NONE = (0, None)   # no member committed, nothing raised


def group(found) -> None:
    """Link each run of consecutive sections in ``found`` ([(plan index, SectionStep)],
    in plan order; a section's other nodes are skip steps) as a Group."""
    runs: list = []
    for i, step in found:
        last = runs[-1][-1] if runs else None
        if last is not None and last[0] + len(last[1].nodes) == i:
            runs[-1].append((i, step))
        else:
            runs.append([(i, step)])
    for run in runs:
        if len(run) > 1:
            members = [step for _, step in run]
            g = Group(members)
            for k, step in enumerate(members):
                step.group, step.member = g, k


class Group:
    """Consecutive sections of a plan (see the module docstring)."""

    def __init__(self, members):
        self.members = members
        self.stacked = None   # a _Stacked once verified; False once refused
        self.tries = 0

    def replay(self, member, env) -> bool:
        """Replay ``member`` from the stash (made and committed now if it is the first);
        False where it must replay alone. The execution's ``env`` keeps, under the group,
        how many members its first call committed and what committing the next raised
        (that member's call raises it): another execution of the plan (another thread's)
        keeps its own."""
        k = member.member
        if k == 0:
            done = _NONE
            if _switch.on and self.stacked is not False and gathered_run.usable():
                stash = self._compute(env)
                if stash is not None:
                    done = stash.commit(self.members, env)
            env[self] = done
        committed, error = env.get(self, _NONE)
        if k == committed and error is not None:
            env[self] = (committed, None)
            raise error
        return k < committed

    def _compute(self, env):
        objs = []
        for member in self.members:
            section = member.program
            if section is None or section.program.raw is None:
                return None
            if any(k not in env for k in section.env_keys):
                self.stacked = False   # a member reads what an earlier one makes: in turn
                return None
            found = member.inputs(env, section)
            if found is None or not _placed(section.program, found):
                return None
            objs.append(found)
        if self.stacked is None:
            return self._verify(objs)
        return self.stacked.run(objs)

    def _verify(self, objs):
        """Build the stacked computation and check its first run against the probes: that
        run's stash once verified (the members commit it, as at every later execution),
        else None (each member replays alone)."""
        programs = [m.program.program for m in self.members]
        probes = [_probe(p, o) for p, o in zip(programs, objs)]
        stacked = _Stacked.build(programs, probes)
        stash = None if stacked is None else stacked.run(objs)
        if stash is not None and stacked.matches(stash.arrays, probes):
            self.stacked = stacked
            return stash
        self.tries += 1
        if stacked is None or stash is not None or self.tries >= _TRIES:
            self.stacked = False
        return None


def _placed(program, objs) -> bool:
    """Whether every input sits where it sat at the capture (a tape-free run's rule)."""
    return all(objs[k]._device is dev for k, dev in program.devices)


def _probe(program, objs):
    """Every array ``program``'s tape-free run makes from ``objs`` (its kernels one by one:
    no tensor, no charge, the variables untouched), by slot, each write's new value after
    them; None where a step is not a kernel, read, constant or write."""
    arrays = [o._value for o in objs] + [None] * program.size
    written = []
    with np.errstate(all="ignore"):
        for step in program.raw.steps:
            kind = type(step)
            if kind is op_capture._RawOp:
                arrays[step.slot] = step.kernel(*[arrays[i] for i, _ in step.ins])
            elif kind is op_capture._RawRead:
                arrays[step.slot] = arrays[step.obj]
            elif kind is op_capture._RawConst:
                arrays[step.slot] = step.value
            elif kind is op_capture._WriteStep:
                arrays[step.obj] = step.fn(arrays[step.obj], arrays[step.delta])
                written.append(arrays[step.obj])
            else:
                return None
    return arrays + written


class _Stacked:
    """A group's programs as one stacked computation (see the module docstring)."""

    def __init__(self, total, end, inputs, blocks, kept, made, ops, used):
        self.total = total     # slots: the inputs, one per step, one per write
        self.end = end         # the first write's slot
        self.inputs = inputs   # input slots the kernels read (the members' tensors)
        self.blocks = blocks   # [(loud, [step(arrays, objs)])]
        self.kept = kept       # per member: [(slot, how, what, device)] of its result tensors
        self.commit_plans = [None] * len(kept)   # per member: (section, live, held, device)
        self.made = made       # slots the steps make
        self.ops = ops         # slots kernels make (rows are views of a stacked array)
        self.used = used       # the input slots the steps read or write (inputs_used)

    @classmethod
    def build(cls, programs, probes):
        """The stacked computation of ``programs``, or None where they are not one
        program on other devices or an op has no stacked kernel."""
        first = programs[0]
        if any(p is None for p in probes) or not _alike(programs, probes):
            return None
        runs, louds = [], []
        inputs, made, ops = set(), [], []
        count = len(programs)
        total = first.base + first.size   # then one slot per write: its new values
        for j, step in enumerate(first.raw.steps):
            kind = type(step)
            if kind is op_capture._RawOp:
                values = [probes[0][i] for i, _ in step.ins]
                kernel = stacked_kernels.build(step.op_type, step.kernel,
                                               first.steps[j].attrs, values,
                                               probes[0][step.slot])
                if kernel is None:
                    return None
                inputs.update(i for i, _ in step.ins if i < first.base)
                run, loud = _op(kernel, [i for i, _ in step.ins], step.slot), step.loud
                ops.append(step.slot)
            elif kind is op_capture._RawRead:
                run, loud = _read(step.obj, step.slot), None
            elif kind is op_capture._WriteStep:
                run, loud = _write(step.fn, step.obj, step.delta, total), True
                made.append(total)
                total += 1
                runs.append(run)
                louds.append(loud)
                continue
            else:
                run, loud = _const(np.stack([step.value] * count), step.slot), None
            made.append(step.slot)
            runs.append(run)
            louds.append(loud)
        # the steps in errstate blocks, as a gathered run makes them (no charges here)
        blocks = gathered_run.Gathered(runs, louds, [None] * len(runs)).blocks
        end = first.base + first.size
        used = op_capture.inputs_used(first)
        return cls(total, end, sorted(inputs), blocks, [_kept(p, end) for p in programs], made,
                   ops, list(range(first.base)) if used is None else used)

    def commits(self, member, k, section, arrays, slots):
        """Member ``k``'s commit of ``section``: its entries of ``kept`` that make a tensor
        or write a variable, [(device, bytes)] of its dead outputs' tensors (a tensor
        nothing reads: only its bytes, held), and the one device of its tensors (None if
        several), made at its first commit (the shapes are the program's at every
        execution)."""
        made = self.commit_plans[k]
        if made is not None and made[0] is section:
            return made[1:]
        dead = member.held_slots(section) if hasattr(member, "held_slots") else ()
        live, held = [], {}   # device -> bytes of the dead outputs' tensors
        for entry in self.kept[k]:
            slot, how, what, dev = entry
            if slot not in dead:
                live.append(entry)
                continue
            if how == "op":
                a = arrays[slot]
                nbytes = a.nbytes // a.shape[0]
            else:
                nbytes = array_api.nbytes(slots[what]._value if how == "read" else what)
            held[dev] = held.get(dev, 0) + nbytes
        devices = {dev for _, how, _, dev in live if how != "write"}
        one = devices.pop() if len(devices) == 1 else None
        self.commit_plans[k] = section, live, list(held.items()), one
        return self.commit_plans[k][1:]

    def run(self, objs):
        """The members' arrays (a _Stash), or None on a floating-point error."""
        arrays = [None] * self.total
        for i in self.inputs:
            arrays[i] = _stacked([o[i]._value for o in objs])
        strict = {k: "ignore" if v == "ignore" else "raise" for k, v in np.geterr().items()}
        try:   # the quiet blocks' state around the whole run, the loud blocks' inside it:
            with np.errstate(all="ignore"):   # each step runs under its block's state
                for loud, steps in self.blocks:
                    if loud:
                        with np.errstate(**strict):
                            for step in steps:
                                step(arrays, objs)
                    else:
                        for step in steps:
                            step(arrays, objs)
        except FloatingPointError:
            return None   # each member replays alone: it warns or raises as the op does
        return _Stash(self, objs, arrays)

    def matches(self, arrays, probes) -> bool:
        """Whether row r of every array made is member r's probe's, bit for bit."""
        ops = set(self.ops)
        for slot in self.made:
            for r, probe in enumerate(probes):
                if slot < self.end:   # made by a step (a read of a written 0-d variable:
                    got, want = arrays[slot][r, ...], probe[slot]   # a NumPy scalar)
                    if not isinstance(want, (np.ndarray, np.generic)):
                        return False
                else:             # a write's new value: row r itself (a NumPy scalar if 0-d)
                    got, want = arrays[slot][r], probe[slot]
                    if type(got) is not type(want):
                        return False
                if got.dtype != want.dtype or got.shape != want.shape or \
                        got.tobytes() != want.tobytes():
                    return False
                if slot in ops and got.strides != want.strides:
                    return False
        return True


def _stacked(values):
    """The members' arrays of one shape and dtype stacked on a new leading axis (a new
    array: np.stack's, made at once)."""
    return np.array(values)


def _op(kernel, ins, slot):
    if len(ins) == 1:
        (a,) = ins

        def step(arrays, objs):
            arrays[slot] = kernel(arrays[a])
    elif len(ins) == 2:
        a, b = ins

        def step(arrays, objs):
            arrays[slot] = kernel(arrays[a], arrays[b])
    elif len(ins) == 3:
        a, b, c = ins

        def step(arrays, objs):
            arrays[slot] = kernel(arrays[a], arrays[b], arrays[c])
    else:
        def step(arrays, objs):
            arrays[slot] = kernel(*[arrays[i] for i in ins])
    return step


def _read(obj, slot):
    def step(arrays, objs):
        value = arrays[obj]   # the members' variable as the run left it, or as it is
        if value is None:
            value = arrays[obj] = _stacked([o[obj]._value for o in objs])
        arrays[slot] = value
    return step


def _write(fn, obj, delta, slot):
    """A write's new values (op_capture._WriteStep), kept at ``slot``; later reads see them."""
    def step(arrays, objs):
        value = arrays[obj]
        if value is None:
            value = _stacked([o[obj]._value for o in objs])
        arrays[slot] = arrays[obj] = fn(value, arrays[delta])
    return step


def _const(value, slot):
    value.setflags(write=False)

    def step(arrays, objs):
        arrays[slot] = value
    return step


def _kept(program, end):
    """[(slot, how, what, device)] of the tensors ``program``'s tape-free run makes and
    the variables it writes, in step order: ("op", None) a kernel's row, ("read", input
    slot), ("const", value); ("write", the variable's input slot) at the write's slot
    (numbered from ``end``)."""
    out = []
    for step in program.raw.steps:
        kind = type(step)
        if kind is op_capture._WriteStep:
            out.append((end, "write", step.obj, step.dev))
            end += 1
            continue
        if step.raw:
            continue
        if kind is op_capture._RawOp:
            out.append((step.slot, "op", None, step.dev))
        elif kind is op_capture._RawRead:
            out.append((step.slot, "read", step.obj, step.dev))
        else:
            out.append((step.slot, "const", step.value, step.dev))
    return out


def _alike(programs, probes) -> bool:
    """Whether ``programs`` are one program on other devices (see the module docstring),
    each array of every slot of one shape and dtype, none empty."""
    first = programs[0]
    devices: set = set()
    for p in programs:
        mine = {dev for dev, _ in p.peak} | {dev for _, dev in p.devices} | \
            {s.dev for s in p.raw.steps if getattr(s, "dev", None) is not None}
        if mine & devices:
            return False
        devices |= mine
        if p.base != first.base or p.size != first.size or p.result != first.result or \
                [t for _, t in p.tags] != [t for _, t in first.tags] or \
                [s for s, _ in p.tags] != [s for s, _ in first.tags] or \
                len(p.raw.steps) != len(first.raw.steps) or len(p.steps) != len(first.steps):
            return False
        if p is first:   # (a group has other members: each is compared with it)
            continue
        for a, b, sa, sb in zip(first.raw.steps, p.raw.steps, first.steps, p.steps):
            if not _same_step(a, b, sa, sb):
                return False
    arrays_ = (np.ndarray, np.generic)
    for arrays in zip(*probes):   # each slot's (plain loops: a group's every slot)
        first_array = arrays[0]
        if first_array is None:
            continue
        if not isinstance(first_array, arrays_):
            return False
        shape, dtype = first_array.shape, first_array.dtype
        for a in arrays:
            if not isinstance(a, arrays_) or a.size == 0 or a.shape != shape or \
                    a.dtype != dtype:
                return False
    return True


def _same_step(a, b, sa, sb) -> bool:
    """Whether two raw steps (and their program steps) do the same on their devices."""
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is op_capture._WriteStep:
        return (a.obj, a.delta, a.op_type, a.size, a.nbytes, a.drops) == \
            (b.obj, b.delta, b.op_type, b.size, b.nbytes, b.drops)
    if a.slot != b.slot or a.raw != b.raw:
        return False
    if kind is op_capture._RawOp:
        try:
            attrs = bool(sa.attrs == sb.attrs)
        except Exception:  # noqa: BLE001 - attributes NumPy cannot compare: not alike
            return False
        return attrs and a.op_type == b.op_type and a.ins == b.ins and a.loud == b.loud
    if kind is op_capture._RawRead:
        return a.obj == b.obj
    if kind is op_capture._RawConst:
        return a.value.dtype == b.value.dtype and a.value.shape == b.value.shape and \
            a.value.tobytes() == b.value.tobytes()
    return False


HELD = object()   # the execution's key of its Held bytes


class Held:
    """Device bytes accounted for tensors nothing reads (a section's dead outputs, which
    an execution keeps to its end): allocated at once where the tensors would be made (a
    commit makes no other allocation or free in between, after the program's peak was
    raised), freed when the execution's tensors go, as theirs would be."""

    __slots__ = ("device", "nbytes")

    def __init__(self, device, nbytes):
        device.allocate(nbytes)
        self.device, self.nbytes = device, nbytes

    def __del__(self):
        try:
            self.device.free(self.nbytes)
        except Exception:  # noqa: BLE001 - interpreter shutdown: nothing left to account
            pass


class _Stash:
    """One execution's arrays of every member, committed member by member."""

    __slots__ = ("stacked", "objs", "arrays", "values")

    def __init__(self, stacked, objs, arrays):
        self.stacked, self.objs, self.arrays = stacked, objs, arrays
        # what each input read (the same objects and arrays at the member's commit)
        # (of the inputs the steps read or write: op_capture.inputs_used)
        self.values = [[member[i]._value for i in stacked.used] for member in objs]

    def commit(self, members, env):
        """Commit each of ``members`` in turn (see the module docstring) up to the first
        that must replay alone: (how many were committed, None), or (k, what committing
        member k > 0 raised: its own call raises it)."""
        for k, member in enumerate(members):
            try:
                if not self._commit(member, k, env):
                    return k, None
            except Exception as e:   # noqa: BLE001 - raised by member k's own call
                if k == 0:
                    raise
                return k, e
        return len(members), None

    def _commit(self, member, k, env) -> bool:
        """Member ``k``'s replay from its row; False (nothing done) where its inputs are
        not the stashed ones or it must not replay."""
        section = member.program
        program = section.program
        # the inputs checked at the stash (member.inputs), still the same objects holding
        # the same arrays (so of the same shapes and dtypes) where the steps use them
        objs, mine = member.objects(env, section), self.objs[k]
        if len(objs) != len(mine) or not all(
                objs[i] is mine[i] and objs[i]._value is v
                for i, v in zip(self.stacked.used, self.values[k])):
            return False
        if tape_lib._tapes.items or not program.fits() or not gathered_run.usable():
            return False
        op_capture.raise_peaks(program)
        slots = objs + [None] * program.size
        arrays = self.arrays
        live, held, device = self.stacked.commits(member, k, section, arrays, slots)
        # the tensors' values in step order (a read after a write sees it), then the
        # tensors: made at once where they sit on one device
        made, devices, values = [], [], []
        for slot, how, what, dev in live:
            if how == "write":   # as _WriteStep.compute: the variable's new value
                slots[what]._value = arrays[slot][k]
                continue
            values.append(arrays[slot][k, ...] if how == "op" else
                          slots[what]._value if how == "read" else what)
            made.append(slot)
            devices.append(dev)
        tensors = (map(Tensor, values, devices) if device is None
                   else tensor_lib.made(values, device))
        for slot, t in zip(made, tensors):
            slots[slot] = t
        if held:
            env.setdefault(HELD, []).extend(Held(dev, n) for dev, n in held)
        gathered = program.raw.gathered
        gathered._charge(gathered.before[-1])
        for slot, tag in program.tags:
            slots[slot]._teach_tag = tag
        member.finish(env, section, slots)
        return True
