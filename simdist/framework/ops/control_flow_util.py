"""What the control-flow ops share: finding the graph being traced, and TF's structure check.

Glossary:
  graph_for               -- the FuncGraph a control-flow op must build into: the one being
                             traced on this thread (``func_graph.current()``) when one of the
                             given values is symbolic, else None (the op runs eagerly).
  assert_same_structure   -- TF's ``nest.assert_same_structure`` with ``check_types=True``:
                             ValueError when the element counts differ, TypeError when a
                             list meets a tuple, with TF's first line "The two structures
                             don't have the same nested structure."

Mirrors tensorflow/python/ops/control_flow_util.py and the check of tensorflow/python/util/nest.py.
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


def _short(structure) -> str:
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k!r}: {_short(structure[k])}" for k in structure) + "}"
    if isinstance(structure, (list, tuple)):
        inner = ", ".join(_short(x) for x in structure)
        if isinstance(structure, list):
            return f"[{inner}]"
        return f"({inner}{',' if len(structure) == 1 else ''})"
    return "."


def _describe(x) -> str:
    return f"type={type(x).__name__} str={x}"


def _mismatch(a, b):
    """(exception type, detail) for the first difference, or None when they match."""
    if nest.is_nested(a) != nest.is_nested(b):
        seq, other = (a, b) if nest.is_nested(a) else (b, a)
        return ValueError, (f'Substructure "{_describe(seq)}" is a sequence, while '
                            f'substructure "{_describe(other)}" is not')
    if not nest.is_nested(a):
        return None
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)):
        return TypeError, ("The two namedtuples don't have the same sequence type. First "
                           f"structure {_describe(a)} has type {type(a).__name__}, while "
                           f"second structure {_describe(b)} has type {type(b).__name__}")
    if len(a) != len(b):
        return ValueError, ("The two structures don't have the same number of elements. "
                            f"First structure: {_describe(a)}. Second structure: "
                            f"{_describe(b)}")
    if isinstance(a, dict) and sorted(a) != sorted(b):
        return ValueError, ("The two dictionaries don't have the same set of keys. First "
                            f"structure has keys {list(a)}, while second structure has keys "
                            f"{list(b)}.")
    for x, y in zip(nest._children(a), nest._children(b)):
        found = _mismatch(x, y)
        if found is not None:
            return found
    return None


def assert_same_structure(a, b) -> None:
    """Raise as TF's ``nest.assert_same_structure(a, b)`` (types checked) does.

    Raises:
      ValueError: different nesting or element counts.
      TypeError: a sequence of another type (a list where a tuple was).
    """
    found = _mismatch(a, b)
    if found is None:
        return
    error, detail = found
    raise error(
        "The two structures don't have the same nested structure.\n\n"
        f"First structure: {_describe(a)}\n\nSecond structure: {_describe(b)}\n\n"
        f"More specifically: {detail}\nEntire first structure:\n{_short(a)}\n"
        f"Entire second structure:\n{_short(b)}")
