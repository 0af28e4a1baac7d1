"""The compiled execution plan of a traced graph: its nodes lowered once, then run in a loop.

Glossary:
  plan          -- a FuncGraph's nodes as a flat list of steps, built at the graph's first
                   execution (which runs every node as before while it watches them) and
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
  node step     -- any other node runs as before (``Node.run``: the op's Python, its device
                   scope and distribution mode).
  plan key      -- the ``tf.device`` scope of the call: a graph keeps one plan per scope
                   (replica threads each call under their own); a new machine
                   (``reset_world``) builds them again, since they hold its devices.

Which nodes lower: ``ReadVariableOp`` (a plain variable's read), and single-op nodes of
``tf.matmul`` / ``@`` (2-D, not 16-bit), ``tf.nn.bias_add``, ``tf.nn.relu``,
``tf.sigmoid``, ``tf.tanh``, ``tf.exp``, ``tf.sqrt``, ``tf.square``, ``tf.negative``,
``tf.abs``, ``tf.maximum``, ``tf.minimum``, ``tf.math.squared_difference``, ``tf.add`` /
``+``, ``tf.subtract`` / ``-``, ``tf.multiply`` / ``*`` whose inputs are the node's own
tensors, whose kernel reproduced the first execution's value bit for bit, on the NumPy
backend. Everything else (Keras's whole-call nodes, the tape's gradients,
collectives, control flow, stateful nodes) runs node by node, as before; the backward
pass still runs on the tape.

Results equal the node-by-node replay: the same values, clocks, trace events and memory
(tests/framework/test_graph_plan.py runs both on the same programs). Where a replay's time
still goes, and what lowering the rest needs, is in README's performance section.

Mirrors tensorflow/core/common_runtime/executor.cc (ExecutorImpl: the graph's nodes as a
flat array of NodeItems with their kernels and input slots, prepared once) and
graph_execution_state.cc (a graph optimised once per signature, then executed).
"""

from __future__ import annotations

import contextlib
import threading
import warnings
import weakref

import numpy as np

from simdist.framework import context, execute
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend

_enabled = [True]
_LOWERINGS: dict = {}   # the recorded op function -> its builder (filled at first use)


@contextlib.contextmanager
def disabled():
    """Execute graphs node by node (no plans built or used), as before plans existed."""
    saved = _enabled[0]
    _enabled[0] = False
    try:
        yield
    finally:
        _enabled[0] = saved


def enabled() -> bool:
    """Whether graphs execute through their plans."""
    return _enabled[0] and backend.xp is np


class Plan:
    """One FuncGraph's steps, what each node became (``kinds``: "kernel", "read" or
    "node", in node order) and the key (machine, device scope) they were built under."""

    __slots__ = ("steps", "kinds", "machine", "device")

    def __init__(self, steps, kinds, machine, device):
        self.steps = steps
        self.kinds = kinds
        self.machine = machine
        self.device = device


def describe(graph, device=None) -> list:
    """[(node name, "kernel" | "read" | "node")] of ``graph``'s plan for calls under the
    ``tf.device`` scope ``device`` (a Device; None: no scope) ([] before such a call, or
    with plans disabled)."""
    plan = graph._plans.get(device)
    return [] if plan is None else [(getattr(n, "name", type(n).__name__), k)
                                    for n, k in zip(graph.nodes, plan.kinds)]


def run(graph, env: dict) -> None:
    """Execute ``graph``'s nodes on ``env``: through its plan (built now if needed)."""
    if not enabled():
        for node in graph.nodes:
            node.run(env)
        return
    from simdist.hardware import machine

    world, device = machine.get_machine(), context.explicit_device()
    plan = graph._plans.get(device)
    if plan is not None and plan.machine() is world:
        for step in plan.steps:
            step(env)
        return
    if not _LOWERINGS:
        _register()
    steps, kinds = _build(graph, env, device is not None)
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


def _build(graph, env: dict, scoped: bool):
    """Run every node once (as before), lowering each that can be; (steps, kinds)."""
    from simdist.framework import func_graph

    steps, kinds = [], []
    for node in graph.nodes:
        lower = None
        if type(node) is func_graph.Node and not node.composite:
            lower = _LOWERINGS.get(node.fn)
        if lower is None:
            node.run(env)
            steps.append(node.run)
            kinds.append("node")
            continue
        args = _arguments(node, env)
        watch = _Watch()
        execute.observers.append(watch)
        try:
            node.run(env)
        finally:
            execute.observers.remove(watch)
        step = lower(node, args, env, watch.ops, scoped)
        steps.append(node.run if step is None else step)
        kinds.append("node" if step is None else
                     "read" if lower is _lower_read else "kernel")
    return steps, kinds


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


def _kernel_step(node, args, env, ops, scoped, kernel_for):
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
    if not all(type(v) is np.ndarray for v in values):
        return None
    kernel = kernel_for(op_type, attrs, values)
    if kernel is None:
        return None
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")   # the node's run warned already, if it did
        again = kernel(*values)
    if type(again) is not np.ndarray or again.dtype != out._value.dtype or \
            again.shape != out._value.shape or again.tobytes() != out._value.tobytes():
        return None
    shapes = tuple(v.shape for v in values)
    out_bytes = out._nbytes
    # The device: a tf.device scope's (the node's or the call's) is fixed; else placement
    # follows the first input, as execute.placement does.
    fixed = dev if (node.device is not None or scoped) else None
    if fixed is None and inputs[0]._device is not dev:
        return None
    size = out._value.size if flops is None else flops
    low = out._value.dtype in execute._LOW_PRECISION
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


def _quiet(fn):
    """``fn`` under ``np.errstate(all="ignore")``, as the ops that compute so run it."""
    def kernel(*values):
        with np.errstate(all="ignore"):
            return fn(*values)
    return kernel


def _matmul(op_type, attrs, values):
    a, b = values
    if op_type != "MatMul" or a.ndim != 2 or b.ndim != 2 or a.dtype.itemsize == 2:
        return None
    ta, tb = attrs["transpose_a"], attrs["transpose_b"]
    mt = array_api.matrix_transpose
    return _quiet(lambda x, y: np.matmul(mt(x) if ta else x, mt(y) if tb else y))


def _bias_add(op_type, attrs, values):
    v, b = values
    if op_type != "BiasAdd" or b.ndim != 1:
        return None
    shape = [1] * v.ndim
    shape[attrs["axis"]] = b.shape[0]
    shape = tuple(shape)
    return lambda x, y: x + np.reshape(y, shape)


def _same_dtype(fn):
    """``fn``'s result in its first input's dtype (as the ops cast it back)."""
    def kernel(x, *rest):
        value = fn(x, *rest)
        return value if value.dtype == x.dtype else value.astype(x.dtype, copy=False)
    return kernel


def _sigmoid(a):
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e))


def _elementwise(expected, fn, quiet=True):
    """Element-wise ops: ``fn`` cast back to the first input's dtype, under errstate as
    math_ops' ``_unary`` / ``_binary`` run it (``relu`` runs without)."""
    kernel = _quiet(_same_dtype(fn)) if quiet else _same_dtype(fn)

    def kernel_for(op_type, attrs, values):
        if op_type != expected or any(v.dtype.kind in "OUSb" for v in values):
            return None
        return kernel
    return kernel_for


def _register() -> None:
    from simdist.framework import variables
    from simdist.framework.ops import math_ops, nn_ops

    def kernel_lowering(kernel_for):
        return lambda node, args, env, ops, scoped: _kernel_step(node, args, env, ops,
                                                                 scoped, kernel_for)

    _LOWERINGS[variables.Variable._read.__recorded_op__] = _lower_read
    binary = {"add": (math_ops.add, _elementwise("AddV2", lambda a, b: a + b)),
              "sub": (math_ops.subtract, _elementwise("Sub", lambda a, b: a - b)),
              "mul": (math_ops.multiply, _elementwise("Mul", lambda a, b: a * b)),
              "matmul": (math_ops.matmul, _matmul)}
    ops = [(nn_ops.bias_add, _bias_add),
           (nn_ops.relu, _elementwise("Relu", lambda a: np.maximum(a, 0), quiet=False)),
           (math_ops.sigmoid, _elementwise("Sigmoid", _sigmoid)),
           (math_ops.tanh, _elementwise("Tanh", np.tanh)),
           (math_ops.exp, _elementwise("Exp", np.exp)),
           (math_ops.sqrt, _elementwise("Sqrt", np.sqrt)),
           (math_ops.square, _elementwise("Square", lambda a: a * a)),
           (math_ops.negative, _elementwise("Neg", lambda a: -a)),
           (math_ops.abs, _elementwise("Abs", np.abs)),
           (math_ops.maximum, _elementwise("Maximum", np.maximum)),
           (math_ops.minimum, _elementwise("Minimum", np.minimum)),
           (math_ops.squared_difference,
            _elementwise("SquaredDifference", lambda a, b: (a - b) * (a - b)))]
    for name, (op, kernel_for) in binary.items():   # tf.add and x + y, y + x alike
        ops += [(op, kernel_for), (getattr(Tensor, f"__{name}__"), kernel_for),
                (getattr(Tensor, f"__r{name}__"), kernel_for)]
    for op, kernel_for in ops:
        _LOWERINGS[getattr(op, "__recorded_op__", op)] = kernel_lowering(kernel_for)

