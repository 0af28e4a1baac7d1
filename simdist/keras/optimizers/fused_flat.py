"""One step's fused updates of every variable copy as one element-wise computation.

fused_apply runs each copy's fused update in turn: about a dozen NumPy calls and a dozen
device charges per copy, on arrays of a few hundred elements, so the Python around them
is most of the cost. Where the update is element-wise (the optimizer class says so with
``_fused_elementwise``: each element's result depends only on that element of the
gradient, the variable and its slots, and on the step's scalars), this joins every copy's
arrays into one flat array per operand, runs the update once on those, gives each copy
its part of the results (views of the flat results) and charges each copy's ops as its
own update would, in the same order. Element-wise IEEE arithmetic (+, -, *, /, sqrt) rounds
each element alone, so the bits are the copies' own.

Glossary:
  flat arrays -- the gradients, variables and slots of every copy, raveled and joined in
                 update order; ``_Flat`` stands in for a variable over them.
  program     -- what the update did, read off the flat run by ``_Recorder``: its ops
                 (type, bytes per element of its flat operands, bytes of its scalar
                 operands, low precision) and writes (op name, bytes per element), in
                 order. Each copy is charged the program at its own size, in one
                 ``Device.run_ops`` (the same clock and trace events as op by op).
  scalars     -- the step's coefficients (``Optimizer._prepare_local``, one dict per
                 device and dtype), made at the copy where the per-copy path makes them.
                 The flat run uses the first copy's; a copy whose device's scalars differ
                 in any bit is computed again on its own arrays with its own scalars.
  layout      -- what is kept for the next step with the same copies (``Layout``, on
                 fused_apply's skeleton): each copy's place in the flat arrays, the flat
                 results whose parts the copies were given (while every copy still holds
                 its part, the next step's flat arrays are these, not joined again) and
                 each copy's charges per program.
  enabled     -- ``disabled()`` turns it off (tests compare both paths).

Mirrors TF's grappler/XLA fusion of a step's per-variable element-wise updates into one
kernel (a single launch over many buffers), here kept invisible to the simulated device.
"""

from __future__ import annotations

import operator

import numpy as np

from simdist.framework import execute
from simdist.framework import tensor as tensor_lib
from simdist.framework.switch import Switch
from simdist.framework.tensor import Tensor
from simdist.hardware import bounded_memo

_switch = Switch()
disabled = _switch.off   # every copy's update on its own arrays (fused_apply's loop)


class _Flat:
    """A stand-in variable over a flat array (its ``_value``), written by ``_Recorder``."""

    __slots__ = ("_value",)

    def __init__(self, value):
        self._value = value


class _Recorder:
    """A fused.Kernel for the flat run: computes nothing more, records the program."""

    def __init__(self, size, targets):
        self.size = size
        self.targets = targets
        self.program: list = []   # ("op", type, per-element bytes, scalar bytes, low) / write
        self.written: set = set()
        self.ok = True

    def op(self, op_type, inputs, out):
        per_element = scalar_bytes = 0
        for a in (out, *inputs):
            if type(a) is not np.ndarray:
                self.ok = False
            elif a.shape == (self.size,):
                per_element += a.itemsize
            elif a.ndim == 0:
                scalar_bytes += a.nbytes
            else:
                self.ok = False
        if type(out) is not np.ndarray or out.shape != (self.size,):
            self.ok = False
        else:
            self.program.append((op_type, per_element, scalar_bytes,
                                 execute.low_precision(out.dtype)))
        return out

    def write(self, variable, new, op_name):
        index = next((j for j, t in enumerate(self.targets) if t is variable), None)
        if index is None or type(new) is not np.ndarray or new.shape != (self.size,):
            self.ok = False
            return
        variable._value = new
        self.written.add(index)
        self.program.append((op_name, 2 * new.itemsize, None, False))


class _Quiet:
    """A fused.Kernel that charges nothing (a copy computed again with its own scalars)."""

    @staticmethod
    def op(op_type, inputs, out):
        return out

    @staticmethod
    def write(variable, new, op_name):
        variable._value = new


def apply(optimizer, entries, coefficients, skeleton=None) -> bool:
    """Run fused_apply's copy ``entries`` as one flat update (see the module docstring);
    ``coefficients(entry)`` gives (making them at that point) the step's scalars;
    ``skeleton``: fused_apply's kept skeleton of the entries' copies, whose ``layout``
    slot keeps this module's Layout for the next step. False, having charged at most the
    first copy's scalars, where it does not apply."""
    if not entries or not _switch.on or not getattr(optimizer, "_fused_elementwise", False):
        return False
    layout = None if skeleton is None else skeleton.layout
    if layout is None:
        layout = Layout(entries)
        if skeleton is not None:
            skeleton.layout = layout
    if not layout.ok:
        return False   # several dtypes or devices, or a variable updated twice in one step
    if tensor_lib.active[0] and (tensor_lib.tracing.value is not None or _in_node()):
        return False   # Variable._write raises there: the per-copy path raises it
    first = coefficients(entries[0])
    flats = layout.join(entries)
    targets = [_Flat(flat) for flat in flats]
    grads = np.concatenate([e[1]._value for e in entries], axis=None)
    recorder = _Recorder(layout.total, targets)
    optimizer._fused_arrays(recorder, grads, targets[0], targets[1:], first)
    if not recorder.ok:
        return False
    done, scalars = 0, {}   # scalars: device -> its dict
    try:
        for entry, (dev, ops, memo) in zip(entries, layout.runs(recorder.program)):
            if dev not in scalars:
                scalars[dev] = coefficients(entry)
            dev.run_ops(ops, memo)
            done += 1
    finally:
        layout.write_back(optimizer, entries, done, scalars, first, targets, recorder)
    return True


class Layout:
    """What a step's flat update keeps of its copies for the next step with the same
    copies (fused_apply's skeleton): whether the flat update applies to them, each
    copy's place in the flat arrays, the flat results of the last step whose parts the
    copies hold (a copy still holding its part needs no join), and the charges of each
    copy's program.

    Glossary:
      operands -- the variables of each flat array: every copy, then each slot's copies.
      views    -- per operand, the arrays the last write-back gave its variables (None:
                  join them afresh); ``flats`` the flat arrays they are parts of.
    """

    __slots__ = ("ok", "operands", "devices", "sizes", "total", "slices", "shapes", "dtype",
                 "runs_of", "flats", "views", "charges")

    def __init__(self, entries):
        dtype = entries[0][5]
        self.ok = True
        for _, _, comp, slots, dev, dt in entries:
            if dt != dtype or comp._device is not dev or any(s._device is not dev
                                                              for s in slots):
                self.ok = False
        owners = [id(o) for e in entries for o in (e[2], *e[3])]
        if len(set(owners)) != len(owners):
            self.ok = False   # a variable updated twice in one step: the second reads the first
        self.devices = [e[4] for e in entries]
        self.operands = [[e[2] for e in entries]] + [
            [e[3][j] for e in entries] for j in range(len(entries[0][3]))]
        self.flats = self.views = None
        self.sizes, self.total, self.slices, self.shapes, self.dtype = [], 0, [], [], None
        self.runs_of: list = []
        self.charges: dict = {}   # (program, charged per device) -> each copy's charges

    def join(self, entries) -> list:
        """The flat array of each operand: the last step's where every variable still
        holds the part it was given, else joined now (each copy's size found again)."""
        views = self.views
        if views is not None and all(
                all(map(operator.is_, map(_VALUE, variables), kept))
                for variables, kept in zip(self.operands, views)):
            return self.flats
        self.views = None
        sizes = self.sizes = [comp._value.size for _, _, comp, _, _, _ in entries]
        self.shapes = [comp._value.shape for _, _, comp, _, _, _ in entries]
        self.slices, offset = [], 0
        for n in sizes:
            self.slices.append(slice(offset, offset + n))
            offset += n
        self.total = offset
        self.runs_of = _runs_of(self.shapes, sizes)
        self.flats = [np.concatenate([v._value for v in variables], axis=None)
                      for variables in self.operands]
        self.dtype = self.flats[0].dtype
        return self.flats

    def runs(self, program) -> list:
        """(device, ops, Device.run_ops memo) of each copy, kept per program, charged
        flags and sizes (``_charges``)."""
        charged_on: dict = {}
        for dev in self.devices:
            if dev not in charged_on:
                charged_on[dev] = not (execute._scratch.value or (
                    not dev.trace.enabled and dev.spec.launch_s == 0))
        key = (tuple(program), tuple(charged_on.values()), tuple(self.sizes))
        return bounded_memo.kept(self.charges, key,
                                 lambda: self._runs(program, charged_on), _KEPT)

    def _runs(self, program, charged_on) -> list:
        runs = []
        made: dict = {}   # (device, size) -> its charges: copies alike share them
        for dev, n in zip(self.devices, self.sizes):
            found = made.get((dev, n))
            if found is None:
                found = made[dev, n] = _charges(program, n, charged_on[dev])
            runs.append((dev, *found))
        return runs

    def write_back(self, optimizer, entries, done, scalars, first, targets, recorder):
        """Give each updated copy its part of the flat results (every copy of a whole
        step, on devices whose scalars are the first's: kept as ``views`` for the next
        step's join); a copy whose scalars differ from the first copy's is computed on
        its own (its charges are already made)."""
        alike = {dev: c is first or _same_scalars(c, first) for dev, c in scalars.items()}
        written = sorted(recorder.written)
        if done == len(entries) and all(alike.values()) and all(
                targets[j]._value.dtype == self.dtype for j in written):
            views = [None] * len(self.operands)
            for j in written:
                flat = targets[j]._value
                parts = views[j] = []
                for s, shape in self.runs_of:   # a variable's copies in one reshape
                    if len(shape) > 1:
                        parts.extend(flat[s].reshape(shape))
                    else:
                        parts.append(flat[s].reshape(()))
                for variable, part in zip(self.operands[j], parts):
                    variable._value = part
            for j, variables in enumerate(self.operands):
                if views[j] is None:   # an operand the update did not write
                    views[j] = list(map(_VALUE, variables))
            self.flats = [t._value for t in targets]
            self.views = views
            return
        self.views = None
        for entry, s, shape in zip(entries[:done], self.slices, self.shapes):
            _, g, comp, slots, dev, _ = entry
            if alike[dev]:
                owners = (comp, *slots)
                for j in written:
                    owners[j]._value = targets[j]._value[s].reshape(shape)
            else:
                optimizer._fused_arrays(_Quiet, g._value, comp, slots, scalars[dev])


_VALUE = operator.attrgetter("_value")


def _runs_of(shapes, sizes) -> list:
    """(slice, shape) of each run of consecutive copies of one shape (a variable's copies)
    in the flat arrays, the shape (copies, *shape): its rows are each copy's part. A copy
    of no shape is a run of its own, of shape (1,): its part is that run reshaped to ()."""
    runs, offset, i = [], 0, 0
    while i < len(shapes):
        shape, k = shapes[i], 1
        while shape and i + k < len(shapes) and shapes[i + k] == shape:
            k += 1
        n = sizes[i] * k
        runs.append((slice(offset, offset + n), (k, *shape)))
        offset += n
        i += k
    return runs


def _charges(program, n, charged):
    """(the ops a copy of ``n`` elements is charged for ``program``, their Device.run_ops
    memo)."""
    return ([(name, n, n * per_element + (scalar_bytes or 0), low)
             for name, per_element, scalar_bytes, low in program
             if charged or scalar_bytes is None], [])


_KEPT = 16   # programs kept per layout (one per dtype and update kind: a few)


def _in_node() -> bool:
    from simdist.framework import func_graph

    return bool(func_graph._in_node.value)


def _same_scalars(c, first) -> bool:
    """Whether two devices' scalar dicts hold the same bits under the same names."""
    if c.keys() != first.keys():
        return False
    for key, value in c.items():
        other = first[key]
        if value is other:
            continue
        if type(value) is not Tensor or type(other) is not Tensor:
            if value is not other:
                return False
            continue
        a, b = value._value, other._value
        if a is b and type(a) is np.ndarray:   # one array (another device's from the first's)
            continue
        if type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype != b.dtype or \
                a.shape != b.shape or a.tobytes() != b.tobytes():
            return False
    return True
