"""What the control-flow ops share: finding the graph being traced, and TF's structure check.

Glossary:
  graph_for               -- the FuncGraph a control-flow op must build into: the one being
                             traced on this thread (``func_graph.current()``) when one of the
                             given values is symbolic, else None (the op runs eagerly).
  assert_same_structure   -- TF's ``nest.assert_same_structure`` (``check_types=True``), as
                             ``simdist.framework.nest`` has it.

Mirrors tensorflow/python/ops/control_flow_util.py.
"""

from __future__ import annotations

from simdist.framework import func_graph, nest


def graph_for(*values):
    """The graph to build control flow into when any leaf of ``values`` is symbolic."""
    graph = func_graph.current()
    if graph is None:
        return None
    from simdist.framework import graph_control_flow

    flat = nest.flatten(graph_control_flow.to_flows(list(values)))   # a TensorArray's flow
    return graph if any(func_graph.is_symbolic(v) for v in flat) else None


# TF's structure check (types checked): tensorflow/python/util/nest.py, kept in ``nest``.
assert_same_structure = nest.assert_same_structure
