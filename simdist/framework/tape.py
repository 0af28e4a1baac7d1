"""The recording half of autodiff: which ops ran on tensors a tape watches.

Glossary:
  OpRecord  -- one recorded op: ``type``, ``inputs`` (tensors or variables), ``outputs``,
               ``attrs``; gradient rules read it like TF's ``op`` argument.
  Tape      -- the ids it watches and the records of ops that touched them, in order
               (so reverse order is a valid order for backprop).
  Active tapes are per thread, as in TF: each replica of a strategy records its own.

Mirrors tensorflow/python/eager/tape.py.
"""

from __future__ import annotations

from simdist import _world
from simdist.framework.thread_local import ThreadLocalStack

_tapes = ThreadLocalStack()


class OpRecord:
    """One op as the gradient rules see it (``op.inputs``, ``op.outputs``, ``op.get_attr``)."""

    __slots__ = ("type", "inputs", "outputs", "attrs", "needs")

    def __init__(self, op_type, inputs, outputs, attrs):
        self.type = op_type
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs or {}
        self.needs = None  # per input: whether backprop must produce its gradient

    def get_attr(self, name):
        return self.attrs[name]

    def needs_grad(self, i: int) -> bool:
        return self.needs is None or self.needs[i]


class Tape:
    """The state of one recording tape."""

    __slots__ = ("watched", "records", "persistent", "watch_accessed_variables",
                 "recording", "variables")

    def __init__(self, persistent: bool, watch_accessed_variables: bool):
        self.watched: set[int] = set()
        self.records: list[OpRecord] = []
        self.persistent = persistent
        self.watch_accessed_variables = watch_accessed_variables
        self.recording = True
        self.variables: dict[int, object] = {}

    def watch(self, obj) -> None:
        self.watched.add(obj._id)
        if hasattr(obj, "trainable"):
            self.variables[obj._id] = obj


def stack() -> list[Tape]:
    return _tapes.items


@_world.register_resetter
def _forget_tapes() -> None:
    """A fresh world records on no tape (this thread's stack; replica threads end)."""
    stack().clear()


def active() -> bool:
    """Whether any tape of this thread is recording (the fast path checks only this)."""
    return bool(_tapes.items)


def record(op_type, inputs, outputs, attrs=None) -> None:
    """Record an op on every recording tape that watches one of its inputs."""
    rec = None
    for tape in _tapes.items:
        if not tape.recording:
            continue
        watched = tape.watched
        for i in inputs:  # a plain loop: this runs for every op under a tape
            if getattr(i, "_id", None) in watched:
                break
        else:
            continue
        if rec is None:
            rec = OpRecord(op_type, tuple(inputs), tuple(outputs), attrs)
        tape.records.append(rec)
        for o in outputs:
            watched.add(o._id)


def variable_accessed(var) -> None:
    """A trainable variable was read: tapes that watch accessed variables watch it."""
    for tape in stack():
        if tape.recording and tape.watch_accessed_variables and var.trainable:
            tape.watch(var)
