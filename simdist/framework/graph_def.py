"""``FuncGraph.as_graph_def()``: a trace's graph as TF's GraphDef lists it.

Glossary:
  NodeDef  -- one node: ``name``, ``op`` and ``input`` (the names of the tensors it reads:
              ``add`` for an op's first output, ``add:1`` for its second).
  nodes    -- a ``Placeholder`` per tensor argument (named after it), a ``Const`` per
              constant tensor an op reads and per Python number it converts, the
              recorded ops, and an ``Identity`` per output.

Mirrors the parts of tensorflow/core/framework/graph.proto and node_def.proto that
``graph.as_graph_def().node`` readers use.
"""

from __future__ import annotations

from simdist.framework import nest
from simdist.framework.tensor import Tensor


class NodeDef:
    """One node of a GraphDef."""

    def __init__(self, name: str, op: str, inputs=()):
        self.name = name
        self.op = op
        self.input = list(inputs)

    def __repr__(self):
        return f"NodeDef(name={self.name!r}, op={self.op!r}, input={self.input!r})"


class GraphDef:
    """A graph's nodes (``.node``)."""

    def __init__(self, nodes):
        self.node = list(nodes)


def _tensor_name(name: str) -> str:
    return name[:-2] if name.endswith(":0") else name


def as_graph_def(graph) -> GraphDef:
    """The GraphDef of a traced FuncGraph (see the module docstring)."""
    from simdist.framework.func_graph import SymbolicTensor

    names: dict = {}
    nodes = []
    args, kwargs = graph.structured_inputs
    for t in nest.flatten((args, kwargs)):
        if isinstance(t, SymbolicTensor):
            names[t._id] = _tensor_name(t.name)
            nodes.append(NodeDef(names[t._id], "Placeholder"))
    consts: dict = {}
    taken = {node.name for node in graph.nodes}
    body = []

    def const_name():
        i = len(consts)
        while (name := "Const" if i == 0 else f"Const_{i}") in taken:
            i += 1
        taken.add(name)
        return name

    for node in graph.nodes:
        if not hasattr(node, "leaves"):   # a cond or a while loop: one node here
            body.append(NodeDef(node.name, type(node).__name__[:-4]))
            continue
        is_const = node.name.split("_")[0] == "Const"   # tf.constant: its value is its own
        inputs = []
        slots = dict(node.slots)
        for pos, leaf in enumerate(node.leaves):
            if pos in slots:
                if slots[pos] in names:
                    inputs.append(names[slots[pos]])
            elif not is_const and (isinstance(leaf, Tensor) or (
                    isinstance(leaf, (int, float)) and not isinstance(leaf, bool))):
                # a constant tensor, or a Python number the op converts: a Const node
                key = id(leaf) if isinstance(leaf, Tensor) else ("number", pos, id(node))
                if key not in consts:
                    consts[key] = const_name()
                    nodes.append(NodeDef(consts[key], "Const"))
                inputs.append(consts[key])
        for pos, tid in node.out_slots:
            names[tid] = node.name if pos == 0 else f"{node.name}:{pos}"
        body.append(NodeDef(node.name, getattr(node.fn, "__name__", "Op"), inputs))
    nodes += body
    outs = [t for t in nest.flatten(graph.outputs) if isinstance(t, SymbolicTensor)]
    for name, t in zip(graph.output_names(), outs):
        nodes.append(NodeDef(_tensor_name(name), "Identity", [names.get(t._id, t.name)]))
    return GraphDef(nodes)
