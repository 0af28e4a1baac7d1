"""The operations TF's graph lists around a TPU replicated computation (get_operations).

Glossary:
  program          -- one ``tpu.replicate`` of a trace: the nodes from ``start`` to ``end``
                      of the graph's node list (replica 0's and the other replicas' copies).
  replica ids      -- ``Const``, ``Const_1``, ... : TPUStrategy's int32 constant per replica,
                      made before the computation (tpu_strategy.py, ``tpu_function``).
  Python values    -- an argument that is a number, string or array: a Const per replica
                      (after the replica ids), and the replica function receives a tensor.
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
                      replica, which the function's outputs read.
The names are taken from the graph's names when the trace makes them, in TF's order, so
the computation's and the function's own ops are named around them as in TF.

Mirrors tensorflow/python/tpu/tpu.py (``split_compile_and_replicate``,
``_postprocess_flat_outputs``, ``_postprocess_non_flat_outputs``; xla.py ``is_flat``) and
tensorflow/python/distribute/tpu_strategy.py (``_tpu_function_creator``). Not modelled: a
variable among the arguments (TF reads it: the replica function receives a tensor).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import func_graph, nest

# what TF converts to a tensor for tpu.replicate (any other leaf but None raises there)
_VALUES = (bool, int, float, complex, str, bytes, np.ndarray, np.generic)


def _symbolic_ids(structure) -> list:
    return [t._id for t in nest.flatten(func_graph.expand(structure))
            if func_graph.is_symbolic(t)]


class ReplicatedProgram:
    """One program's names and tensors (see the module docstring)."""

    def __init__(self, graph, n):
        self.graph = graph
        self.n = n
        self.start = len(graph.nodes)
        self.end = None
        self.copies: set = set()     # ids of the other replicas' nodes
        self.value_nodes: set = set()   # ids of the Python values' Consts
        self.consts = [graph.unique_name("Const") for _ in range(n)]

    def replicated_inputs(self, replica_inputs) -> list:
        """Each replica's (args, kwargs) as the computation receives them: a Python value
        converted to a tensor (a Const per replica; TF: ``ops.convert_to_tensor`` of each
        replica's flat input), None kept; the fan-in's names taken."""
        from simdist.framework.ops import array_ops

        before = len(self.graph.nodes)
        replica_inputs = [nest.map_structure(
            lambda x: array_ops.constant(x) if isinstance(x, _VALUES) else x, inputs)
            for inputs in replica_inputs]
        self.value_nodes = {id(node) for node in self.graph.nodes[before:]}
        self.inputs = [_symbolic_ids(x) for x in replica_inputs]   # [replica][k - 1]
        name = self.graph.unique_name
        k = 1 + len(self.inputs[0])
        self.input_names = [name(f"input{i}") for i in range(k)]
        self.pivot = name(f"cluster_{self.graph.name}/pivot")
        self.metadata = name("TPUReplicateMetadata")
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
        for k in range(m):
            self.output_names.append((name(f"output{k}"), [
                name(f"output_{k}_shard_{r}") for r in range(self.n)]))
        self.graph.replicated_programs = getattr(self.graph, "replicated_programs", []) + [
            self]
        return [self._as_shards(r, o) for r, o in enumerate(outputs_per_replica)]

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
        fan_in = [builder.add(self.input_names[0], "TPUReplicatedInput", consts)]
        for k, name in enumerate(self.input_names[1:]):
            parts = [outside[ids[k]] for ids in self.inputs]
            fan_in.append(builder.add(name, "TPUReplicatedInput",
                                      [p for p in parts if p is not None]))
        builder.add(self.pivot, "NoOp", (), ())
        builder.add(self.metadata, "TPUReplicateMetadata", (), ())
        replicated = [builder.add(name, "Identity", op.outputs[:1]).outputs[0]
                      for name, op in zip(self.replicated, fan_in)]
        for tid, t in zip(self.inputs[0], replicated[1:]):
            by_id[tid] = t
        for node in nodes:
            if id(node) in self.copies or id(node) in self.value_nodes:
                continue
            if _is_replica_id(node):   # TF: the replica id is input 0
                by_id.update((tid, replicated[0]) for _, tid in node.out_slots)
                continue
            builder.node(getattr(node, "members", {0: node})[0])
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
        for tid, t in outside.items():   # outside the computation, the tensors themselves
            if t is not None:
                by_id[tid] = t
        for k, ((name, shards), t) in enumerate(zip(self.output_names, inner)):
            out = builder.add(name, "TPUReplicatedOutput", [t], [(None, None)] * self.n)
            for r, shard in enumerate(shards):
                by_id[self.outputs[r][k]] = builder.add(
                    shard, "Identity", out.outputs[r:r + 1]).outputs[0]

    def _names(self):
        yield from self.consts
        yield from self.input_names
        yield from (n for n in (self.pivot, self.metadata, self.noop, self.compilation) if n)
        yield from self.replicated
        yield from self.identities
        for name, shards in self.output_names:
            yield name
            yield from shards


def _is_flat(outputs) -> bool:
    """TF's xla.is_flat: None, one value, or a list or tuple of values (no nesting)."""
    if isinstance(outputs, (list, tuple)):
        return not any(isinstance(o, (list, tuple, dict)) for o in outputs)
    return not isinstance(outputs, dict)


def _is_replica_id(node) -> bool:
    from simdist.distribute import tpu_replicate

    return getattr(node, "fn", None) is tpu_replicate._replica_id
