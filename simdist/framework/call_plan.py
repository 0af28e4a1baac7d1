"""A traced library call (a Keras loss, ``compute_average_loss``) replayed as kernel calls.

Glossary:
  call node  -- a node that records a library entry point whole (``record_methods``,
                ``record_module_ops``): at each execution its Python runs again. Those
                registered here (``register``) are calls whose ops depend on the shapes,
                dtypes and the distribution mode of their inputs only -- no collectives,
                no value-dependent Python, and no variable reads or writes, except in a
                call registered ``writes=True`` (a Keras metric's update): there an
                ``assign_add`` / ``assign_sub`` of a tensor the call made is a write step
                and a read after it a read step (op_capture); the variables are the
                node's own (a metric's state, the same objects at every execution).
  capture    -- one run of the node, watched (op_capture): its ops, the tensors it makes,
                when they die, what it returns and what the tapes recorded; refused where
                Python read a value, or the run charged or allocated other than through its
                ops, or an op has no kernel.
  inputs     -- the execution's tensors (``env``) its ops read: its arguments, and tensors
                reached through them (the logits Keras keeps on a sigmoid's output).
  CallStep   -- the plan's step: the node's program (op_capture.Program) once a later
                capture confirmed it, used while its inputs have the captured shapes and
                dtypes and its tensors fit memory; else the node runs (consecutive call
                steps, each replica's, may compute stacked: stacked_sections). A call that enters
                or leaves a tape, or tags (``simdist.warnings.tag``) a tensor it was given,
                is not captured.

Results equal running the node: values, clocks, trace events, memory, tape records and
teaching tags (tests/framework/test_graph_plan.py).

Mirrors tensorflow/python/eager/polymorphic_function (a library call inside a function is
part of its graph: its ops run, not its Python).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import op_capture
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor

_CALLS: set = set()   # the recorded functions whose nodes may lower
_WRITING: set = set()   # those of them whose programs may write variables


def register(fn, writes: bool = False) -> None:
    """Let nodes of the recorded ``fn`` lower (see the module docstring for which may);
    ``writes``: its assign_add / assign_sub of its own variables are program steps."""
    op = getattr(fn, "__recorded_op__", fn)
    _CALLS.add(op)
    if writes:
        _WRITING.add(op)


def lowers(node) -> bool:
    """Whether ``node`` is a call node that may lower."""
    return node.fn in _CALLS


def writes(node) -> bool:
    """Whether ``node`` is a call node whose programs may write its variables."""
    return node.fn in _WRITING


def _key(objs) -> list:
    return [(o._value.shape, o._value.dtype) if type(o) is Tensor and
            type(o._value) is np.ndarray else None for o in objs]


class _Call:
    """A call node's program and where its inputs and outputs live in ``env``."""

    def __init__(self, program, env_keys, key, out_ids, variables=()):
        self.program, self.env_keys, self.key, self.out_ids = program, env_keys, key, out_ids
        self.variables = list(variables)   # the variables it reads and writes (inputs too)
        self.var_key = _var_key(self.variables)

    def same_as(self, other) -> bool:
        return self.env_keys == other.env_keys and self.key == other.key and \
            self.out_ids == other.out_ids and len(self.variables) == len(other.variables) \
            and all(a is b for a, b in zip(self.variables, other.variables)) and \
            self.var_key == other.var_key and self.program.same_as(other.program)


def _var_key(variables) -> list:
    return [(v._value.shape, v._value.dtype) if type(v._value) is np.ndarray else None
            for v in variables]


def capture(node, env, fixed_device: bool, like=None):
    """Run the call ``node`` once, captured: its _Call, or None; ``like``: the _Call this
    capture may confirm (op_capture: its kernels)."""
    env_ids = op_capture.given(env)
    stack = list(tape_lib.stack())
    before = [len(t.records) for t in stack]
    writes = node.fn in _WRITING
    cap = op_capture.Capture(fixed_device, writes=writes)
    cap.given = env_ids
    with cap.watching():
        node.run(env)
    if list(tape_lib.stack()) != stack:
        cap.refuse("the call entered or left a tape")
    if cap.retagged():
        cap.refuse("the call tagged a tensor it was given")
    out_ids = [sid for _, sid in node.out_slots]
    results = [env[sid] for sid in out_ids]
    used = cap.object_ids() + [id(t) for t in results if id(t) not in cap.live]
    env_keys = []
    for oid in used:
        if oid not in env_ids:
            cap.refuse("an input that is not a tensor of the execution")
            return cap.compile({}, ())
        if env_ids[oid] not in env_keys:
            env_keys.append(env_ids[oid])
    where = {id(env[k]): i for i, k in enumerate(env_keys)}
    variables = {}
    for entry in cap.writes or ():
        variables.setdefault(id(entry[1]), entry[1])
    for entry in cap.made:
        if entry[5] is not None:
            variables.setdefault(id(entry[5]), entry[5])
    where.update((vid, len(env_keys) + j) for j, vid in enumerate(variables))
    held = set()   # what the tapes recorded outlives the call
    for t, n in zip(stack, before):
        for rec in t.records[n:]:
            held.update(id(x) for x in rec.inputs)
            held.update(id(x) for x in rec.outputs)
    program = cap.compile(where, results, held, None if like is None else like.program)
    if program is None:
        return None
    if writes and any(c.flags.writeable for c in program.consts):
        return None   # a writable constant may be a variable's array, read before a write
    return _Call(program, env_keys, _key([env[k] for k in env_keys]), out_ids,
                 variables.values())


class CallStep(op_capture.ConfirmingStep):
    """The plan's step of a registered call node (see the module docstring)."""

    capture = staticmethod(capture)
    group = None   # a stacked_sections.Group of consecutive call steps, and its member index
    member = 0

    @property
    def nodes(self) -> list:
        return [self.node]

    def replay(self, env, call):
        if self.group is not None and self.group.replay(self, env):
            return None
        objs = [env[k] for k in call.env_keys]
        if _key(objs) != call.key or not call.program.fits() or \
                call.variables and _var_key(call.variables) != call.var_key:
            return self.node.run(env)
        slots = call.program.run(objs + call.variables if call.variables else objs)
        self.finish(env, call, slots)
        return None

    def inputs(self, env, call):
        """The program's inputs (the execution's tensors, then the variables), or None
        where it must not replay without a tape (stacked_sections)."""
        objs = self.objects(env, call)
        if tape_lib._tapes.items or _key(objs[:len(call.env_keys)]) != call.key or \
                not call.program.fits() or _var_key(call.variables) != call.var_key:
            return None
        return objs

    @staticmethod
    def objects(env, call) -> list:
        """The program's inputs, unchecked."""
        return [env[k] for k in call.env_keys] + call.variables

    @staticmethod
    def finish(env, call, slots) -> None:
        """Hand on a replay's results (``slots``) as the node's outputs."""
        for sid, slot in zip(call.out_ids, call.program.result):
            env[sid] = slots[slot]
