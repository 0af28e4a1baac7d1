"""The operations TF's graph lists around a TPU replicated computation (get_operations).

Glossary:
  program          -- one ``tpu.replicate`` of a trace: the nodes from ``start`` to ``end``
                      of the graph's node list (replica 0's and the other replicas' copies).
  replica ids      -- ``Const``, ``Const_1``, ... : TPUStrategy's int32 constant per replica,
                      made before the computation (tpu_strategy.py, ``tpu_function``).
  Python values    -- an argument that is a number, string or array: a Const per replica
                      (after the replica ids), and the replica function receives a tensor.
  variable argument -- read per replica (``ReadVariableOp``, ``ReadVariableOp_1``, ...:
                      ``ops.convert_to_tensor``): the replica function receives the read.
  padding inputs   -- TPUStrategy's dynamic batch size (``maximum_shapes``): a ``Shape`` per
                      replica and input (replica by replica; a Const when the shape is
                      fully known), then per input ``stack`` (Pack) and ``Max`` (their
                      largest shape); an input whose shape is not known or differs between
                      replicas is padded to the largest (tpu_padding).
  fan-in           -- ``input<k>`` (TPUReplicatedInput) over the replicas' k-th input (k = 0:
                      the replica ids), ``cluster_<graph>/pivot`` (NoOp),
                      ``TPUReplicateMetadata``, then ``replicated_input_<k>`` (Identity), which
                      the computation reads; ``replica_id_in_sync_group`` is input 0 itself.
  computation      -- replica 0's nodes, under their own names: TF builds the computation
                      once, so the copies simdist runs for the other replicas are no ops.
  fan-out          -- ``NoOp`` and an ``Identity`` per output inside the computation (for
                      outputs that are not flat, a dict or nested, two Identities each and
                      no NoOp),
                      ``TPUCompilationResult``, then per output ``output<k>``
                      (TPUReplicatedOutput) and ``output_<k>_shard_<r>`` (Identity) per
                      replica, which the function's outputs read; with no output
                      (None, or only Nones, which TF drops) a ``shard_<r>`` NoOp per replica.
  collective       -- a merge's ``batch_reduce_to`` (an all-reduce) inside the computation:
                      per value TF's ``cross_replica_sum`` (``CrossReplicaSum/
                      group_assignment``, ``CrossReplicaSum``; MEAN first ``scalar`` and
                      ``Mul``), then the merge's Identity per value (TF: custom_gradient's
                      unused identity) and one ``IdentityN`` of the sums and the values,
                      which later ops read (ReplicaContext.all_reduce's ``grad_wrapper``);
                      the names taken when the merge is traced, in TF's order.
  cluster name     -- ``cluster_<graph name>``: TF refuses a graph whose name makes no valid
                      name scope (a lambda's, ``<lambda>``) with a ValueError.
The names are taken from the graph's names when the trace makes them, in TF's order, so
the computation's and the function's own ops are named around them as in TF.

Mirrors tensorflow/python/tpu/tpu.py (``split_compile_and_replicate``,
``_postprocess_flat_outputs``, ``_postprocess_non_flat_outputs``; xla.py ``is_flat``) and
tensorflow/python/distribute/tpu_strategy.py (``_tpu_function_creator``, ``TPUExtended.
_reduce_to``) and distribute_lib.py (``ReplicaContext.all_reduce``); the padding
inputs tpu.py's ``_pad_all_input``; the cluster name's check framework/ops.py
(``_VALID_SCOPE_NAME_REGEX``, ``Graph.name_scope``).
"""

from __future__ import annotations

import re

import numpy as np

from simdist.distribute import tpu_padding
from simdist.framework import func_graph, nest

# what TF converts to a tensor for tpu.replicate (any other leaf but None raises there)
_VALUES = (bool, int, float, complex, str, bytes, np.ndarray, np.generic)
# TF's pattern for a name scope at the root of a graph (framework/ops.py)
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")


def _symbolic_ids(structure) -> list:
    return [t._id for t in nest.flatten(func_graph.expand(structure))
            if func_graph.is_symbolic(t)]


class ReplicatedProgram:
    """One program's names and tensors (see the module docstring)."""

    def __init__(self, graph, n):
        pivot = f"cluster_{graph.name}/pivot"
        if not _VALID_SCOPE_NAME.match(pivot):
            raise ValueError(f"'{pivot}' is not a valid root scope name. A root scope name "
                             "has to match the following pattern: "
                             f"{_VALID_SCOPE_NAME.pattern}")
        self.graph = graph
        self.n = n
        self.start = len(graph.nodes)
        self.end = None
        self.copies: set = set()     # ids of the other replicas' nodes
        self.value_nodes: set = set()   # ids of the Python values' Consts
        self.consts = [graph.unique_name("Const") for _ in range(n)]
        self.collectives: dict = {}   # id(batch_reduce_to node) -> _Collective

    def replicated_inputs(self, replica_inputs) -> list:
        """Each replica's (args, kwargs) as the computation receives them: a Python value
        converted to a tensor (a Const per replica; TF: ``ops.convert_to_tensor`` of each
        replica's flat input), a variable read, None kept; the fan-in's and padding
        inputs' names taken."""
        before = len(self.graph.nodes)
        replica_inputs = [nest.map_structure(_converted, inputs)
                          for inputs in replica_inputs]
        self.value_nodes = {id(node) for node in self.graph.nodes[before:]}
        self.inputs = [_symbolic_ids(x) for x in replica_inputs]   # [replica][k - 1]
        name = self.graph.unique_name
        k = 1 + len(self.inputs[0])
        self.shapes = [[name("Shape") for _ in range(k)] for _ in range(self.n)]
        self.maxima = [(name("stack"), name("Max")) for _ in range(k)]
        self.padding = tpu_padding.Padding(self.graph, [
            [t.shape for t in nest.flatten(func_graph.expand(x)) if func_graph.is_symbolic(t)]
            for x in replica_inputs])
        k += len(self.padding.maps)   # the padded dimensions' real sizes
        self.input_names = [name(f"input{i}") for i in range(k)]
        self.pivot = name(f"cluster_{self.graph.name}/pivot")
        self.metadata = name("TPUReplicateMetadata")
        self.padding.take_dynamic_names(self.graph)
        self.replicated = [name(f"replicated_input_{i}") for i in range(k)]
        return replica_inputs

    def finish(self, outputs_per_replica) -> list:
        """The computation ended: its outputs (per replica) and the fan-out's names; the
        outputs as TF returns them, each replica's tensors named after its shard
        (``output_0_shard_1:0``)."""
        self.end = len(self.graph.nodes)
        self.outputs = [_symbolic_ids(o) for o in outputs_per_replica]   # [replica][k]
        name = self.graph.unique_name
        m = len(self.outputs[0])
        self.flat = _is_flat(outputs_per_replica[0])
        self.noop = name("NoOp") if self.flat else None
        self.identities = [name("Identity") for _ in range(m if self.flat else 2 * m)]
        self.compilation = name("TPUCompilationResult")
        self.output_names = []
        self.no_outputs = [name(f"shard_{r}") for r in range(self.n)] if m == 0 else []
        for k in range(m):
            self.output_names.append((name(f"output{k}"), [
                name(f"output_{k}_shard_{r}") for r in range(self.n)]))
        self.graph.replicated_programs = getattr(self.graph, "replicated_programs", []) + [
            self]
        return [self._as_shards(r, o) for r, o in enumerate(outputs_per_replica)]

    def name_collectives(self, nodes) -> None:
        """A merge traced ``nodes``: take TF's names for its all-reduces (see
        ``collective``)."""
        for node in nodes:
            if type(node) is func_graph.Node and \
                    getattr(node.fn, "__name__", "") == "batch_reduce_to":
                self.collectives[id(node)] = _Collective(self.graph, node, self.n)

    def _as_shards(self, r, outputs):
        expanded = func_graph.expand(outputs)
        flat = nest.flatten(expanded)
        k = iter(range(len(flat)))
        flat = [t._renamed(f"{self.output_names[next(k)][1][r]}:0")
                if func_graph.is_symbolic(t) else t for t in flat]
        return func_graph.collapse(nest.pack_sequence_as(expanded, flat))

    # --- get_operations ---------------------------------------------------------------------
    def list_operations(self, builder, nodes) -> None:
        """Add the program's operations to ``builder`` (graph_operations._Builder)."""
        builder.taken.update(n.lower() for n in self._names())
        by_id = builder.by_id
        consts = [builder.add(c, "Const").outputs[0] for c in self.consts]
        for node in nodes:
            if id(node) in self.value_nodes:
                builder.node(node)
        outside = {tid: by_id.get(tid) for ids in self.inputs for tid in ids}
        parts = [consts] + [[outside[ids[k]] for ids in self.inputs]
                            for k in range(len(self.inputs[0]))]   # [input][replica]
        known = [[True] * self.n] + [[_known(builder, ids[k]) for ids in self.inputs]
                                     for k in range(len(parts) - 1)]
        shapes, maxima = self._list_shapes(builder, parts, known)
        real = self.padding.list_padded(builder, parts, shapes, maxima)
        fan_in = [builder.add(name, "TPUReplicatedInput", [p for p in ps if p is not None]
                              ).outputs[0] for name, ps in zip(self.input_names, parts + real)]
        builder.add(self.pivot, "NoOp", (), ())
        builder.add(self.metadata, "TPUReplicateMetadata", (), ())
        self.padding.list_dynamic(builder, fan_in, len(parts))
        replicated = [builder.add(name, "Identity", [t]).outputs[0]
                      for name, t in zip(self.replicated, fan_in)]
        for tid, t in zip(self.inputs[0], replicated[1:]):
            by_id[tid] = t
        pending: dict = {}   # a merge's Identity output ids -> its collective
        for node in nodes:
            if id(node) in self.copies or id(node) in self.value_nodes:
                continue
            if _is_replica_id(node):   # TF: the replica id is input 0
                by_id.update((tid, replicated[0]) for _, tid in node.out_slots)
                continue
            member = getattr(node, "members", {0: node})[0]
            collective = self.collectives.get(id(member))
            if collective is not None:
                pending.update(dict.fromkeys(collective.list_sums(builder, member),
                                             collective))
                continue
            builder.node(member)
            for _, tid in getattr(member, "slots", ()):
                if tid in pending:
                    pending.pop(tid).identity_listed(builder, member)
        if self.flat:
            builder.add(self.noop, "NoOp", (), ())
        names = iter(self.identities)
        inner = []
        for tid in self.outputs[0]:
            t = builder.add(next(names), "Identity", [by_id[tid]] if tid in by_id else [])
            if not self.flat:   # TF: an identity of the identity
                t = builder.add(next(names), "Identity", t.outputs)
            inner.append(t.outputs[0])
        builder.add(self.compilation, "TPUCompilationResult")
        for shard in self.no_outputs:
            builder.add(shard, "NoOp", (), ())
        for tid, t in outside.items():   # outside the computation, the tensors themselves
            if t is not None:
                by_id[tid] = t
        for k, ((name, shards), t) in enumerate(zip(self.output_names, inner)):
            out = builder.add(name, "TPUReplicatedOutput", [t], [(None, None)] * self.n)
            for r, shard in enumerate(shards):
                by_id[self.outputs[r][k]] = builder.add(
                    shard, "Identity", out.outputs[r:r + 1]).outputs[0]

    def _list_shapes(self, builder, parts, known) -> tuple:
        """The padding inputs (see the glossary): Shapes replica by replica, then each
        input's stack and Max; the Shapes ([input][replica]) and Maxes ([input])."""
        shapes = [[None] * self.n for _ in parts]   # [input][replica]
        for r, names in enumerate(self.shapes):
            for k, name in enumerate(names):
                t = parts[k][r]
                shapes[k][r] = builder.add(name, "Const" if known[k][r] else "Shape",
                                           [] if known[k][r] or t is None else [t]).outputs[0]
        maxima = []
        for (stack, top), per_replica in zip(self.maxima, shapes):
            packed = builder.add(stack, "Pack", per_replica).outputs[0]
            axis = builder.const(f"{top}/reduction_indices", None)
            maxima.append(builder.add(top, "Max", [packed, axis]).outputs[0])
        return shapes, maxima

    def _names(self):
        yield from self.consts
        for names in self.shapes:
            yield from names
        for names in self.maxima:
            yield from names
        yield from self.no_outputs
        yield from self.input_names
        yield from (n for n in (self.pivot, self.metadata, self.noop, self.compilation) if n)
        yield from self.replicated
        yield from self.padding.names_taken()
        yield from self.identities
        for name, shards in self.output_names:
            yield name
            yield from shards


class _Collective:
    """The TF names and ops of one traced all-reduce (see ``collective``)."""

    def __init__(self, graph, node, n):
        args, _ = nest.pack_sequence_as(node.structure, node.leaves)
        self.mean = getattr(args[1], "value", args[1]) == "MEAN"
        self.values = [_first(value)._id for value, _ in args[2]]
        self.n = n
        name = graph.unique_name
        self.names = [((name("scalar"), name("Mul")) if self.mean else None,
                       name("CrossReplicaSum")) for _ in self.values]
        self.identity_n = name("IdentityN")
        self.sums: list = []
        self.identities: dict = {}   # the merge's Identity output id -> its value's index

    def list_sums(self, builder, node) -> list:
        """List each value's cross-replica sum; the ids the merge's Identities read."""
        outs = [tid for _, tid in node.out_slots]
        read = []
        for k, (tid, (scaled, crs)) in enumerate(zip(self.values, self.names)):
            value = builder.by_id.get(tid)
            inputs = [value] if value is not None else []
            if scaled is not None:
                scalar = builder.const(scaled[0], None)
                inputs = builder.add(scaled[1], "Mul", [scalar] + inputs).outputs
            groups = builder.const(f"{crs}/group_assignment", None)
            total = builder.add(crs, "CrossReplicaSum", inputs + [groups]).outputs[0]
            self.sums.append(total)
            builder.by_id[outs[k * self.n]] = total   # replica 0's result of value k
            read.append(outs[k * self.n])
        self.expected = len(read)
        return read

    def identity_listed(self, builder, node) -> None:
        """The merge's Identity of one value listed; after the last, the IdentityN that
        later ops read."""
        for _, tid in node.out_slots[:1]:
            self.identities[tid] = len(self.identities)
        if len(self.identities) < self.expected:
            return
        values = [builder.by_id[t] for t in self.values if t in builder.by_id]
        op = builder.add(self.identity_n, "IdentityN", self.sums + values,
                         [(None, None)] * (len(self.sums) + len(values)))
        for tid, k in self.identities.items():
            builder.by_id[tid] = op.outputs[k]


def _first(value):
    """Replica 0's tensor of a merge's value (a PerReplica's first part, or the tensor)."""
    return nest.flatten(value)[0]


def _converted(x):
    """A replica's flat input as ``tpu.replicate`` converts it (``ops.convert_to_tensor``):
    a Python value's Const, a variable's read; a tensor or None as it is."""
    from simdist.framework.ops import array_ops

    if isinstance(x, _VALUES):
        return array_ops.constant(x)
    if hasattr(x, "assign") and hasattr(x, "_as_tensor"):   # a variable
        return x._read()
    return x


def _known(builder, tid) -> bool:
    """Whether the tensor ``tid``'s shape is fully known (its Shape folds to a Const)."""
    from simdist.framework import graph_operations

    return graph_operations._known(builder.specs.get(tid))


def _is_flat(outputs) -> bool:
    """TF's xla.is_flat: None, one value, or a list or tuple of values (no nesting)."""
    if isinstance(outputs, (list, tuple)):
        return not any(isinstance(o, (list, tuple, dict)) for o in outputs)
    return not isinstance(outputs, dict)


def _is_replica_id(node) -> bool:
    from simdist.distribute import tpu_replicate

    return getattr(node, "fn", None) is tpu_replicate._replica_id
