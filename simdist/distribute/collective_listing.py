"""The operations TF's graph lists for a MirroredStrategy's reduction traced in a tf.function.

simdist records a ``reduce_to`` / ``batch_reduce_to`` as one node (distribute_graph); TF
builds it from ops, which ``get_operations()`` lists in its place:

Glossary:
  names            -- taken from the graph when the node is recorded, in TF's order and in
                      the merge's name scope, so the ops traced after it are numbered as
                      in TF (``mul_1`` after the collective's ``Reshape``, ``Const``...).
  all-reduce       -- TF's default for a MirroredStrategy (``CollectiveAllReduce``), per
                      replica in turn: the values reversed and packed into one tensor
                      (``Reshape`` of each to a vector, its ``Shape``, ``concat``), the
                      call-time instance key (``Placeholder``), ``CollectiveReduceV2``
                      with its group size and key and the replica's ordering token (a
                      captured resource: ``CollectiveReduceV2/ordering_token_0``, the
                      first time the graph uses it), then unpacked (a ``Prod`` of each
                      shape, ``packed``, ``split``, a ``Reshape`` back); MEAN divides each
                      result (``truediv``).
  reduce to one    -- ``ReductionToOneDevice`` (int32 values, a ``strategy.reduce`` to
                      the host): ``AddN`` of the replicas' values, MEAN ``truediv``, then
                      an ``Identity`` per destination device.
  other all-reduce -- ``HierarchicalCopyAllReduce`` / ``NcclAllReduce``: all_reduce_listing.
  cluster worker   -- a MultiWorkerMirroredStrategy worker process lists its own replicas'
                      all-reduces as above (a plain tensor a run returned from its one
                      replica is that replica's value), and strategy.reduce's as one more
                      CollectiveReduceV2 across the workers; the cluster's step hook
                      (``StepBegins``, simdist's own node) lists nothing.
  one replica      -- a MirroredStrategy or a one-process MultiWorkerMirroredStrategy of
                      one device (MWMS on CPUs): CrossDeviceOps' shortcut, no op for a
                      batch_reduce_to (the values themselves), an ``Identity`` for a
                      reduce_to to the value's device (``CrossDeviceOps.reduce``; of a
                      run's one result, ``reduce_non_distributed_value``: none for MEAN).
  IdentityN        -- ``ReplicaContext.all_reduce``'s custom gradient: after a replica's
                      ``Identity`` of each result, one IdentityN of the results and the
                      replica's values, which the replica's later ops read.

Mirrors tensorflow/python/distribute/cross_device_ops.py (``CollectiveAllReduce.
_all_reduce``, ``ReductionToOneDevice``, ``_simple_reduce``, ``simple_broadcast``),
cross_device_utils.py (``CollectiveReplicaLauncher.batch_all_reduce``, ``all_reduce``,
``_next_instance_key``), ops/collective_ops.py (``all_reduce_v2``) and distribute_lib.py
(``ReplicaContext.all_reduce``'s ``grad_wrapper``).
"""

from __future__ import annotations

import sys
import weakref

from simdist.distribute import all_reduce_listing
from simdist.distribute.reduce_util import ReduceOp, as_reduce_op
from simdist.distribute.values import DistributedValues, Mirrored
from simdist.framework import func_graph, graph_operations

_TOKENS = "collective ordering tokens"   # the builder's shared entry: (ops, replica) -> token
# graph -> the (id(cross-device ops), replica) whose ordering token it captured already
_tokens_used: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def materialized(attr, args) -> tuple:
    """A call's arguments with ``batch_reduce_to``'s pairs made a list (read twice)."""
    if attr == "batch_reduce_to" and len(args) > 2 and not isinstance(args[2], list):
        return (*args[:2], list(args[2]), *args[3:])
    return args


def name_node(graph, node, attr, args, kwargs) -> None:
    """``node`` (a ``reduce_to`` or ``batch_reduce_to``, just recorded with ``args`` and
    ``kwargs``) takes TF's names and is listed as TF's ops, where simdist knows them."""
    from simdist.distribute.mirrored_strategy import MirroredExtended

    names = ("reduce_op", "value_destination_pairs", "options") if \
        attr == "batch_reduce_to" else ("reduce_op", "value", "destinations", "options")
    extended, given = args[0], dict(zip(names, args[1:]), **kwargs)
    if attr == "batch_reduce_to":
        pairs = list(given.get("value_destination_pairs", ()))
    else:
        pairs = [(given.get("value"), given.get("destinations"))]
    reduce_op = as_reduce_op(given.get("reduce_op"))
    tpu_strategy = _loaded("tpu_strategy")
    if tpu_strategy is not None and isinstance(extended, tpu_strategy.TPUExtended):
        if any(tpu_strategy._sums_across_replicas(v) for v, _ in pairs):
            mark_stateful(graph, node)
        return
    if _one_replica(extended):
        one = _OneReplica.of(graph, node, attr, pairs, given.get("reduce_op"))
        if one is not None:
            graph.node_listings[id(node)] = one
        return
    if _cluster_worker(extended):
        values = [_Local(v) if func_graph.is_symbolic(v) else v for v, _ in pairs]
        if all(_per_replica(v, len(extended._devices)) for v in values) and \
                len(_outputs(node)) == len(values) * len(extended._devices):
            graph.node_listings[id(node)] = _AllReduce(
                graph, node, extended._get_cross_device_ops(), values,
                reduce_op == ReduceOp.MEAN)
        return
    if type(extended) is not MirroredExtended or len(extended._devices) < 2:
        return
    values = [v for v, _ in pairs]
    if not all(_per_replica(v, len(extended._devices)) for v in values):
        return
    ops = _ops_used(extended, attr, pairs)
    if ops is None:
        return
    mean = reduce_op == ReduceOp.MEAN
    if _is_collective(ops) and len(_outputs(node)) == len(values) * len(extended._devices):
        graph.node_listings[id(node)] = _AllReduce(graph, node, ops, values, mean)
    elif type(ops).__name__ == "ReductionToOneDevice":
        graph.node_listings[id(node)] = _ToOneDevice(graph, node, pairs, mean)
    elif type(ops).__name__ in ("HierarchicalCopyAllReduce", "NcclAllReduce") and \
            len(_outputs(node)) == len(values) * len(extended._devices):
        found = all_reduce_listing.listing(graph, node, ops, values, mean)
        if found is not None:
            graph.node_listings[id(node)] = found


def name_identity_n(graph, strategy, identities, values) -> None:
    """A replica's Identity of each all-reduced value was recorded (``identities``: their
    tensors; ``values``: the replica's inputs): TF's IdentityN follows them."""
    from simdist.distribute.mirrored_strategy import MirroredExtended

    if not (type(strategy.extended) is MirroredExtended or _one_replica(strategy.extended)
            or _cluster_worker(strategy.extended)) or not identities:
        return
    # the last Identity (a tape's gradient link may follow it)
    last = next((node for node in reversed(graph.nodes[-2 * len(identities) - 1:])
                 if _outputs(node) == [identities[-1]._id]), None)
    if last is None:
        return
    graph.node_listings[id(last)] = _IdentityN(
        graph.unique_name(graph.scope + "IdentityN"), [t._id for t in identities],
        [v._id for v in values if func_graph.is_symbolic(v)])


def _one_replica(extended) -> bool:
    """A MirroredStrategy or MultiWorkerMirroredStrategy of one replica in one process:
    TF's CrossDeviceOps then takes its shortcut (see ``one replica``)."""
    from simdist.distribute.mirrored_strategy import MirroredExtended

    multi_worker = _loaded("multi_worker_mirrored_strategy")
    kinds = (MirroredExtended,) if multi_worker is None else (
        MirroredExtended, multi_worker.CollectiveAllReduceExtended)
    return type(extended) in kinds and len(extended._devices) == 1 and \
        not getattr(extended, "_cluster", None)


def _loaded(name):
    """The module ``simdist.distribute.<name>`` if it is imported, else None: a strategy
    class whose module was never imported has no instance to test for (a MirroredStrategy
    program's trace need not import the TPU and multi-worker strategies)."""
    return sys.modules.get(f"simdist.distribute.{name}")


def _cluster_worker(extended) -> bool:
    """A MultiWorkerMirroredStrategy worker of a cluster of processes: its graph lists its
    own replicas' collectives (a worker's one replica returns a plain tensor from a run,
    which TF's CollectiveAllReduce makes one replica's value)."""
    return getattr(extended, "_cluster", None) is not None


class _Local:
    """A plain traced tensor as its worker's one replica's value (see ``_cluster_worker``)."""

    def __init__(self, tensor):
        self.values = (tensor,)


def _per_replica(value, n) -> bool:
    return isinstance(value, (DistributedValues, _Local)) and not isinstance(
        value, Mirrored) and len(value.values) == n and all(
            func_graph.is_symbolic(t) for t in value.values)


def _is_collective(ops) -> bool:
    return type(ops).__name__ == "CollectiveAllReduce" and \
        not getattr(getattr(ops, "_options", None), "bytes_per_pack", 0)


def _ops_used(extended, attr, pairs):
    """The CrossDeviceOps TF reduces with (MirroredExtended._reduce_to /
    _batch_reduce_to), or None where simdist lists no ops of TF's."""
    from simdist.distribute import cross_device_ops as cdo

    if attr == "batch_reduce_to":
        ops = extended._batch_ops(pairs)
        if _is_collective(ops) and not all(
                cdo.get_devices_from(v) == cdo.get_devices_from(d) for v, d in pairs):
            return None   # TF reduces each value to its destinations then
        return ops
    (value, destinations), = pairs
    devices = cdo.get_devices_from(destinations)
    if set(devices) != set(cdo.get_devices_from(value)) or \
            any(d.device_type == "CPU" for d in devices):
        return cdo.ReductionToOneDevice()
    ops = extended._get_cross_device_ops(value)
    return ops if devices == cdo.get_devices_from(value) or not _is_collective(ops) else None


def _outputs(node) -> list:
    return [tid for _, tid in getattr(node, "out_slots", ())]


def mark_stateful(graph, node) -> None:
    """``node`` is listed as simdist records it, but TF's ops in its place are stateful: a
    TPU all-reduce's ``CrossReplicaSum`` (listed by its program: tpu_program), a merge
    that runs when a cond branch, a loop body or a nested function of a TPU replica
    function runs (its all-reduce or variable updates)."""
    graph.node_listings[id(node)] = _Stateful()


class _Unlisted:
    """A node of simdist's own (a cluster's step hook): no op of TF's, not stateful."""

    stateful = False

    def list_operations(self, builder, node) -> None:
        pass


UNLISTED = _Unlisted()


class _Stateful:
    """See ``mark_stateful``."""

    stateful = True

    def list_operations(self, builder, node) -> None:
        builder.recorded_node(node)


class _AllReduce:
    """A CollectiveAllReduce of one pack of values (see ``all-reduce``)."""

    stateful = True   # (CollectiveReduceV2)

    def __init__(self, graph, node, ops, values, mean):
        n = len(values[0].values)
        name = lambda op: graph.unique_name(graph.scope + op)   # noqa: E731
        # [replica][value] in TF's packing order (reversed)
        self.inputs = [[v.values[i]._id for v in reversed(values)] for i in range(n)]
        outs = _outputs(node)
        self.outputs = [[outs[k * n + i] for k in reversed(range(len(values)))]
                        for i in range(n)]
        tokens = _tokens_used.setdefault(graph, set())
        self.replicas = []
        self.devices = [t._device.name for t in values[0].values]   # where each runs
        for i in range(n):
            m = len(values)
            names = {"reshape": [name("Reshape") for _ in range(m)],
                     "shape": [name("Shape") for _ in range(m)], "concat": name("concat"),
                     "key": name("Placeholder"), "reduce": name("CollectiveReduceV2"),
                     "prod": [(name("Const"), name("Prod")) for _ in range(m)],
                     "packed": name("packed"), "split": name("split"),
                     "back": [name("Reshape") for _ in range(m)],
                     "truediv": [name("truediv") for _ in range(m)] if mean else None,
                     "token": (id(ops), i) not in tokens, "ops": id(ops)}
            tokens.add((id(ops), i))
            self.replicas.append(names)

    def list_operations(self, builder, node) -> None:
        for i, names in enumerate(self.replicas):   # on the replica's device (launcher's)
            results = all_reduce_listing.placed(builder, self.devices[i], _list_pack, builder,
                                                names, i, self.inputs[i])
            for tid, t in zip(self.outputs[i], results):
                builder.by_id[tid] = t


def _list_pack(builder, names, replica, tids) -> list:
    """One replica's ops of the all-reduce of its values (``tids``, packed in that order)."""
    add, const = builder.add, builder.const
    pack = [builder.by_id.get(t) for t in tids]
    flat = [add(r, "Reshape", _present(t, const(f"{r}/shape", None))).outputs[0]
            for r, t in zip(names["reshape"], pack)]
    shapes = [add(s, "Const").outputs[0] if graph_operations._known(builder.specs.get(tid))
              else add(s, "Shape", _present(t)).outputs[0]
              for s, t, tid in zip(names["shape"], pack, tids)]
    concat = names["concat"]
    if len(flat) == 1:
        const(f"{concat}/concat_dim", None)
        packed = add(f"{concat}/concat", "Identity", flat).outputs[0]
    else:
        packed = add(concat, "ConcatV2", flat + [const(f"{concat}/axis", None)]).outputs[0]
    key = add(names["key"], "Placeholder").outputs[0]
    crv = names["reduce"]
    inputs = [packed, const(f"{crv}/group_size", None), const(f"{crv}/group_key", None), key]
    tokens = builder.shared.setdefault(_TOKENS, {})
    if names["token"] or (names["ops"], replica) not in tokens:
        tokens[(names["ops"], replica)] = add(f"{crv}/ordering_token_0",
                                              "Placeholder").outputs[0]
    reduced = add(crv, "CollectiveReduceV2", inputs + [tokens[(names["ops"], replica)]])
    prods = [add(p, "Prod", [s, const(c, None)]).outputs[0]
             for (c, p), s in zip(names["prod"], shapes)]
    sizes = add(names["packed"], "Pack", prods).outputs[0]
    split = names["split"]
    parts = add(split, "SplitV", reduced.outputs + [sizes, const(f"{split}/split_dim", None)],
                [(None, None)] * len(pack))
    results = [add(r, "Reshape", [part, s]).outputs[0]
               for r, part, s in zip(names["back"], parts.outputs, shapes)]
    if names["truediv"] is not None:
        results = [add(d, "RealDiv", [r, const(f"{d}/y", None)]).outputs[0]
                   for d, r in zip(names["truediv"], results)]
    return results


class _ToOneDevice:
    """A ReductionToOneDevice of each value (see ``reduce to one``)."""

    def __init__(self, graph, node, pairs, mean):
        from simdist.distribute import cross_device_ops as cdo

        name = lambda op: graph.unique_name(graph.scope + op)   # noqa: E731
        self.values = []
        for value, destinations in pairs:
            devices = [d.name for d in cdo.get_devices_from(destinations)]
            self.values.append(([t._id for t in value.values], name("AddN"),
                                name("truediv") if mean else None,
                                [(name("Identity"), d) for d in devices]))
        self.outputs = _outputs(node)

    def list_operations(self, builder, node) -> None:
        outputs = iter(self.outputs)
        for inputs, add_n, truediv, identities in self.values:
            # summed (and divided) on the first destination, copied to each
            total = all_reduce_listing.placed(builder, identities[0][1], _sum, builder, [
                builder.by_id[t] for t in inputs if t in builder.by_id], add_n, truediv)
            for identity, device in identities:
                out = all_reduce_listing.placed(
                    builder, device, builder.add, identity, "Identity", [total]).outputs[0]
                tid = next(outputs, None)
                if tid is not None:
                    builder.by_id[tid] = out


class _OneReplica:
    """CrossDeviceOps' shortcut for one replica (see ``one replica``)."""

    def __init__(self, graph, node, values, identity):
        self.inputs = [t._id for t in values]
        self.outputs = _outputs(node)
        self.names = [graph.unique_name(graph.scope + "Identity") for _ in values] \
            if identity else None

    @classmethod
    def of(cls, graph, node, attr, pairs, reduce_op):
        """The listing of ``node`` (``attr``: reduce_to / batch_reduce_to of ``pairs``), or
        None where TF takes no shortcut (other devices, values not per replica)."""
        from simdist.distribute import cross_device_ops as cdo

        # one replica's value: its tensor (TF's regroup of one value), or a PerReplica
        values = [v if func_graph.is_symbolic(v) else
                  v.values[0] if _per_replica(v, 1) else None for v, _ in pairs]
        if any(v is None for v in values) or len(_outputs(node)) != len(values) or any(
                set(cdo.get_devices_from(v)) != set(cdo.get_devices_from(d)) for v, d in pairs):
            return None
        # reduce_to: CrossDeviceOps.reduce's Identity; a plain tensor (one replica's
        # result of a run) is reduce_non_distributed_value's: itself for MEAN, else a
        # broadcast (Identity)
        plain = func_graph.is_symbolic(pairs[0][0])
        return cls(graph, node, values, identity=attr == "reduce_to" and not (
            plain and as_reduce_op(reduce_op) == ReduceOp.MEAN))

    def list_operations(self, builder, node) -> None:
        for k, (tid, out) in enumerate(zip(self.inputs, self.outputs)):
            value = builder.by_id.get(tid)
            if self.names is not None:
                value = builder.add(self.names[k], "Identity", [value]).outputs[0]
            builder.by_id[out] = value


def _sum(builder, tensors, add_n, truediv):
    total = builder.add(add_n, "AddN", tensors).outputs[0]
    if truediv is not None:
        total = builder.add(truediv, "RealDiv",
                            [total, builder.const(f"{truediv}/y", None)]).outputs[0]
    return total


class _IdentityN:
    """A replica's IdentityN after its all-reduce's Identities (see ``IdentityN``)."""

    def __init__(self, name, identities, values):
        self.name = name
        self.identities = identities
        self.values = values

    def list_operations(self, builder, node) -> None:
        builder.recorded_node(node)
        sums = [builder.by_id[t].op.inputs[0] for t in self.identities
                if t in builder.by_id and builder.by_id[t].op.inputs]
        values = [builder.by_id[t] for t in self.values if t in builder.by_id]
        op = builder.add(self.name, "IdentityN", sums + values,
                         [(None, None)] * (len(sums) + len(values)))
        for k, tid in enumerate(self.identities):
            builder.by_id[tid] = op.outputs[k]


def _present(*tensors) -> list:
    return [t for t in tensors if t is not None]

