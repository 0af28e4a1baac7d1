"""A TPUStrategy.run inside a trace: the replica function traced once for all replicas.

Glossary:
  replicated trace -- TF's ``tpu.replicate(replicated_fn, replicate_inputs)``: the replica
                      function's Python runs once (replica 0's inputs, in a replica thread
                      of its own so merge_call can pause it), its ops recorded as replica
                      0's nodes; the other replicas' nodes are copies of them (their own
                      tensors, device, replica context, variable components and tapes), so
                      a print runs once per trace while each replica computes its values.
  segment          -- the nodes replica 0 recorded since the last sync point.
  sync point       -- a merge_call, and the end of the function: the segment is copied for
                      every other replica (after replica 0's, in replica order: the order a
                      MirroredStrategy trace has). The copies keep replica 0's op names:
                      TF's computation is one set of ops (get_operations lists it once,
                      with TF's TPU ops around it: tpu_program).
  merge            -- at a merge_call, replica 0's arguments are mapped to each replica's
                      (their tensors in the copies) and regrouped; the merge function runs
                      once in cross-replica context, as the MirroredStrategy merge does;
                      each replica's part of its result is linked to replica 0's. A tensor
                      every replica received (its argument) is one tensor there: the merge
                      sums it over the replicas (TF's cross_replica_sum, tpu_strategy).
  replica map      -- per replica: replica 0's tensor ids -> that replica's, and replica
                      0's objects (a variable's component, a core, a tape made in the
                      function) -> that replica's.
  replica id       -- ``replica_id_in_sync_group`` is a node reading its replica's id at
                      execution (TF: an int32 input of each replica, ``constant(i)``).
  cooperative node -- a node that merged while it was traced (a gradient through an
                      all-reduce): its copies join it in one ReplicaGroup (distribute_graph).
  nested function  -- a tf.function called in the replica function is traced apart, once
                      (TF: a PartitionedCall in the replicated computation); each replica's
                      call of it (replica 0's and the copies) runs its graph with replica
                      0's context standing for the replica's own (distribute_graph.
                      standing_in). A merge_call in it is a node of its graph that merges
                      when it runs (TF: the cross-replica op in its graph); the calls then
                      merged while traced, so they form a replica group.
  placeholder merge -- such a merge node's merge run on placeholders while it is traced,
                      for its outputs: its variable writes (apply_gradients) do nothing
                      then (``variables.writes_dropped``); they happen when it runs.
  merging control flow -- a merge_call in a cond branch or loop body of the replica
                      function is a merge node there too (TF: the cross-replica op in the
                      branch); the cond or loop then runs for every replica at once: its
                      copies form one replica group, each run in its replica's thread and
                      context (TF traces the branch once, each core runs it).

Mirrors tensorflow/python/distribute/tpu_strategy.py (``_tpu_function_creator``:
``replicated_fn`` with each replica's id an int32 input) and tensorflow/python/tpu/tpu.py
(``replicate``: the computation built once for every replica).
"""

from __future__ import annotations

import contextlib
import copy

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute import mirrored_run, tpu_program
from simdist.distribute.distribute_graph import (
    ReplicaGroup,
    close_replica_groups,
    standing_in,
)
from simdist.distribute.values import regroup, select_replica
from simdist.framework import func_graph, graph_control_flow, nest, variables
from simdist.framework.tensor import NotTraceable, _ids


def replicate(strategy, devices, make_context, fn, args, kwargs):
    """``fn`` traced once into the current graph for the replicas on ``devices`` (one per
    replica, their first core); returns the regrouped per-replica results."""
    replication = _Replication(strategy, devices, make_context)
    return replication.run(fn, args, kwargs)


def _replica_id():
    """The id of the replica a node runs for (its replica context, at execution)."""
    from simdist.framework import dtypes
    from simdist.framework.ops import array_ops

    ctx = ds_context.get_replica_context()
    offset = getattr(ctx.strategy.extended, "_replica_id_offset", 0)
    return array_ops.constant(ctx._replica_index + offset, dtype=dtypes.int32)


def _merge_call(merge_fn, args, kwargs):
    """A merge_call made when the node runs: in the replica's thread of a replica group
    (the call of the nested function it is in merged while traced: its copies run
    together), or on placeholders while a trace runs that function's graph."""
    return ds_context.get_replica_context().merge_call(merge_fn, args, kwargs)


def merge_node(graph, merge_fn, args, kwargs):
    """A merge_call in a tf.function nested in the replica function: a node of its graph
    (see ``nested function`` in the glossary)."""
    from simdist.distribute import collective_listing

    out = graph.record(_merge_call, "pure", None, (merge_fn, args, kwargs), {}, "merge_call")
    last = graph.nodes[-1:]
    for node in getattr(last[0], "members", {}).values() if last else ():   # (a group)
        last.append(node)
    for node in last:
        if getattr(node, "fn", None) is _merge_call:
            collective_listing.mark_stateful(graph, node)
    return out


def replica_id_node(graph):
    """``replica_id_in_sync_group`` in a replicated trace (see the glossary)."""
    return graph.record(_replica_id, "pure", None, (), {}, "replica_id_in_sync_group")


def _node_lists(node):
    """The node lists of a cond's branches or a loop's condition and body."""
    if isinstance(node, graph_control_flow.CondNode):
        return [nodes for nodes, _ in node.branches]
    if isinstance(node, graph_control_flow.WhileNode):
        return [node.cond, node.body]
    return []


def _inner(node):
    return [n for nodes in _node_lists(node) for n in nodes]


class MergeFailed:
    """What a replica's merge_call gets when its merge could not run on placeholders: the
    replica raises ``error`` (the NotTraceable) itself."""

    def __init__(self, error):
        self.error = error


class _Replication:
    """One replicated trace (see the module docstring)."""

    def __init__(self, strategy, devices, make_context):
        self.strategy = strategy
        self.graph = func_graph.current()
        self.n = len(devices)
        self.device = devices[0]
        self.contexts = [make_context(i, d) for i, d in enumerate(devices)]
        self.contexts[0]._replication = self
        self.contexts[0]._traced_for_all = True   # nested graphs' nodes stand in for it
        self.modes = [None] + [ds_context.replica_mode(c) for c in self.contexts[1:]]
        self.tensors = [{} for _ in range(self.n)]   # replica 0's tensor id -> replica i's
        self.objects = [{} for _ in range(self.n)]   # id(replica 0's) -> (it, replica i's)
        self.made = [{} for _ in range(self.n)]      # replica i's tensor id -> its tensor
        self.tapes: set = set()   # ids of the tapes the function entered (copied per replica)
        self.names = [{} for _ in range(self.n)]     # replica 0's core names -> replica i's
        cores = strategy.extended._tpu_devices
        for i in range(1, self.n):
            for core0, core in zip(cores[0], cores[i]):
                self.objects[i][id(core0)] = (core0, core)
                self.names[i][core0.name] = core.name
        self.nodes = self.graph.nodes
        self.mark = len(self.nodes)

    # --- the trace ------------------------------------------------------------------------
    def run(self, fn, args, kwargs):
        self.program = tpu_program.ReplicatedProgram(self.graph, self.n)
        inputs = self.program.replicated_inputs(
            [select_replica(i, (args, kwargs)) for i in range(self.n)])
        self.mark = len(self.nodes)   # (the Python values' Consts are no replica's)
        for i in range(1, self.n):
            self._link(i, inputs[0], inputs[i])
        try:
            first = mirrored_run.call_for_each_replica(
                self.strategy, [self.device],
                lambda i, dev: self.contexts[0], fn, inputs[0][0], inputs[0][1],
                merge=self._merge)
            self._sync()
            outputs = [first] + [self._to_replica(i, first) for i in range(1, self.n)]
            return regroup(self.program.finish(outputs))
        finally:
            self.contexts[0]._replication = None

    def _merge(self, strategy, threads):
        """A merge_call of the replicated trace (see ``merge`` in the glossary)."""
        t0 = threads[0]
        in_op = t0.merge_in_op is not None   # a recorded op's run on placeholders
        # (its node, recorded after this, is cooperative: the replicas' segments go first)
        if not in_op and self.in_control_flow():   # (_TPUReplicaContext records those)
            raise NotTraceable("a merge_call inside control flow of a TPU replica function")
        self._sync()
        start = len(self.nodes)
        with func_graph.recorded_op_scope(t0.merge_in_op) if in_op else \
                contextlib.nullcontext():
            parts = [(t0.merge_args, t0.merge_kwargs)] + [
                self._to_replica(i, (t0.merge_args, t0.merge_kwargs), copies=in_op)
                for i in range(1, self.n)]
            ds_context.push_mode(ds_context.cross_replica_mode(strategy))
            try:
                with variables.writes_dropped.scope(in_op):
                    result = t0.merge_fn(strategy, *regroup([p[0] for p in parts]),
                                         **regroup([p[1] for p in parts]))
            except NotTraceable as e:
                if not in_op:
                    raise
                # a merge a recorded op cannot run on placeholders (a variable update in
                # a nested function's merge): the replica raises it, so that function runs
                # its Python in the replicated trace (function._call_nested)
                t0.merge_result = MergeFailed(e)
                return
            finally:
                ds_context.pop_mode()
        t0.merge_result = select_replica(0, result)
        if not in_op:
            self.program.name_collectives(self.nodes[start:])
            for i in range(1, self.n):
                self._link(i, t0.merge_result, select_replica(i, result))
            self.mark = len(self.nodes)

    def _sync(self) -> None:
        """Copy the segment for every other replica (see ``sync point``): replica 0's
        nodes, then each replica's copies, up to each cooperative node, which becomes (or
        joins) a replica group after them."""
        segment = self.nodes[self.mark:]
        del self.nodes[self.mark:]
        pending = []
        for node in segment:
            if isinstance(node, ReplicaGroup) and node.strategy is self.strategy and \
                    list(node.members) == [0]:
                self._copy(pending)
                self._standing_in_node(node.members[0])
                for i in range(1, self.n):
                    node.members[i] = self._clone(i, node.members[0])
                self.nodes.append(node)
            elif self._merges(node):
                self._copy(pending)
                self.nodes.append(self._merging_control_flow(node))
            else:
                pending.append(node)
        self._copy(pending)
        close_replica_groups(self.graph, self.strategy)
        self.mark = len(self.nodes)

    def _copy(self, pending) -> None:
        """Replica 0's ``pending`` nodes, then each other replica's copies of them."""
        for node in pending:
            self._standing_in_node(node)
        self.nodes.extend(pending)
        for i in range(1, self.n):
            copies = [self._clone(i, node) for node in pending]
            self.program.copies.update(id(c) for c in copies)
            self.nodes.extend(copies)
        pending.clear()

    def _standing_in_node(self, node) -> None:
        if type(node) is func_graph.Node:   # replica 0's calls of nested functions
            node.fn = self._standing_in(node.fn)

    # --- a merge_call inside control flow ---------------------------------------------------
    def in_control_flow(self) -> bool:
        """Whether replica 0 traces a cond branch or a loop body of the replica function."""
        return self.graph.nodes is not self.nodes

    def _merges(self, node) -> bool:
        """Whether ``node`` (a cond, a loop) holds a merge that runs at execution."""
        if isinstance(node, (graph_control_flow.CondNode, graph_control_flow.WhileNode)):
            return any(self._merges(n) for n in _inner(node))
        if isinstance(node, ReplicaGroup):
            return node.strategy is self.strategy
        return type(node) is func_graph.Node and node.fn is _merge_call

    def _merging_control_flow(self, node):
        """A cond or loop of the replica function that merges (see ``merging control
        flow``): every replica's copy, in one replica group."""
        self._in_replica_threads(node)
        group = ReplicaGroup(self.strategy, node.name)
        group.members[0] = node
        for i in range(1, self.n):
            group.members[i] = self._clone(i, node)
        return group

    def _in_replica_threads(self, node) -> None:
        """Make replica 0's ``node`` run in a replica thread's own context: its nodes'
        replica 0 modes dropped, its replica groups their replica 0 node."""
        for nodes in _node_lists(node):
            for k, inner in enumerate(nodes):
                if isinstance(inner, ReplicaGroup) and inner.strategy is self.strategy:
                    inner = nodes[k] = inner.members[0]
                if type(inner) is func_graph.Node:
                    self._standing_in_node(inner)
                    if inner.mode is not None and inner.mode.replica_context is \
                            self.contexts[0]:
                        inner.mode = None
                else:
                    self._in_replica_threads(inner)

    # --- replica 0 -> replica i -------------------------------------------------------------
    def _link(self, i, mine, theirs) -> None:
        """Record that replica ``i``'s ``theirs`` is replica 0's ``mine`` (same structure)."""
        a = nest.flatten(func_graph.expand(mine))
        b = nest.flatten(func_graph.expand(theirs))
        for x, y in zip(a, b):
            if x is y:
                continue
            if func_graph.is_symbolic(x) and func_graph.is_symbolic(y):
                self.tensors[i][x._id] = y._id
                self.made[i][y._id] = y
            else:
                self.objects[i][id(x)] = (x, y)

    def _to_replica(self, i, structure, copies=False):
        """Replica ``i``'s ``structure`` (replica 0's): its tensors and objects mapped;
        ``copies``: a recorded op's placeholder tensors, copied to replica ``i``'s core."""
        expanded = func_graph.expand(structure)
        flat = [self._placeholder_copy(i, x) if copies else
                self._tensor(i, x) if func_graph.is_symbolic(x) else self._object(i, x)
                for x in nest.flatten(expanded)]
        return func_graph.collapse(nest.pack_sequence_as(expanded, flat))

    def _placeholder_copy(self, i, x):
        from simdist.framework.tensor import Tensor

        if type(x) is not Tensor and not func_graph.is_symbolic(x):
            return self._object(i, x)
        return Tensor(x._value, self._object(i, x._device))

    def _tensor(self, i, t):
        sid = self.tensors[i].get(t._id)
        if sid is None:
            return t   # made outside the replica function: every replica's
        made = self.made[i].get(sid)
        if made is None:
            made = self.made[i][sid] = func_graph.SymbolicTensor(
                t._graph, f"replica_{i}/{t._name}", t._static_shape, t._dtype,
                self._object(i, t._device), t._placeholders, sid, t._requested)
        return made

    def _object(self, i, x):
        if type(x) is str:   # a core's name (an op's device argument)
            return self.names[i].get(x, x)
        found = self.objects[i].get(id(x))
        if found is not None and found[0] is x:
            return found[1]
        container = getattr(x, "_distributed_container", None)
        if container is not None:
            values = container._values
            if len(values) == self.n and values[0] is x:
                return values[i]
        if id(x) in self.tapes:
            theirs = copy.copy(x)
            self.objects[i][id(x)] = (x, theirs)
            return theirs
        return x

    def _standing_in(self, fn):
        """``fn`` (a nested function's call op) running its graph as the replica it runs
        for (see ``nested function``)."""
        if not getattr(fn, "__nested_call__", False) or getattr(fn, "__stands_in__", False):
            return fn
        fn = standing_in(fn)
        fn.__stands_in__ = True
        return fn

    def _new_id(self, i, sid):
        new = next(_ids)
        self.tensors[i][sid] = new
        return new

    def _clone(self, i, node):
        """Replica ``i``'s copy of replica 0's ``node``."""
        if type(node) is func_graph.Node:
            return self._clone_node(i, node)
        if isinstance(node, graph_control_flow.CondNode):
            branches = tuple(([self._clone(i, n) for n in nodes],
                              [self.tensors[i].get(r, r) for r in results])
                             for nodes, results in node.branches)
            return graph_control_flow.CondNode(
                self.tensors[i].get(node.pred, node.pred), branches,
                [self._new_id(i, o) for o in node.outputs], node.name)
        if isinstance(node, graph_control_flow.WhileNode):
            get = self.tensors[i].get
            inputs = [get(x, x) for x in node.inputs]
            places = [self._new_id(i, p) for p in node.places]
            cond = [self._clone(i, n) for n in node.cond]
            body = [self._clone(i, n) for n in node.body]
            limit = node.max_iters
            if func_graph.is_symbolic(limit):
                limit = self._tensor(i, limit)
            return graph_control_flow.WhileNode(
                inputs=inputs, places=places, cond=cond, pred=get(node.pred, node.pred),
                body=body, results=[get(r, r) for r in node.results],
                outputs=[self._new_id(i, o) for o in node.outputs], max_iters=limit,
                name=node.name)
        raise NotTraceable(f"a {type(node).__name__} inside control flow of a TPU replica "
                           "function")

    def _clone_node(self, i, node):
        if node.fn is func_graph._replay_tape_enter:
            self.tapes.add(id(node.leaves[0]))
        c = copy.copy(node)
        slotted = {pos for pos, _ in node.slots}
        c.leaves = tuple(x if pos in slotted else self._object(i, x)
                         for pos, x in enumerate(node.leaves))
        get = self.tensors[i].get
        c.slots = tuple((pos, get(sid, sid)) for pos, sid in node.slots)
        c.out_slots = tuple((pos, self._new_id(i, sid)) for pos, sid in node.out_slots)
        if node.dry is not None:
            c.dry = tuple((self.tensors[i].get(sid, sid), self._tensor(i, t))
                          for sid, t in node.dry)
        c.device = self._object(i, node.device)
        mode = node.mode
        if mode is not None and mode.replica_context is self.contexts[0]:
            c.mode = self.modes[i]
        return c   # under replica 0's name: TF's computation is one set of ops
