"""A traced library call (a Keras loss, ``compute_average_loss``) replayed as kernel calls.

Glossary:
  call node  -- a node that records a library entry point whole (``record_methods``,
                ``record_module_ops``): at each execution its Python runs again. Those
                registered here (``register``) are calls whose ops depend on the shapes,
                dtypes and the distribution mode of their inputs only -- no variable
                reads or writes, no collectives, no value-dependent Python.
  capture    -- one run of the node, watched (op_capture): its ops, the tensors it makes,
                when they die, what it returns and what the tapes recorded; refused where
                Python read a value, or the run charged or allocated other than through its
                ops, or an op has no kernel.
  inputs     -- the execution's tensors (``env``) its ops read: its arguments, and tensors
                reached through them (the logits Keras keeps on a sigmoid's output).
  CallStep   -- the plan's step: the node's program (op_capture.Program) once a later
                capture confirmed it, used while its inputs have the captured shapes and
                dtypes and its tensors fit memory; else the node runs. A call that enters
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


def register(fn) -> None:
    """Let nodes of the recorded ``fn`` lower (see the module docstring for which may)."""
    _CALLS.add(getattr(fn, "__recorded_op__", fn))


def lowers(node) -> bool:
    """Whether ``node`` is a call node that may lower."""
    return node.fn in _CALLS


def _key(objs) -> list:
    return [(o._value.shape, o._value.dtype) if type(o) is Tensor and
            type(o._value) is np.ndarray else None for o in objs]


class _Call:
    """A call node's program and where its inputs and outputs live in ``env``."""

    def __init__(self, program, env_keys, key, out_ids):
        self.program, self.env_keys, self.key, self.out_ids = program, env_keys, key, out_ids

    def same_as(self, other) -> bool:
        return self.env_keys == other.env_keys and self.key == other.key and \
            self.out_ids == other.out_ids and self.program.same_as(other.program)


def capture(node, env, fixed_device: bool):
    """Run the call ``node`` once, captured: its _Call, or None."""
    env_ids = {id(v): k for k, v in env.items() if type(v) is Tensor}
    tags = [(v, getattr(v, "_teach_tag", None)) for v in env.values() if type(v) is Tensor]
    stack = list(tape_lib.stack())
    before = [len(t.records) for t in stack]
    cap = op_capture.Capture(fixed_device)
    with cap.watching():
        node.run(env)
    if list(tape_lib.stack()) != stack:
        cap.refuse("the call entered or left a tape")
    if any(getattr(v, "_teach_tag", None) != tag for v, tag in tags):
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
    held = set()   # what the tapes recorded outlives the call
    for t, n in zip(stack, before):
        for rec in t.records[n:]:
            held.update(id(x) for x in rec.inputs)
            held.update(id(x) for x in rec.outputs)
    program = cap.compile(where, results, held)
    if program is None:
        return None
    return _Call(program, env_keys, _key([env[k] for k in env_keys]), out_ids)


class CallStep(op_capture.ConfirmingStep):
    """The plan's step of a registered call node (see the module docstring)."""

    capture = staticmethod(capture)

    def replay(self, env, call):
        objs = [env[k] for k in call.env_keys]
        if _key(objs) != call.key or not call.program.fits():
            return self.node.run(env)
        slots = call.program.run(objs)
        for sid, slot in zip(call.out_ids, call.program.result):
            env[sid] = slots[slot]
