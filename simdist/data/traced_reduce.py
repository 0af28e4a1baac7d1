"""A dataset reduced while a function traces, and how its graph lists it.

Glossary:
  ReduceDataset -- ``ds.reduce(initial_state, fn)`` in a trace: TF's graph takes the
                   dataset as an input of its own (``ReduceDataset/input_dataset``, a
                   Placeholder) and holds one ``ReduceDataset`` op of it and the initial
                   state, whose outputs are the final state.
  ScanDataset   -- AutoGraph's ``for x in ds`` in a trace: TF scans the dataset with the
                   loop's body (``ScanDataset`` of the dataset and the loop's state; a
                   ``TakeWhileDataset`` after it for a ``break`` / ``return`` test) and
                   reduces the scan (``ReduceDataset``).
  fold          -- how simdist runs either: an iterator and a graph loop over its optional
                   elements (optional_ops.fold). ``get_operations()`` lists TF's ops in
                   their place (``Listing``), for a fold made in the function's own graph
                   (not in a loop body or branch, which TF lists in graphs of their own).
The fold's function is traced as TF's tf.data function: its graph's name
(``Dataset_scan_scan_body``, ``reduce_fn``), ops without a scope (``mul``), the state and
the element as its arguments (``args_0``, ...), as an InaccessibleTensorError names them.
Not listed as TF: a dataset the function itself makes (TF lists its ops, ``RangeDataset``
...; here its input Placeholder stands for it) and the Consts TF makes of Python numbers in
the state (``initial_state/normalize_element/component_1``).

Mirrors tensorflow/python/data/ops/dataset_ops.py (DatasetV2.reduce) and
dataset_autograph.py (_tf_ag_dataset_for_stmt: scan, take_while, reduce), recorded from
TF 2.21 (tests/framework: function_names_cases).
"""

from __future__ import annotations

from simdist.data import optional_ops
from simdist.data.dataset_ops import OwnedIterator
from simdist.framework import func_graph, graph_control_flow, nest


def fold(ds, initial_state, reduce_fn, extra_test=None, scan=False):
    """``optional_ops.fold`` over a new iterator of ``ds`` in the current trace, listed as
    TF's ReduceDataset (``scan``: ScanDataset, then ReduceDataset)."""
    graph = func_graph.current()
    start = len(graph.nodes)
    iterator = OwnedIterator(ds)
    made = len(graph.nodes)
    initial_state = _normalized(initial_state, "" if scan else "initial_state/")
    out = optional_ops.fold(iterator, initial_state, reduce_fn, extra_test, relax_shapes=True,
                            graph_name=_function_name(reduce_fn, scan))
    if graph_control_flow.bodies() == 0:
        graph.listed_ranges.append(Listing(start, made, len(graph.nodes), scan,
                                           extra_test is not None))
    return out


def _function_name(fn, scan: bool) -> str:
    """The graph TF traces the fold's function into: AutoGraph's ``scan_body`` for
    ``Dataset.scan()`` (``Dataset_scan_scan_body``), else ``reduce_<function>``
    (structured_function's name: the transformation's and the function's, ``<``, ``>``
    and spaces left out: ``reduce_lambda``)."""
    if scan:
        return "Dataset_scan_scan_body"
    name = "reduce_" + getattr(fn, "__name__", type(fn).__name__)
    for symbol in ("<", ">", "\\", "'", " "):
        name = name.replace(symbol, "")
    return name


def _normalized(state, scope: str):
    """The state's Python numbers as TF's dataset ops convert them (``normalize_element``:
    ``<scope>normalize_element/component_<i>``, ``i`` the flat position)."""
    from simdist.framework.ops import array_ops

    flat = nest.flatten(state)
    if not any(isinstance(v, (bool, int, float)) for v in flat):
        return state
    return nest.pack_sequence_as(state, [
        array_ops.constant(v, name=f"{scope}normalize_element/component_{i}")
        if isinstance(v, (bool, int, float)) else v for i, v in enumerate(flat)])


class Listing:
    """The graph nodes ``[start, end)`` of one fold, listed as TF's dataset ops (the
    iterator's nodes ``[start, made)`` and the loop's flag are not listed)."""

    def __init__(self, start, made, end, scan, take_while):
        self.start, self.made, self.end = start, made, end
        self.scan, self.take_while = scan, take_while

    def list_operations(self, builder, nodes) -> None:
        loop = nodes[-1] if nodes else None
        if not hasattr(loop, "places"):   # not a fold's loop: listed as recorded
            for node in nodes:
                builder.node(node)
            return
        flag = loop.inputs[0]   # the loop's "has an element" flag: no op of TF's
        for node in nodes[self.made - self.start:-1]:
            if not any(tid == flag for _, tid in getattr(node, "out_slots", ())):
                builder.node(node)
        state = [builder.by_id[t] for t in loop.inputs[1:] if t in builder.by_id]
        first = "ScanDataset" if self.scan else "ReduceDataset"
        source = builder.add(builder.unique(f"{first}/input_dataset"), "Placeholder")
        if self.scan:
            source = builder.add(builder.unique("ScanDataset"), "ScanDataset",
                                 source.outputs[:1] + state)
            if self.take_while:
                source = builder.add(builder.unique("TakeWhileDataset"), "TakeWhileDataset",
                                     source.outputs[:1])
            # the reduce converts the state's Python numbers again, in its own scope
            state = [builder.add(builder.unique("initial_state/" + t.op.name), "Const", (),
                                 [(t.dtype, t.shape)]).outputs[0]
                     if t.op.name.startswith("normalize_element/") else t for t in state]
        outputs = loop.outputs[1:]
        reduced = builder.add(builder.unique("ReduceDataset"), "ReduceDataset",
                              source.outputs[:1] + state,
                              [builder.specs.get(t, (None, None, None))[1:] for t in outputs])
        for tid, out in zip(outputs, reduced.outputs):
            builder.by_id[tid] = out
