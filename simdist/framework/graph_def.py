"""``FuncGraph.as_graph_def()``: a trace's graph as TF's GraphDef lists it.

Glossary:
  NodeDef  -- one node: ``name``, ``op`` and ``input`` (the names of the tensors it reads:
              ``add`` for an op's first output, ``add:1`` for its second).
  nodes    -- the graph's operations as ``get_operations()`` lists them (graph_operations:
              Placeholders, Consts, reads, the recorded ops, an Identity per output).

Mirrors the parts of tensorflow/core/framework/graph.proto and node_def.proto that
``graph.as_graph_def().node`` readers use.
"""

from __future__ import annotations


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


def _input_name(t) -> str:
    """A NodeDef's name of the tensor it reads: ``add`` for an op's first output."""
    return t.op.name if t.value_index == 0 else t.name


def as_graph_def(graph) -> GraphDef:
    """The GraphDef of a traced FuncGraph: its operations (graph_operations), each a
    NodeDef of its name, type and inputs."""
    from simdist.framework import graph_operations

    return GraphDef(NodeDef(op.name, op.type, [_input_name(t) for t in op.inputs])
                    for op in graph_operations.operations(graph))
