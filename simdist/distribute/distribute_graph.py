"""Distributed execution inside a traced ``tf.function``: what the graph records.

Glossary:
  composite      -- a PerReplica or Mirrored is recorded as its components (TF's
                    ``PerReplicaSpec``/``MirroredSpec`` type specs, nest's
                    ``expand_composites``): each replica's tensor is a graph tensor.
  replica trace  -- ``strategy.run`` inside a trace runs the replica threads as eagerly
                    (mirrored_run), each recording into the caller's graph in turn: the
                    replica function's Python runs once per replica per trace, its ops
                    become nodes under that replica's device (a TPUStrategy traces it
                    once for all replicas and copies the nodes: tpu_replicate).
  collective node -- ``reduce_to`` / ``batch_reduce_to`` / ``broadcast_to`` / a gather:
                    one node over every replica's inputs, run as eagerly at each execution
                    (so clocks and trace events equal the eager step's).
  node mode      -- a node traced in a replica's (or a merge's) context runs in that
                    context again at each execution (``ds_context`` mode pushed), so what
                    reads the replica (a Mirrored's component, num_replicas_in_sync) reads
                    the same as in the trace.
  replica group  -- a node a replica recorded that called merge_call while it was traced
                    (``tape.gradient`` through an all-reduce: the gradient all-reduces the
                    incoming gradients) needs every replica's part at once: the replicas'
                    nodes form one group node, placed where the first of them was recorded
                    (every member's inputs come before it), and run in the strategy's
                    replica threads at each execution, as the eager step runs them.
  stand-in       -- a TPU replica's call of a nested tf.function runs the graph traced
                    once as replica 0: that graph's nodes recorded in a replicated trace's
                    context run in the calling replica's context (``standing_in``).
  inlined entry  -- under a strategy, Keras's whole-call nodes (a loss, a metric update,
                    ``apply_gradients``) are traced through: their merge_calls need the
                    replica threads, which a replay does not start.

Mirrors tensorflow/python/distribute/values.py (the type specs), mirrored_run.py (tracing
in replica threads) and cross_device_ops.py (collectives as graph ops).
"""

from __future__ import annotations

import contextlib
import functools
import weakref

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.values import Mirrored, PerReplica
from simdist.framework import context, execute, op_recording
from simdist.framework.thread_local import ThreadLocalValue
from simdist.hardware import machine

op_recording.register_composite(PerReplica, lambda x: x._values, PerReplica)
op_recording.register_composite(Mirrored, lambda x: x._values, Mirrored)

# The cross-device ops: one graph node each, over all replicas' components.
_COLLECTIVES = {"reduce_to": "pure", "batch_reduce_to": "pure", "broadcast_to": "pure",
                "_gather": "pure", "_all_gather": "pure"}


def record_collectives(cls) -> None:
    """Make the collectives ``cls`` (a StrategyExtended class) defines graph nodes."""
    for attr, kind in _COLLECTIVES.items():
        fn = cls.__dict__.get(attr)
        if fn is None or hasattr(fn, "__recorded_op__"):
            continue
        op = op_recording.recorded(_timeless_when_traced(fn), kind=kind,
                                 name=f"{cls.__name__}.{attr}")
        setattr(cls, attr, _listed(op) if attr in ("reduce_to", "batch_reduce_to") else op)


def _listed(op):
    """The recorded reduction ``op`` whose node, in a trace, takes TF's names and lists
    TF's ops where simdist knows them (collective_listing, loaded by the first trace)."""

    @functools.wraps(op)
    def call(*args, **kwargs):
        graph = op_recording.current()
        if graph is None:
            return op(*args, **kwargs)
        from simdist.distribute import collective_listing

        args = collective_listing.materialized(op.__name__, args)
        nodes = graph.nodes
        before = len(nodes)
        out = op(*args, **kwargs)
        if len(nodes) > before and nodes[-1].fn is op.__recorded_op__:
            collective_listing.name_node(graph, nodes[-1], op.__name__, args, kwargs)
        return out

    call.__recorded_op__ = op.__recorded_op__
    return call


def _timeless_when_traced(fn):
    """``fn`` that, run on a trace's placeholders, leaves the simulated world as it was."""

    @functools.wraps(fn)
    def collective(*args, **kwargs):
        if not execute.in_shape_inference():
            return fn(*args, **kwargs)
        with _world_kept():
            return fn(*args, **kwargs)

    return collective


@contextlib.contextmanager
def _world_kept():
    """The trace runs a collective on placeholders for its outputs' shapes and devices:
    the collective algorithms advance clocks and record events as they go, so every
    device's clock and peak memory and every trace are put back afterwards (the trace of
    a traced step then equals the eager step's)."""
    machines = [machine.get_machine(), *machine._cluster.values()]
    devices = {d for m in machines for d in m.devices.values()}
    clocks = [(d, d.clock, d.peak_memory) for d in devices]
    traces = {id(d.trace): (d.trace, len(d.trace), d.trace.dropped) for d in devices}
    for m in machines:
        traces.setdefault(id(m.trace), (m.trace, len(m.trace), m.trace.dropped))
    try:
        yield
    finally:
        for d, clock, peak in clocks:
            d.clock, d.peak_memory = clock, peak
        for trace, n, dropped in traces.values():
            trace.truncate(n)
            trace.dropped = dropped


class ReplicaGroup:
    """The replicas' parts of one cooperative node (see the module docstring)."""

    __slots__ = ("strategy", "members", "name")

    def __init__(self, strategy, name):
        self.strategy = strategy
        self.members: dict = {}   # replica index -> its node
        self.name = name

    def run(self, env: dict) -> None:
        execution = op_recording._execution.value
        members = self.members

        def replica_part():
            index = ds_context.get_replica_context()._replica_index
            with op_recording._execution.scope(execution):
                members[index].run(env)

        self.strategy.extended._call_for_each_replica(replica_part, (), {})

    def __repr__(self):
        return f"<ReplicaGroup {self.name} of {len(self.members)} replicas>"


# graph -> {id(strategy): the group still missing replicas} (a failed trace's groups go
# with its graph)
_open_groups: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


@op_recording.register_replica_group
def _join_replica_group(graph, node) -> bool:
    ctx = getattr(node.mode, "replica_context", None)
    strategy = getattr(ctx, "_strategy", None)
    if strategy is None or getattr(ctx, "_thread", None) is None:
        return False
    replication = getattr(ctx, "_replication", None)
    if replication is not None and graph is not replication.graph:
        return False   # a merge in a nested function's graph: its call is the group
    groups = _open_groups.setdefault(graph, {})
    group = groups.get(id(strategy))
    if group is None or ctx._replica_index in group.members:
        group = groups[id(strategy)] = ReplicaGroup(strategy, node.name)
        graph.nodes.append(group)
    node.mode = None   # runs in the replica thread's own context at execution
    group.members[ctx._replica_index] = node
    if len(group.members) == strategy.num_replicas_in_sync:
        del groups[id(strategy)]
    return True


def close_replica_groups(graph, strategy) -> None:
    """The replica groups of ``strategy`` in ``graph`` take no more members (a TPU
    replicated trace filled them with copies: tpu_replicate)."""
    _open_groups.get(graph, {}).pop(id(strategy), None)


@op_recording.register_inline_condition
def _under_a_strategy() -> bool:
    return ds_context.get_per_thread_mode().strategy is not ds_context.get_default_strategy()


def _capture_mode():
    mode = ds_context.get_per_thread_mode()
    return None if mode is ds_context._get_default_mode() else mode


_stand_in = ThreadLocalValue(None)   # the mode run for a replica context traced for all


def _enter_mode(mode) -> None:
    stand_in = _stand_in.value
    if stand_in is not None and getattr(mode.replica_context, "_traced_for_all", False):
        mode = stand_in
    ds_context.push_mode(mode)


def standing_in(fn):
    """``fn`` (a node's op) whose run's nodes recorded in a replica context traced for all
    replicas (``_traced_for_all``: a TPU replicated trace's) run in the mode current when
    ``fn`` starts: a TPU replica's call of a nested tf.function runs its graph (traced
    once, as replica 0) as that replica."""

    @functools.wraps(fn)
    def op(*args, **kwargs):
        with _stand_in.scope(ds_context.get_per_thread_mode()):
            return fn(*args, **kwargs)

    return op


op_recording.register_mode_hooks(_capture_mode, _enter_mode, ds_context.pop_mode)


@op_recording.register_call_context
def _function_context():
    """What of a call's distribution context is part of a tf.function's trace key (TF's
    function_context.make_function_context): under a strategy that retraces for each
    device, the call's device and whether it is in cross-replica context; else nothing."""
    mode = ds_context.get_per_thread_mode()
    if mode.strategy is ds_context.get_default_strategy() or \
            not mode.strategy.extended._retrace_functions_for_each_device:
        return None
    dev = context.explicit_device()
    return (None if dev is None else dev.name), mode.replica_context is None


