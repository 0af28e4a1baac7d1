"""``tf.cond`` and ``tf.while_loop`` in a graph being traced (what AutoGraph lowers to).

Glossary:
  branch      -- a function traced once into its own list of nodes (a sub-graph): both
                 of a cond's branches are traced (their Python runs once each), and the one
                 the predicate picks runs at each execution.
  loop vars   -- a while_loop's state: symbolic placeholders the condition and the body are
                 traced on once; at execution the body's nodes run while the condition's
                 result is True (at most ``maximum_iterations`` times).
  invariants  -- a loop var keeps its dtype and structure, and its shape unless
                 ``shape_invariants`` relaxes it (TF's errors otherwise, recorded texts).
  outputs     -- new symbolic tensors (``cond/Identity:0``, ``while:2``), the most
                 specific shape both branches / every iteration share.
  gradients   -- a tape inside the function records, while tracing, an ``Identity`` from
                 each branch output to the cond's output (from each loop var into the body's
                 placeholder, and from the body's result and the entering value to the
                 loop's output): the traced gradient then knows which sources the control
                 flow connects and their shapes. At execution the branch taken / the
                 iterations run are ops the replay tape records, so the gradient is the taken
                 branch's and goes back through the iterations run (TF's _IfGrad /
                 _WhileGrad); a source only the other branch (or no iteration) reached gets
                 zeros, as TF's graph gives (``func_graph.record_tape_gradient``).
  flow types   -- values that are not tensors but ride on one (a TensorArray on its TensorList
                 ``flow``, ``register_flow_type``): a loop or cond carries the flow and
                 gives back a value rebuilt around the new flow (TF's while_v2 / cond_v2
                 ``_tensor_array_to_flow`` and ``build_ta_with_new_flow``). A variant loop
                 var's placeholders are the entering list's, and the loop's output's those
                 of the list one traced iteration wrote, so what reads it after the loop sees
                 the elements' shapes (and, while tracing, their tape links).

Mirrors tensorflow/python/ops/cond_v2.py, while_v2.py and control_flow_grad.py.
"""

from __future__ import annotations

import contextlib
import itertools

from simdist.framework import dtypes, errors, func_graph, graph_errors, nest
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor
from simdist.framework.thread_local import ThreadLocalValue

_bodies = ThreadLocalValue(0)   # control-flow bodies this thread is tracing (nested)


def bodies() -> int:
    """How many cond branches / loop bodies (each TF's own FuncGraph) this thread is
    tracing inside: merge_call asks (TF refuses it in a graph other than the caller's)."""
    return _bodies.value

def innermost_body(graph):
    """The innermost cond branch or loop body being traced in ``graph`` (an identity: TF's
    FuncGraph of its own, where Keras's per-graph caches start empty), or None: ``graph``
    itself (or no graph)."""
    bodies_open = getattr(graph, "open_bodies", None)
    return bodies_open[-1] if bodies_open else None


_FLOW_TYPES: list = []   # [(class, to_flow(value), with_flow(value, flow))]


def register_flow_type(cls, to_flow, with_flow) -> None:
    """Carry instances of ``cls`` through loops and conds as ``to_flow(x)`` (a tensor),
    rebuilt after as ``with_flow(x, new_flow)``."""
    _FLOW_TYPES.append((cls, to_flow, with_flow))


def _flow_entry(x):
    for entry in _FLOW_TYPES:
        if isinstance(x, entry[0]):
            return entry
    return None


def to_flows(structure):
    """``structure`` with each flow-type value replaced by its flow tensor."""
    if not _FLOW_TYPES:
        return structure
    flat = nest.flatten(structure)
    entries = [_flow_entry(x) for x in flat]
    if not any(entries):
        return structure
    return nest.pack_sequence_as(structure, [x if e is None else e[1](x)
                                             for x, e in zip(flat, entries)])


def with_flows(template, structure):
    """``structure`` (flows where ``template`` has flow-type values) with those values
    rebuilt around their new flows."""
    if not _FLOW_TYPES:
        return structure
    t_flat, flat = nest.flatten(template), nest.flatten(structure)
    if len(t_flat) != len(flat):
        return structure
    entries = [_flow_entry(x) for x in t_flat]
    if not any(entries):
        return structure
    return nest.pack_sequence_as(structure, [x if e is None else e[2](t, x)
                                             for t, x, e in zip(t_flat, flat, entries)])


def _link(sources, outputs) -> None:
    """Record ``Identity`` from each of ``sources`` to the output beside it on the tapes of
    the trace (so a gradient traced later flows through the control flow)."""
    if tape_lib.active():
        for x, o in zip(sources, outputs):
            if x is not None and o is not None:
                tape_lib.record("Identity", (x,), (o,))


def _as_symbolic(graph, x):
    """A branch or loop output as a symbolic tensor of the graph (constants become nodes)."""
    from simdist.framework import func_graph
    from simdist.framework.ops import array_ops

    if func_graph.is_symbolic(x):
        return x
    return array_ops.identity(x) if isinstance(x, Tensor) else array_ops.constant(x)


_body_ids = itertools.count(1)


def _body_name(base: str, part: str) -> str:
    """TF's FuncGraph name of a cond branch or a loop's condition / body, without its uid
    (``while_body``, ``outer_while_1_cond``, ``cond_1_true``: cond_v2 / while_v2's
    util.unique_fn_name of the op's name scope)."""
    return f"{base}_{part}".replace("/", "_")


_named = ThreadLocalValue(None)   # (graph name, placeholder names) for the next body


@contextlib.contextmanager
def named_body(graph_name: str, placeholders=None):
    """The next cond / while_loop this thread traces is, in TF, a tf.data function (a
    dataset fold: data.traced_reduce): its branches or condition and body are the graph
    ``graph_name`` (no uid: ``Dataset_scan_scan_body``, ``reduce_fn``), their ops named
    without a scope in a namespace of their own (``mul``), a loop's placeholders
    ``placeholders`` (``args_0``); the conds and loops inside are named as usual."""
    with _named.scope((graph_name, placeholders)):
        yield


def _take_named():
    named = _named.value
    _named.value = None
    return named


def _closing(graph, kind: str, uid=True):
    """A body of ``kind`` (TF's FuncGraph name: ``cond_true``, ``while_body`` ...) opened for
    tracing; call the result with its nodes and arguments to close it: their tensors are
    then out of scope for every later op (InaccessibleTensorError)."""
    body = (f"{kind}_{next(_body_ids)}" if uid else kind, id(object()))
    graph.open_bodies.append(body)

    def close(nodes, args=()):
        graph.open_bodies.remove(body)
        for node in func_graph._walk(nodes):
            for _, tid in getattr(node, "out_slots", ()):
                graph.closed[tid] = (*body, getattr(node, "frames", ()))
        for t in nest.flatten(args):   # its placeholders: defined where it was called
            if func_graph.is_symbolic(t) and t._graph is graph:
                graph.closed.setdefault(t._id, (*body, graph_errors.defining_frames()))

    return close


def _trace_into(graph, fn, args=(), scope=None, kind="body", closes=(), named=None):
    """Trace ``fn(*args)`` into a fresh node list; (nodes, outputs as symbolic tensors).
    ``scope``: the op's name (``cond/``, ``while/``): TF builds a branch or a loop body as
    a graph of its own inside that name scope, so its ops are ``cond/mul`` and their names
    are unique within it only (both branches may have a ``cond/mul``). ``named``: a
    tf.data function's (``named_body``): no scope, names of its own, ``kind`` its name."""
    outer = graph.nodes
    graph.nodes = []
    names = dict(graph._names) if scope or named else None
    if named:
        scope, kind = None, named[0]
        graph._names = {}
    close = _closing(graph, kind, uid=not named)
    _bodies.value += 1
    try:
        with graph.name_scope(scope) if scope else contextlib.nullcontext():
            out = to_flows(fn(*args))
            out = nest.map_structure(
                lambda x: x if x is None else _as_symbolic(graph, x), out)
        return graph.nodes, out
    finally:
        _bodies.value -= 1
        close(graph.nodes, closes)
        graph.nodes = outer
        if names is not None:
            graph._names = names


def scratch(graph, fn):
    """Run ``fn()`` tracing into a node list that is then dropped (TF's temporary
    ``FuncGraph('tmp')``: AutoGraph stages a loop body there to learn its variables' types)."""
    outer = graph.nodes
    graph.nodes = []
    close = _closing(graph, "tmp")
    _bodies.value += 1
    try:
        return fn()
    finally:
        _bodies.value -= 1
        close(graph.nodes)
        graph.nodes = outer


def _subgraph_randomness(holder, index):
    """The random state a body's or branch's ops draw from (``holder.randomness[index]``,
    made on first use): TF builds it as a graph of its own (op seeds counted from 0, one
    kernel per op for every iteration and call); a dry run's is thrown away."""
    from simdist.framework.ops import random_ops

    if func_graph.in_dry_run():
        return random_ops.subgraph_scope(random_ops.FunctionRandomState())
    if holder.randomness is None:
        holder.randomness = {}
    state = holder.randomness.get(index)
    if state is None:
        state = holder.randomness[index] = random_ops.FunctionRandomState()
    return random_ops.subgraph_scope(state)


class CondNode:
    """A recorded cond: the predicate's tensor, both branches' nodes and outputs."""

    __slots__ = ("pred", "branches", "outputs", "name", "randomness")

    def __init__(self, pred, branches, outputs, name):
        self.pred, self.branches, self.outputs, self.name = pred, branches, outputs, name
        self.randomness = None   # each branch's random state (see _subgraph_randomness)

    def run(self, env: dict) -> None:
        branch = 0 if bool(env[self.pred]) else 1
        nodes, results = self.branches[branch]
        with _subgraph_randomness(self, branch):
            for node in nodes:
                node.run(env)
        for out_id, res in zip(self.outputs, results):
            env[out_id] = env[res]


def cond(graph, pred, true_fn, false_fn, name=None):
    """``tf.cond`` on a symbolic predicate: both branches traced, one run per execution.

    Raises:
      AssertionError / TypeError: branches returning different numbers / dtypes of values
        (TF 2.21's types and texts).
    """
    from simdist.framework import func_graph

    named = _take_named()
    base = graph.unique_name(graph.scope + (name or "cond"))
    returned = []
    true_nodes, true_out = _trace_into(graph, lambda: _kept(returned, true_fn()), (),
                                       base + "/", _body_name(base, "true"), named=named)
    false_nodes, false_out = _trace_into(graph, false_fn, (), base + "/",
                                         _body_name(base, "false"), named=named)
    t_flat, f_flat = nest.flatten(true_out), nest.flatten(false_out)
    if len(t_flat) != len(f_flat):
        raise AssertionError(f"[{len(t_flat)}, {len(f_flat)}]")
    for i, (a, b) in enumerate(zip(t_flat, f_flat)):
        if (a is None) != (b is None) or (a is not None and a.dtype != b.dtype):
            ident = f"{base}/Identity{'' if i == 0 else f'_{i}'}:0"
            ta = f'Tensor("{ident}", shape={a.shape}, dtype={a.dtype.name})'
            tb = f'Tensor("{ident}", shape={b.shape}, dtype={b.dtype.name})'
            raise TypeError(
                "true_fn and false_fn arguments to tf.cond must have the same number, type, "
                "and overall structure of return values.\n\n"
                f"true_fn output: {ta}\nfalse_fn output: {tb}\n\nError details:\n"
                f"{ta} and {tb} have different types")
    outs, out_ids = [], []
    for i, (a, b) in enumerate(zip(t_flat, f_flat)):
        if a is None:
            outs.append(None)
            continue
        shape = a.shape.most_specific_compatible_shape(b.shape)
        o = func_graph.SymbolicTensor(
            graph, f"{base}/Identity{'' if i == 0 else f'_{i}'}:0", shape, a.dtype,
            a._device, a._placeholders)
        outs.append(o)
        out_ids.append(o._id)
        graph.tensor_specs[o._id] = (o._name, o._dtype, o._static_shape)   # (listings)
    _link(t_flat, outs)
    _link(f_flat, outs)
    t_ids = [a._id for a in t_flat if a is not None]
    f_ids = [b._id for b in f_flat if b is not None]
    graph.nodes.append(CondNode(pred._id, ((true_nodes, t_ids), (false_nodes, f_ids)),
                                out_ids, base))
    return with_flows(returned[0], nest.pack_sequence_as(true_out, outs))


def _kept(box: list, value):
    box.append(value)
    return value


class WhileNode:
    """A recorded while_loop: the loop vars' placeholders, condition and body nodes."""

    __slots__ = ("inputs", "places", "cond", "pred", "body", "results", "outputs",
                 "max_iters", "name", "randomness")

    def __init__(self, **kw):
        self.randomness = None   # the body's random state (see _subgraph_randomness)
        for k, v in kw.items():
            setattr(self, k, v)

    def run(self, env: dict) -> None:
        values = [env[i] for i in self.inputs]
        limit = self.max_iters
        if limit is not None and not isinstance(limit, int):
            limit = int(env[limit._id]) if hasattr(limit, "_id") and limit._id in env \
                else int(limit)
        if func_graph.in_dry_run():   # for a caller's shapes: the body once at most
            limit = 1 if limit is None else min(limit, 1)
        n = 0
        while limit is None or n < limit:
            for pid, v in zip(self.places, values):
                env[pid] = v
            for node in self.cond:
                node.run(env)
            if not bool(env[self.pred]):
                break
            with _subgraph_randomness(self, 0):
                for node in self.body:
                    node.run(env)
            values = [env[r] for r in self.results]
            n += 1
        for out_id, v in zip(self.outputs, values):
            env[out_id] = v


def is_subshape(shape, invariant) -> bool:
    """TF's _ShapeLessThanOrEqual: ``shape`` fits ``invariant`` (each known size equal)."""
    if invariant.rank is None:
        return True
    if shape.rank != invariant.rank:
        return False
    return all(b is None or a == b for a, b in zip(shape.as_list(), invariant.as_list()))


def while_loop(graph, cond_fn, body, loop_vars, shape_invariants=None,
               maximum_iterations=None, name=None):
    """``tf.while_loop`` in a traced function: condition and body traced once on symbolic
    loop vars; the loop runs at each execution.

    Raises:
      ValueError: the body returns another structure, or a shape the invariants do not
        allow; TypeError: a loop var changes dtype; InvalidArgumentError: a non-bool
        condition (TF 2.21's types and texts).
    """
    from simdist.framework import func_graph
    from simdist.framework.tensor_shape import TensorShape

    named = _take_named()
    base = graph.unique_name(graph.scope + (name or "while"))
    template, loop_vars = loop_vars, to_flows(loop_vars)
    structure = loop_vars
    entering = [_as_symbolic(graph, x) for x in nest.flatten(loop_vars)]
    invariants = (nest.flatten(shape_invariants) if shape_invariants is not None
                  else [None] * len(entering))
    places = []
    for k, (x, inv) in enumerate(zip(entering, invariants)):
        shape = x.shape if inv is None else TensorShape(inv)
        if named and named[1]:   # a tf.data function's arguments (args_0, ...)
            place = graph.symbolic_like(shape, x.dtype, x._device, named[1][k])
        else:
            with graph.name_scope(base + "/"):   # TF's body and condition graphs' inputs
                place = graph.symbolic_like(shape, x.dtype, x._device, "Placeholder")
        if x.dtype == dtypes.variant:   # a TensorList: the entering list's elements
            place._placeholders = x._placeholders
        places.append(place)
    _link(entering, places)
    packed = with_flows(template, nest.pack_sequence_as(structure, places))
    args = packed if isinstance(packed, (list, tuple)) else (packed,)
    cond_nodes, pred = _trace_into(graph, cond_fn, args, base + "/", _body_name(base, "cond"),
                                   named=named)
    if not pred.dtype.is_bool:
        raise errors.InvalidArgumentError(
            None, None, f"Input 'input' passed {pred.dtype.name} expected bool while building "
            f"NodeDef '{base}/LoopCond' using Op<name=LoopCond; signature=input:bool -> "
            "output:bool>")
    # flows: flow-type values; the loop's placeholders are the body's (out of scope after)
    body_nodes, new = _trace_into(graph, body, args, base + "/", _body_name(base, "body"),
                                  places, named=named)
    if not isinstance(new, (list, tuple)) and isinstance(structure, (list, tuple)) \
            and len(structure) == 1:
        new = type(structure)([new])
    new_flat = nest.flatten(new)
    if len(new_flat) != len(entering):
        raise ValueError(
            "The two structures don't have the same nested structure.\n\n"
            f"First structure: type={type(new).__name__} str={new}\n\n"
            f"Second structure: type={type(structure).__name__} str={structure}\n\n"
            "More specifically: The two structures don't have the same number of elements.")
    for x, p, y in zip(entering, places, new_flat):
        if y.dtype != x.dtype:
            raise TypeError(
                f"Loop var {x.name} enters the loop with type <dtype: '{x.dtype.name}'> but has "
                f"type <dtype: '{y.dtype.name}'> after 1 iteration. {x.name} type should "
                "remain constant.")
        if not is_subshape(y.shape, p.shape):
            raise ValueError(
                f"Input tensor `{x.name}` enters the loop with shape {x.shape}, but has shape "
                f"{y.shape} after one iteration. To allow the shape to vary across "
                "iterations, use the `shape_invariants` argument of tf.while_loop to "
                "specify a less-specific shape.")
    outs = [func_graph.SymbolicTensor(graph, f"{base}:{k + 2}", p.shape, p.dtype, p._device,
                                      y._placeholders if p.dtype == dtypes.variant
                                      else p._placeholders)
            for k, (p, y) in enumerate(zip(places, new_flat))]
    graph.tensor_specs.update((o._id, (o._name, o._dtype, o._static_shape)) for o in outs)
    _link(new_flat, outs)
    _link(entering, outs)   # no iteration: the loop's output is the entering value
    limit = maximum_iterations
    if isinstance(limit, Tensor) and not func_graph.is_symbolic(limit):
        limit = int(limit)
    graph.nodes.append(WhileNode(
        inputs=[x._id for x in entering], places=[p._id for p in places], cond=cond_nodes,
        pred=pred._id, body=body_nodes, results=[y._id for y in new_flat],
        outputs=[o._id for o in outs], max_iters=limit, name=base))
    return with_flows(template, nest.pack_sequence_as(structure, outs))
