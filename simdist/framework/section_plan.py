"""A gradient tape's whole span in a plan, replayed as one op program (a section).

Glossary:
  section    -- the plan's steps from a tape's ``_replay_tape_enter`` node to the
                ``tape.gradient`` node that releases it (a non-persistent tape), where each
                node between is a variable read, a single op, a constant, a registered
                call (call_plan), the tape's exit, or a mark (``register_mark``: a
                stateful node that reads no tensor's value and makes none: Keras's output
                marks), and no other node of the graph names the tape. In a
                ``strategy.run`` step: a replica's forward pass, its loss and its backward
                sweep; in Keras's fit step also its loss metric's update (a writing call:
                its variables' writes are program steps).
  capture    -- the section's nodes run one by one (their ops, the sweep by the rules), as
                the plan's first execution runs them, watched by one op_capture.Capture:
                every tensor made, every op, every read of the section's variables (a
                tensor of a variable's array made without an op), every death. The first
                is the plan's build itself (``early``): its run of the section's nodes
                (the sweep's and the calls' own first captures wait for their steps' first
                runs, which only a section that does not replay makes).
  program    -- the capture compiled (op_capture.Program): reads, kernels and constants in
                order; its results are the section's outputs (every node's outputs in the
                execution's tensors). The tape is gone: entered, exited and released inside,
                it held nothing another node sees, so a replay makes no tape, no records and
                no tensors for the sweep's dying intermediates (a tape-free run) and charges
                each device its ops at once (gathered_run). Marks run after the program, on
                its outputs. Values, clocks, trace events and memory (in use and peak) equal
                the section's steps' (tests/framework/test_section_plan.py).
  confirmed  -- a program is used once a second capture (the graph's second execution)
                gave the same one (constants
                included; a constant must be a read-only array: a writable one could be a
                variable's, read without the section naming it). Until then, and wherever a
                replay's inputs differ (shape, dtype, device), a tape records, or the
                outputs would not fit, the section's own steps run (each lowered as before).
  dead       -- the section's outputs that no node outside it reads (nor its marks, nor
                the graph's outputs): they only wait in the execution's tensors for its
                end, so a stacked commit makes no tensors of them, only accounts their bytes
                (stacked_sections.Held) until then. A graph with a node of another kind or
                a custom gradient (which reads the execution's tensors by id) has none.
  enabled    -- ``disabled()`` leaves every section to its own steps (tests compare both).

Mirrors tensorflow/core/common_runtime/executor.cc as TF runs a function's gradient: the
forward and backward ops are one graph (gradients_util.py builds them with the function),
executed without a tape.
"""

from __future__ import annotations

import functools
import sys

import numpy as np

from simdist.framework import call_plan, errors, op_capture, stacked_sections
from simdist.framework import tape as tape_lib
from simdist.framework.graph_errors import at_step
from simdist.framework.switch import Switch
from simdist.framework.tensor import Tensor

_switch = Switch()
disabled = _switch.off
_MARKS: set = set()   # stateful node functions a section may hold (run after its program)
_PLAIN: set = set()   # the marks whose call is the same outside the node's device and mode
_TRIES = 3


def register_mark(fn, plain: bool = False) -> None:
    """Let nodes of ``fn`` (or of a functools.partial of it) sit in a section: a stateful
    call that reads no tensor's value and makes no tensor (it runs after the program).
    ``plain``: it reads neither the device scope nor the distribution mode, so a replay
    calls it without entering its node's (``_mark_call``)."""
    _MARKS.add(fn)
    if plain:
        _PLAIN.add(fn)


def _mark(node) -> bool:
    fn = node.fn
    return (fn.func if type(fn) is functools.partial else fn) in _MARKS


def _mark_call(node):
    """``run(env)`` of a mark node: its function called on its arguments (Node.run's, but
    without entering the node's device scope and distribution mode) where the function is
    a plain mark and its arguments a flat list (``node.layout``, no keywords); else, and in
    a dry run, ``node.run``."""
    from simdist.framework import func_graph

    fn = node.fn
    if (fn.func if type(fn) is functools.partial else fn) not in _PLAIN or \
            node.layout is None or node.layout[1] or node.out_slots:
        return node.run
    n, filled, dry = node.layout[0], node.filled, func_graph._dry

    def run(env):
        if dry.value:
            return node.run(env)
        fn(*filled(env)[:n])
    return run


def early(graph, i: int, guess: list, fixed_scope: bool, env):
    """At the plan's build, before node ``i`` runs: (its section's last index, a Watched
    capture) where ``i`` opens a section by the kinds its nodes are expected to lower to
    (``guess``), else None. The build runs the nodes inside ``hooks`` (their sweep and
    calls without captures of their own: graph_plan); ``lower`` makes that run the
    section's first capture if the section is the one guessed."""
    from simdist.framework import func_graph

    nodes = graph.nodes
    node = nodes[i]
    if not _switch.on or tape_lib._tapes.items or type(node) is not func_graph.Node or \
            node.fn is not func_graph._replay_tape_enter:
        return None
    end = _section_end(func_graph, nodes, guess, i)
    if end is None:
        return None
    fixed = fixed_scope or all(n.device is not None for n in nodes[i:end + 1])
    return end, Watched(nodes[i:end + 1], fixed, env)


def lower(graph, steps: list, kinds: list, fixed_scope: bool, captured=None) -> None:
    """Replace each section of ``graph``'s plan (``steps``, ``kinds`` per node) by a
    SectionStep at its first node and no-op steps after it (errors still name the node).
    ``captured``: {first index: (last index, _Section or None)} of the build's run."""
    from simdist.framework import func_graph

    nodes = graph.nodes
    found = []   # (first index, SectionStep)
    i = 0
    while i < len(nodes):
        node = nodes[i]
        end = None
        if type(node) is func_graph.Node and node.fn is func_graph._replay_tape_enter:
            end = _section_end(func_graph, nodes, kinds, i)
        if end is None:
            i += 1
            continue
        fixed = fixed_scope or all(n.device is not None for n in nodes[i:end + 1])
        steps[i] = SectionStep(nodes[i:end + 1], steps[i:end + 1], fixed)
        first = (captured or {}).get(i)
        if first is not None and first[0] == end:
            steps[i].take(first[1], counted=False)
        found.append((i, steps[i]))
        for k in range(i + 1, end + 1):
            steps[k] = _skip
        i = end + 1
    reads = _reads(func_graph, graph)
    for _, step in found:
        step.dead = _dead(step, reads)
    stacked_sections.group(found)


def _reads(func_graph, graph):
    """How often each tensor id of ``graph``'s executions is read by its nodes (their
    slots; the outputs and substituted arguments count too), or None where a tensor may
    be read otherwise (a node of another kind; a custom gradient, whose gradient function
    reads the execution's tensors by id)."""
    from simdist.framework import nest

    # Looked up, not imported: no node is a custom gradient's while custom_gradient is not
    # loaded, and loading it (with function_library and its protos) costs a first plan.
    # A node keeps the recorded op's own function (op_recording.recorded: __recorded_op__).
    custom = sys.modules.get("simdist.framework.custom_gradient")
    identity = object() if custom is None else custom._identity_n.__recorded_op__
    reads: dict = {}
    for node in graph.nodes:
        if type(node) is not func_graph.Node or node.fn is identity:
            return None
        for _, sid in node.slots:
            reads[sid] = reads.get(sid, 0) + 1
    for t in nest.flatten(func_graph.expand(graph.outputs)):
        if func_graph.is_symbolic(t):
            reads[t._id] = reads.get(t._id, 0) + 1
    for sid in graph.substitutes.values():
        reads[sid] = reads.get(sid, 0) + 1
    return reads


def _dead(step, reads) -> frozenset:
    """The section's outputs no other node reads (nor its marks, nor the graph's outputs):
    tensors that only wait in the execution's tensors for its end."""
    if reads is None:
        return frozenset()
    inside: dict = {}
    for node in step.nodes:
        if not _mark(node):
            for _, sid in node.slots:
                inside[sid] = inside.get(sid, 0) + 1
    return frozenset(sid for sid in step.outputs if reads.get(sid, 0) == inside.get(sid, 0))


def _skip(env) -> None:
    """A node of a section (its SectionStep ran it)."""


def _section_end(func_graph, nodes, kinds, i):
    """The index of the gradient node closing the section opened at ``i``, or None."""
    tape = nodes[i].leaves[0] if len(nodes[i].leaves) == 1 else None
    if tape is None or nodes[i].slots or getattr(tape, "_persistent", True):
        return None
    exits = 0
    for k in range(i + 1, len(nodes)):
        node, kind = nodes[k], kinds[k]
        if type(node) is not func_graph.Node:
            return None
        if node.fn is func_graph._replay_tape_exit:
            if node.leaves != (tape,) or exits:
                return None
            exits += 1
            continue
        if getattr(node.fn, "__tape_gradient__", False):
            if kind != "sweep" or not exits or not node.leaves or node.leaves[0] is not tape:
                return None
            return None if _names_elsewhere(func_graph, nodes, tape, i, k) else k
        if kind == "read":
            if node.slots:   # the variable comes from the call's arguments
                return None
            continue
        if kind in ("kernel", "call", "const") or _mark(node) and not node.out_slots:
            continue
        return None
    return None


def _names_elsewhere(func_graph, nodes, tape, first, last) -> bool:
    """Whether a node outside ``first``..``last`` has ``tape`` among its leaves (plain
    loops: a build asks this of every section, over every node of the graph)."""
    node_type = func_graph.Node
    for j, n in enumerate(nodes):
        if (j < first or j > last) and type(n) is node_type:
            for x in n.leaves:
                if x is tape:
                    return True
    return False


class SectionStep:
    """The plan step of a section (see the module docstring)."""

    def __init__(self, nodes, inner, fixed):
        self.nodes, self.inner, self.fixed = nodes, inner, fixed
        self.marks = [_mark_call(n) for n in nodes if _mark(n)]
        self.outputs = _outputs(nodes)
        self.candidate = self.program = None
        self.tries = 0
        self.group = None   # a stacked_sections.Group (set by lower) and its member index
        self.member = 0
        self.dead = frozenset()   # outputs nothing else reads (set by lower: _dead)
        self._held = (None, None)   # (the program, its dead result slots)
        self._read = (None, None, None)   # (the section, the variables it reads, their key)

    @property
    def lowered(self) -> bool:
        return self.program is not None

    def __call__(self, env):
        if not _switch.on:
            pass
        elif self.program is not None:
            if self.group is not None and self.group.replay(self, env):
                return
            if self._replay(env, self.program):
                return
        elif self.candidate is not False and not tape_lib._tapes.items:
            return self._capture(env)
        self._run_steps(env)

    def _run_steps(self, env):
        for node, step in zip(self.nodes, self.inner):
            try:
                step(env)
            except errors.OpError as e:
                raise at_step(e, node) from None

    # --- capture --------------------------------------------------------------------------
    def _capture(self, env):
        watched = Watched(self.nodes, self.fixed, env)
        with watched.hooks:
            for node in self.nodes:
                try:
                    node.run(env)
                except errors.OpError as e:
                    raise at_step(e, node) from None
        self.take(watched.section(env, self.candidate or None))

    def take(self, got, counted: bool = True) -> None:
        """A capture's _Section (or None): the candidate, or the program if it confirms
        the candidate; ``counted``: a refused capture counts toward the tries."""
        if self.candidate is not None and got is not None and self.candidate.same_as(got):
            self.program = got
            return
        if got is None and not counted:
            return
        self.candidate = got
        self.tries += 1
        if self.tries >= _TRIES:
            self.candidate = False   # the section's own steps from now on

    # --- replay ---------------------------------------------------------------------------
    def _replay(self, env, section) -> bool:
        objs = self.inputs(env, section)
        if objs is None:
            return False
        self.finish(env, section, section.program.run(objs))
        return True

    def inputs(self, env, section):
        """The program's inputs (the execution's tensors, then the variables), or None
        where it must not replay (a tape records, an input's shape or dtype changed, its
        tensors would not fit)."""
        objs = [env[k] for k in section.env_keys]
        if self._read[0] is not section:
            self._read = (section, *_read(section, section.variables))
        if tape_lib._tapes.items or _key(objs) != section.key or \
                _var_key(self._read[1]) != self._read[2] or not section.program.fits():
            return None
        return objs + section.variables

    def objects(self, env, section) -> list:
        """The program's inputs, unchecked (stacked_sections: the ones it stashed?)."""
        return [env[k] for k in section.env_keys] + section.variables

    def held_slots(self, section) -> frozenset:
        """The slots of ``section``'s results that are dead outputs only (``dead``) and
        carry no teaching tag: a stacked commit accounts their bytes without tensors."""
        program = section.program
        if self._held[0] is not program:
            live = {slot for sid, slot in zip(self.outputs, program.result)
                    if sid not in self.dead}
            live.update(slot for slot, _ in program.tags)
            self._held = (program, frozenset(program.result) - live)
        return self._held[1]

    def finish(self, env, section, slots) -> None:
        """Hand on a replay's results (``slots``) as the section's outputs; run its marks."""
        for sid, slot in zip(self.outputs, section.program.result):
            env[sid] = slots[slot]
        for run in self.marks:
            run(env)


class Watched:
    """One run of a section's nodes, captured: made before its first node runs, its
    ``hooks`` entered around the run (the plan's build runs the nodes its own way), then
    ``section(env)``: the run's _Section, or None (refused)."""

    def __init__(self, nodes, fixed, env):
        self.nodes = nodes
        self.variables = _variables(nodes)
        self.env_ids = op_capture.given(env)
        # a metric's update (a writing call, call_plan) writes its own variables: steps
        self.cap = op_capture.Capture(fixed, self.variables,
                                      writes=any(call_plan.writes(n) for n in nodes))
        self.cap.given = self.env_ids
        if len(self.cap.variables) != len(self.variables):
            self.cap.refuse("two variables share an array")
        self.hooks = self.cap.watching()

    def section(self, env, like=None):
        """The run's _Section, or None; ``like``: the _Section it may confirm (op_capture:
        its kernels)."""
        cap, env_ids, variables = self.cap, self.env_ids, self.variables
        if tape_lib._tapes.items:
            cap.refuse("a tape outlived the section")
        if cap.retagged():
            cap.refuse("the section tagged a tensor it was given")
        results = [env.get(sid) for sid in _outputs(self.nodes)]
        if any(type(t) is not Tensor for t in results):
            cap.refuse("an output that is not a tensor")
        env_keys = []
        for oid in cap.object_ids():
            if oid not in env_ids:
                cap.refuse("an input that is not a tensor of the execution")
                break
            if env_ids[oid] not in env_keys:
                env_keys.append(env_ids[oid])
        named = {id(var) for var in variables}
        for entry in cap.writes or ():   # a metric's variables, written by its update
            if id(entry[1]) not in named:
                named.add(id(entry[1]))
                variables = variables + [entry[1]]
        where = {id(env[k]): i for i, k in enumerate(env_keys)}
        where.update((id(var), len(env_keys) + j) for j, var in enumerate(variables))
        program = cap.compile(where, results if cap.refused is None else (),
                              like=None if like is None else like.program)
        if program is not None and any(c.flags.writeable for c in program.consts):
            program = None   # a writable constant may be an unnamed variable's array
        return None if program is None else _Section(
            program, env_keys, _key([env[k] for k in env_keys]), variables)


def _read(section, variables):
    """The ``variables`` ``section``'s program reads or writes, and their key at the
    capture: the others (a mirrored variable's other replicas' components: a node names
    the whole variable) are never touched by a replay, whatever their shapes."""
    used = op_capture.inputs_used(section.program)
    if used is None:
        return variables, section.var_key
    n, used = len(section.env_keys), set(used)
    read = [j for j in range(len(variables)) if n + j in used]
    return [variables[j] for j in read], [section.var_key[j] for j in read]


def _outputs(nodes) -> list:
    return [sid for n in nodes for _, sid in n.out_slots]


def _variables(nodes) -> list:
    """The plain variables ``nodes`` read (a distributed variable's components), once."""
    from simdist.framework import variables as variables_lib

    found: dict = {}
    for node in nodes:
        for leaf in node.leaves:
            for var in _components(leaf, variables_lib):
                found[id(var)] = var
    return list(found.values())


class _Section:
    """A section's program, where its inputs come from and the variables it reads or
    writes (its nodes', then those its writing calls wrote)."""

    def __init__(self, program, env_keys, key, variables):
        self.program, self.env_keys, self.key = program, env_keys, key
        self.variables, self.var_key = variables, _var_key(variables)

    def same_as(self, other) -> bool:
        return self.env_keys == other.env_keys and self.key == other.key and \
            len(self.variables) == len(other.variables) and \
            all(a is b for a, b in zip(self.variables, other.variables)) and \
            self.var_key == other.var_key and self.program.same_as(other.program)


def _key(objs) -> list:
    return [(o._value.shape, o._value.dtype) if type(o) is Tensor and
            type(o._value) is np.ndarray else None for o in objs]


def _var_key(variables) -> list:
    return [(v._value.shape, v._value.dtype) if type(v._value) is np.ndarray else None
            for v in variables]


def _components(leaf, variables_lib):
    """The plain variables ``leaf`` reads from (a distributed variable's components)."""
    if type(leaf) is variables_lib.ResourceVariable:
        return [leaf]
    values = getattr(leaf, "values", None)
    if isinstance(leaf, variables_lib.Variable) and isinstance(values, (list, tuple)):
        return [v for v in values if type(v) is variables_lib.ResourceVariable]
    return []
