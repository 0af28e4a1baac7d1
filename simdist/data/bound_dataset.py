"""Datasets in and out of a traced tf.data function (``interleave``'s ``map_func``,
``group_by_window``'s ``reduce_func``, a ``map`` over a window's datasets).

Glossary:
  DatasetArgument -- a dataset-valued argument of the traced function (TF's DatasetSpec
                     argument): while tracing, a dataset of its element spec with no
                     elements and unknown cardinality; at each execution, the dataset given
                     (bound under its ``key``, ``func_graph.bound_captures``).
  template        -- the dataset the function returned when it was traced: its sources made
                     of the function's symbolic tensors are TracedSources, its own functions
                     (``map``) may capture the function's tensors.
  needed tensors  -- what a template reads at iteration: its TracedSources' tensors and the
                     tensors its functions capture (``needed``); the traced function gives
                     their values as extra outputs of each execution.
  BoundDataset    -- a template at one execution: iterated with that execution's tensors
                     and dataset arguments bound (each ``next`` runs under them), so the
                     datasets of several executions can be open at once (an interleave's
                     cycle) and no Python of the function runs again.

Mirrors TF's variant-tensor dataset outputs of a function (tensorflow/python/data/ops/
structured_function.py, dataset_ops.py's DatasetSpec._from_compatible_tensor_list).
"""

from __future__ import annotations

from simdist.data import dataset_ops
from simdist.data.dataset_ops import UNKNOWN_CARDINALITY, DatasetV2
from simdist.framework import func_graph


class DatasetArgument(DatasetV2):
    """A dataset-valued argument of a traced function (see the module docstring)."""

    def __init__(self, element_spec):
        super().__init__((), element_spec)
        self.key = ("dataset argument", id(self))

    def _given(self):
        return func_graph.bound_values().get(self.key)

    def _cardinality(self) -> int:
        given = self._given()
        return UNKNOWN_CARDINALITY if given is None else given._cardinality()

    def _values(self):
        given = self._given()
        return iter(()) if given is None else given._values()

    def _index_stream(self):
        given = self._given()
        return None if given is None else given._index_stream()


def needed(template) -> list:
    """The symbolic tensors ``template`` reads at iteration, each once."""
    out = dataset_ops.function_captures(template)
    for source in dataset_ops.traced_sources(template):
        out += [t for t in source._captured if all(t is not u for u in out)]
    return out


class BoundDataset(DatasetV2):
    """``template`` iterated with ``binding`` (``{key: value}``) bound."""

    def __init__(self, template, binding: dict):
        super().__init__((), template.element_spec)
        self._template, self._binding = template, binding

    @property
    def _tf_name(self):
        return self._template._tf_name or "_" + type(self._template).__name__

    def options(self):
        return self._template.options()

    def _cardinality(self) -> int:
        with func_graph.bound_captures(self._binding):
            return self._template._cardinality()

    def _values(self):
        with func_graph.bound_captures(self._binding):
            values = self._template._values()
        while True:
            with func_graph.bound_captures(self._binding):
                try:
                    value = next(values)
                except StopIteration:
                    return
            yield value
