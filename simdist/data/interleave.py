"""``interleave`` / ``flat_map``: a dataset per input element, their elements interleaved.

Glossary:
  cycle_length   -- how many of those datasets are open at once (TF's default, AUTOTUNE,
                    is the number of CPU cores); ``flat_map`` is ``cycle_length=1``.
  block_length   -- consecutive elements taken from one dataset before moving to the next.
  order          -- TF's InterleaveDataset: visit the slots in turn; an empty slot takes the
                    next input element's dataset and is read at once; an exhausted one is
                    closed and the cycle moves on. ``num_parallel_calls`` with the default
                    ``deterministic`` gives the same order, so it only changes speed in TF.
  captures      -- in a tf.function, a ``map_func`` reading a tensor of the trace
                    (``lambda x: Dataset.range(x + k)``) captures it as ``map``'s does
                    (simdist/data/mapping.py): the datasets it makes at each execution read
                    that execution's value.
Cardinality is unknown, as TF reports it.

Mirrors tensorflow/core/kernels/data/interleave_dataset_op.cc.
"""

from __future__ import annotations

import os

from simdist.data import structure
from simdist.data.dataset_ops import AUTOTUNE, DatasetV2, outside_the_graph
from simdist.data.mapping import traced
from simdist.data.structured_function import symbolic_args, traced_call
from simdist.framework import func_graph
from simdist.framework.tensor import NotTraceable


def _dataset_of(fn, values) -> DatasetV2:
    """``fn`` on an element, which must return a dataset.

    Raises:
      TypeError: ``fn`` returned something else.
    """
    args = structure.to_tensors(values)
    with structure.dataset_function():
        out = fn(*args) if type(args) is tuple else fn(args)
    if not isinstance(out, DatasetV2):
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                        f"{type(out)!r}.")
    return out


class InterleaveDataset(DatasetV2):
    """``map_func``'s datasets, ``cycle_length`` at a time, ``block_length`` elements each."""

    def __init__(self, input_dataset, map_func, cycle_length=None, block_length=None):
        if not callable(map_func):
            raise TypeError(f"`map_func` must be callable, got {map_func!r}.")
        if cycle_length is None or cycle_length == AUTOTUNE:
            cycle_length = os.cpu_count() or 1
        block_length = 1 if block_length is None else int(block_length)
        if int(cycle_length) <= 0 or block_length <= 0:
            raise ValueError("cycle_length and block_length must be positive, got "
                             f"{cycle_length} and {block_length}.")
        self._fn, self._cycle, self._block = map_func, int(cycle_length), block_length
        super().__init__((input_dataset,), None)

    @property
    @outside_the_graph
    def element_spec(self):
        if self._element_spec is None:
            self._captured = func_graph.captured_now()   # filled while map_func runs
            self._element_spec = self._traced_spec()
            if self._element_spec is None:   # map_func read values: its first dataset's
                self._element_spec = traced(
                    self._inputs[0], lambda first: _dataset_of(self._fn, first).element_spec)
        return self._element_spec

    def _traced_spec(self):
        """The element spec of the dataset ``map_func`` makes of a symbolic element, as TF
        traces it (``Dataset.range(x)``, ``from_tensors(tf.range(x))``: unknown sizes), or
        None where simdist cannot trace it, or inside a tf.function's trace (where it may
        read the trace's tensors: the first-element path lists them)."""
        spec = self._inputs[0].element_spec
        if spec is None or func_graph.current() is not None:
            return None   # made in a tf.function: the first-element path, which captures
        try:
            with func_graph.captured_by_use(None):
                out = traced_call(self._fn, lambda graph, host: symbolic_args(
                    graph, host, spec), "interleave_function")
        except NotTraceable:
            return None
        if not isinstance(out, DatasetV2):
            raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                            f"{type(out)!r}.")
        return out.element_spec

    def _values(self):
        inputs = self._inputs[0]._values()
        slots = [None] * self._cycle
        index = block = 0
        end_of_input = False
        while not end_of_input or any(s is not None for s in slots):
            if slots[index] is not None:
                value = next(slots[index], None)
                if value is not None:
                    yield value
                    block += 1
                    if block < self._block:
                        continue
                else:
                    slots[index] = None
            elif not end_of_input:
                element = next(inputs, None)
                if element is None:
                    end_of_input = True
                else:
                    slots[index] = iter(_dataset_of(self._fn, element)._values())
                continue
            index, block = (index + 1) % self._cycle, 0
