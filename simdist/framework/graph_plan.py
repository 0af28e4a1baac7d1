"""The compiled execution plan of a traced graph: its nodes lowered once, then run in a loop.

Glossary:
  plan          -- a FuncGraph's nodes as a flat list of steps, built at the graph's first
                   execution (which runs every node as before while it watches them; a
                   section's nodes inside the section's first capture, section_plan) and
                   used by every later execution; ``FuncGraph.execute`` runs its steps.
  step          -- ``step(env)``: reads its inputs from the execution's tensors (``env``,
                   tensor id -> value) and writes its outputs there.
  kernel step   -- a node lowered to its kernel: the NumPy function of its op, the input
                   slots, and what the first execution showed fixed for these input
                   shapes (op type, attributes, FLOPs, device, low precision): it makes the
                   output Tensor, charges the device (``Device.run_op``: the same clock and
                   trace event) and records it on the active tapes as the op would, without
                   the op's conversion, dtype and shape checks. An input of another shape
                   than at the build (a relaxed ``None`` dimension) runs the node instead.
  read step     -- a ``ReadVariableOp`` node calls the variable's read directly (no device
                   scope, no distribution mode: a read depends on neither).
  sweep step    -- a ``tape.gradient`` node runs as a node, its backward sweep replayed as
                   kernel calls (gradient_plan: kind "sweep").
  call step     -- a registered library call (a Keras loss, ``compute_average_loss``)
                   replayed as kernel calls (call_plan: kind "call").
  const step    -- a ``tf.constant`` node of Python values runs as a node step; a section
                   (section_plan) may hold it (its capture replays the constant).
  node step     -- any other node runs as before (``Node.run``: the op's Python, its device
                   scope and distribution mode).
  plan key      -- the ``tf.device`` scope of the call: a graph keeps one plan per scope
                   (replica threads each call under their own); a new machine
                   (``reset_world``) builds them again, since they hold its devices.

Which nodes lower: ``ReadVariableOp`` (a plain variable's read), and single-op nodes of
``tf.matmul`` / ``@`` (2-D, not 16-bit), ``tf.nn.bias_add``, ``tf.nn.relu``,
``tf.sigmoid``, ``tf.tanh``, ``tf.exp``, ``tf.sqrt``, ``tf.square``, ``tf.negative``,
``tf.abs``, ``tf.maximum``, ``tf.minimum``, ``tf.math.squared_difference``, ``tf.add`` /
``+``, ``tf.subtract`` / ``-``, ``tf.multiply`` / ``*``, and (where every tensor argument
is an input of the op: no tensor axis or index) ``tf.shape``, ``tf.expand_dims``,
``tf.cast``, ``tensor[key]`` and ``tf.nn.softmax``, whose inputs are the node's own
tensors, whose kernel reproduced the first execution's value bit for bit, on the NumPy
backend. A ``tape.gradient`` node's sweep is lowered by gradient_plan, registered library
calls by call_plan. Everything else (metric updates, the optimizer, collectives, control
flow, stateful nodes) runs node by node, as before.

Results equal the node-by-node replay: the same values, clocks, trace events and memory
(tests/framework/test_graph_plan.py runs both on the same programs). Where a replay's time
still goes, and what lowering the rest needs, is in README's performance section.

Mirrors tensorflow/core/common_runtime/executor.cc (ExecutorImpl: the graph's nodes as a
flat array of NodeItems with their kernels and input slots, prepared once) and
graph_execution_state.cc (a graph optimised once per signature, then executed).
"""

from __future__ import annotations

import threading
import weakref

import numpy as np

from simdist.framework import call_plan, context, errors, execute, gradient_plan, kernels
from simdist.framework import section_plan as sections
from simdist.framework import stacked_sections as stacked
from simdist.framework import tape as tape_lib
from simdist.framework.graph_errors import at_step
from simdist.framework.op_capture import LATER
from simdist.framework.switch import Switch
from simdist.framework.tensor import Tensor
from simdist.hardware import backend, machine

_switch = Switch()
# disabled(): execute graphs node by node (no plans built or used), as before plans existed.
disabled = _switch.off
_LOWERINGS: dict = {}   # the recorded op function -> its builder (filled at first use)
_CONSTANT: list = [None]   # tf.constant's recorded function (set with _LOWERINGS)


def enabled() -> bool:
    """Whether graphs execute through their plans."""
    return _switch.on and backend.xp is np


class Plan:
    """One FuncGraph's steps, what each node became (``kinds``: "kernel", "read", "sweep",
    "call", "const" or "node", in node order) and the key (machine, device scope) they were built
    under."""

    __slots__ = ("steps", "kinds", "machine", "device")

    def __init__(self, steps, kinds, machine, device):
        self.steps = steps
        self.kinds = kinds
        self.machine = machine
        self.device = device


def describe(graph, device=None) -> list:
    """[(node name, "kernel" | "read" | "sweep" | "call" | "const" | "node")] of
    ``graph``'s plan for calls under the ``tf.device`` scope ``device`` (a Device; None: no
    scope) ([] before such a call, or with plans disabled)."""
    plan = graph._plans.get(device)
    return [] if plan is None else [(getattr(n, "name", type(n).__name__), k)
                                    for n, k in zip(graph.nodes, plan.kinds)]


def run(graph, env: dict) -> None:
    """Execute ``graph``'s nodes on ``env``: through its plan (built now if needed)."""
    if not enabled():
        node = None
        try:
            for node in graph.nodes:
                node.run(env)
        except errors.OpError as e:
            raise at_step(e, node) from None
        return
    world, device = machine.get_machine(), context.explicit_device()
    plan = graph._plans.get(device)
    if plan is not None and plan.machine() is world:
        done = 0
        try:
            for step in plan.steps:
                step(env)
                done += 1
        except errors.OpError as e:
            raise at_step(e, graph.nodes[done]) from None
        return
    if not _LOWERINGS:
        _register()
    steps: list = []
    captured: dict = {}
    try:
        with kernels.remembered():   # a section's ops are verified as nodes and captured
            kinds = _build(graph, env, device is not None, steps, captured)
    except errors.OpError as e:
        raise at_step(e, graph.nodes[len(steps)]) from None
    sections.lower(graph, steps, kinds, device is not None, captured)
    stacked.group([(i, s) for i, s in enumerate(steps) if type(s) is call_plan.CallStep])
    if graph._plans and next(iter(graph._plans.values())).machine() is not world:
        graph._plans.clear()   # plans of an earlier machine hold its devices
    graph._plans[device] = Plan(steps, kinds, weakref.ref(world), device)


# --- building -----------------------------------------------------------------------------
class _Watch:
    """The ops one node runs on this thread (execute.observers)."""

    def __init__(self):
        self.thread = threading.get_ident()
        self.ops: list = []

    def __call__(self, op_type, inputs, out, attrs, flops, dev):
        if threading.get_ident() == self.thread:
            self.ops.append((op_type, inputs, out, attrs, flops, dev))


def _build(graph, env: dict, scoped: bool, steps: list, captured: dict):
    """Run every node once (as before), lowering each that can be: the steps go to
    ``steps`` (as they are made: an error's node is the next); the kinds. A section's
    nodes run inside its first capture (section_plan.early; captures do not nest, so its
    sweep and calls are not captured on their own there): ``captured`` gets {first index:
    (last index, its _Section or None)}."""
    guess = [_guess(node) for node in graph.nodes]
    kinds: list = []
    open_ = None   # (first index, last index, Watched) of the section running
    try:
        for i, node in enumerate(graph.nodes):
            if open_ is None:
                found = sections.early(graph, i, guess, scoped, env)
                if found is not None:
                    open_ = (i, *found)
                    open_[2].hooks.__enter__()
            kinds.append(_build_node(node, env, scoped, steps, open_ is not None))
            if open_ is not None and i == open_[1]:
                first, last, watched = open_
                open_ = None
                watched.hooks.__exit__(None, None, None)
                captured[first] = (last, watched.section(env))
    finally:
        if open_ is not None:   # a node raised: the capture ends with it
            open_[2].hooks.__exit__(None, None, None)
    return kinds


def _guess(node) -> str:
    """The kind ``node`` lowers to if its lowering works (as _build_node tries them)."""
    from simdist.framework import func_graph

    if type(node) is not func_graph.Node:
        return "node"
    if getattr(node.fn, "__tape_gradient__", False):
        return "sweep"
    if node.composite:
        return "node"
    if call_plan.lowers(node):
        return "call"
    if _constant(node):
        return "const"
    lower = _LOWERINGS.get(node.fn)
    return "node" if lower is None else "read" if lower is _lower_read else "kernel"


def _build_node(node, env: dict, scoped: bool, steps: list, in_section: bool) -> str:
    """Run ``node`` once, lowering it if it can be: its step goes to ``steps``; its kind.
    ``in_section``: it runs inside a section's capture, which replays the sweep and the
    calls there; their own first captures wait for their steps' first runs (``LATER``)."""
    from simdist.framework import func_graph

    if type(node) is func_graph.Node and getattr(node.fn, "__tape_gradient__", False):
        fixed = node.device is not None or scoped
        if in_section:
            node.run(env)
            steps.append(gradient_plan.GradientStep(node, LATER, fixed))
            return "sweep"
        program = gradient_plan.capture(node, env, fixed)
        steps.append(node.run if program is None else
                     gradient_plan.GradientStep(node, program, fixed))
        return "node" if program is None else "sweep"
    if type(node) is func_graph.Node and call_plan.lowers(node) and not node.composite:
        fixed = node.device is not None or scoped
        if in_section:
            node.run(env)
            steps.append(call_plan.CallStep(node, LATER, fixed))
            return "call"
        call = call_plan.capture(node, env, fixed)
        steps.append(node.run if call is None else call_plan.CallStep(node, call, fixed))
        return "node" if call is None else "call"
    if type(node) is func_graph.Node and _constant(node):
        node.run(env)
        steps.append(node.run)
        return "const"
    lower = None
    if type(node) is func_graph.Node and not node.composite:
        lower = _LOWERINGS.get(node.fn)
    if lower is None:
        node.run(env)
        steps.append(node.run)
        return "node"
    args = _arguments(node, env)
    watch = _Watch()
    execute.observers.append(watch)
    try:
        node.run(env)
    finally:
        execute.observers.remove(watch)
    step = lower(node, args, env, watch.ops, scoped)
    steps.append(node.run if step is None else step)
    return "node" if step is None else "read" if lower is _lower_read else "kernel"


def _constant(node) -> bool:
    """Whether ``node`` is a ``tf.constant`` of Python values (no tensor argument)."""
    return node.fn is _CONSTANT[0] and not node.slots and not node.composite


def _arguments(node, env):
    """The leaves ``node`` is called with: [(slot id or None, value)]."""
    slots = dict(node.slots)
    return [(slots[i], env[slots[i]]) if i in slots else (None, leaf)
            for i, leaf in enumerate(node.leaves)]


def _source(args, t):
    """Where input ``t`` of the op comes from: (slot id, None) or (None, the constant), or
    None when it is not one of the node's arguments (made inside the op)."""
    for sid, value in args:
        if value is t:
            return sid, (None if sid is not None else value)
    return None


# --- lowerings (the recorded op function -> builder) ---------------------------------------
def _lower_read(node, args, env, ops, scoped):
    """A variable read: the read itself, without the node's scopes."""
    from simdist.framework import variables

    if ops or len(args) != 1 or len(node.out_slots) != 1:
        return None
    sid, var = args[0]
    plain = variables.ResourceVariable
    free = node.mode is None and node.device is None
    if type(var) is not plain or var._distribute_strategy is None and not free:
        return None   # the teaching check of a read may look at the context
    read, out, run_node = node.fn, node.out_slots[0][1], node.run
    if sid is None:
        def step(env):
            env[out] = read(var)
    else:
        def step(env):   # a variable argument: this call's may be of another kind
            v = env[sid]
            if type(v) is plain and (free or v._distribute_strategy is not None):
                env[out] = read(v)
            else:
                run_node(env)
    return step


def _kernel_step(node, args, env, ops, scoped):
    """A single-op node as a kernel step (see the module docstring), or None."""
    if len(ops) != 1 or len(node.out_slots) != 1 or node.out_slots[0][0] != 0:
        return None
    op_type, inputs, out, attrs, flops, dev = ops[0]
    out_id = node.out_slots[0][1]
    if env.get(out_id) is not out or not isinstance(out, Tensor):
        return None
    sources = [_source(args, t) for t in inputs]
    if any(s is None for s in sources) or not all(isinstance(t, Tensor) for t in inputs):
        return None
    values = [t._value for t in inputs]
    kernel = kernels.verified(op_type, attrs, values, out._value)
    if kernel is None:
        return None
    shapes = tuple(v.shape for v in values)
    out_bytes = out._nbytes
    # The device: a tf.device scope's (the node's or the call's) is fixed; else placement
    # follows the first input, as execute.placement does.
    fixed = dev if (node.device is not None or scoped) else None
    if fixed is None and inputs[0]._device is not dev:
        return None
    size = out._value.size if flops is None else flops
    low = execute.low_precision(out._value.dtype)
    run_node = node.run
    scratch, log = execute._scratch, execute._log_placement
    tapes = tape_lib._tapes

    def step(env):
        xs = [env[s] if s is not None else c for s, c in sources]
        vals = [x._value for x in xs]
        d = fixed if fixed is not None else xs[0]._device
        if tuple(v.shape for v in vals) != shapes or \
                d.memory_in_use + out_bytes > d.memory_limit:
            return run_node(env)   # another shape, or the op's own OOM error to raise
        t = Tensor(kernel(*vals), d)
        if log[0]:
            execute._log(op_type, d)
        if (d.trace.enabled or d.spec.launch_s != 0) and not scratch.value:
            nbytes = t._nbytes
            for x in xs:
                nbytes += x._nbytes
            d.run_op(op_type, size, nbytes, low)
        if tapes.items:
            tape_lib.record(op_type, xs, (t,), attrs)
        env[out_id] = t

    return step


def _inputs_only_kernel_step(node, args, env, ops, scoped):
    """A kernel step (``_kernel_step``) of a node whose every tensor argument is an input of
    its op, or None."""
    if len(ops) != 1:
        return None
    inputs = {id(t) for t in ops[0][1]}
    if any(sid is not None and id(value) not in inputs for sid, value in args):
        return None
    return _kernel_step(node, args, env, ops, scoped)


def _register() -> None:
    from simdist.framework import variables
    from simdist.framework.ops import array_ops, math_ops, nn_ops, overloads

    kernels.ensure_installed()
    _CONSTANT[0] = array_ops.constant.__recorded_op__
    _LOWERINGS[variables.Variable._read.__recorded_op__] = _lower_read
    ops = [nn_ops.bias_add, nn_ops.relu, math_ops.sigmoid, math_ops.tanh, math_ops.exp,
           math_ops.sqrt, math_ops.square, math_ops.negative, math_ops.abs,
           math_ops.maximum, math_ops.minimum, math_ops.squared_difference]
    for name, op in {"add": math_ops.add, "sub": math_ops.subtract,
                     "mul": math_ops.multiply, "matmul": math_ops.matmul}.items():
        ops += [op, getattr(Tensor, f"__{name}__"), getattr(Tensor, f"__r{name}__")]
    for op in ops:   # tf.add and x + y, y + x alike
        _LOWERINGS[getattr(op, "__recorded_op__", op)] = _kernel_step
    # ops whose other arguments (an axis, a key, a dtype) fix the kernel: lowered only where
    # every tensor argument is an input of the op (never a tensor axis or index)
    for op in (array_ops.shape, array_ops.expand_dims, array_ops.cast,
               overloads._strided_slice, nn_ops.softmax):
        _LOWERINGS[getattr(op, "__recorded_op__", op)] = _inputs_only_kernel_step
