"""``interleave`` / ``flat_map``: a dataset per input element, their elements interleaved.

Glossary:
  cycle_length   -- how many of those datasets are open at once (TF's default, AUTOTUNE,
                    is the number of CPU cores); ``flat_map`` is ``cycle_length=1``.
  block_length   -- consecutive elements taken from one dataset before moving to the next.
  order          -- TF's InterleaveDataset: visit the slots in turn; an empty slot takes the
                    next input element's dataset and is read at once; an exhausted one is
                    closed and the cycle moves on. ``num_parallel_calls`` with the default
                    ``deterministic`` gives the same order, so it only changes speed in TF.
  tracing        -- ``map_func`` is traced once when the dataset is made, as TF's
                    StructuredFunctionWrapper does (its Python runs then, once); each input
                    element runs its graph and gets the traced dataset back, bound to that
                    element's tensors (simdist.data.bound_dataset). One simdist cannot trace
                    runs its Python per element (its spec read off a first element).
  captures      -- in a tf.function, a ``map_func`` reading a tensor of the trace
                    (``lambda x: Dataset.range(x + k)``) captures it as ``map``'s does
                    (simdist/data/mapping.py): the datasets it makes at each execution read
                    that execution's value.
Cardinality is unknown, as TF reports it.

Mirrors tensorflow/python/data/ops/interleave_op.py and
tensorflow/core/kernels/data/interleave_dataset_op.cc.
"""

from __future__ import annotations

import os

from simdist.data import structure
from simdist.data.dataset_ops import AUTOTUNE, DatasetV2, outside_the_graph
from simdist.data.mapping import traced
from simdist.data.structured_function import StructuredFunction, check_callable
from simdist.framework import func_graph, held_output
from simdist.framework.tensor import Tensor


def _must_be_dataset(out):
    """TF's check of what ``map_func`` returned (a list is a tuple by then).

    Raises:
      AttributeError: a tensor (TF 2.21's error: its wrapper reads the tensor's ``_name``).
      TypeError: anything else that is not a dataset.
    """
    if func_graph.is_symbolic(out) or isinstance(out, Tensor):
        error = AttributeError("'Tensor' object has no attribute '_name'")
        error.add_note("simdist: the function given to Dataset.flat_map / interleave must "
                       "return a Dataset (e.g. tf.data.Dataset.from_tensors(x)); it returned "
                       "a Tensor.")   # shown under the traceback; str(error) is TF's text
        raise error
    if not isinstance(out, DatasetV2):
        got = tuple if isinstance(out, list) else type(out)
        raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                        f"{got!r}.")
    return out


def _dataset_of(fn, values) -> DatasetV2:
    """``fn`` on an element, run eagerly (a function simdist cannot trace).

    Raises:
      TypeError: ``fn`` returned something else than a dataset.
    """
    args = structure.to_tensors(values)
    with structure.dataset_function():
        out = fn(*args) if type(args) is tuple else fn(args)
    return _must_be_dataset(out)


class InterleaveDataset(DatasetV2):
    """``map_func``'s datasets, ``cycle_length`` at a time, ``block_length`` elements each."""

    @outside_the_graph
    def __init__(self, input_dataset, map_func, cycle_length=None, block_length=None):
        check_callable(map_func)
        if cycle_length is None or cycle_length == AUTOTUNE:
            cycle_length = os.cpu_count() or 1
        block_length = 1 if block_length is None else int(block_length)
        if int(cycle_length) <= 0 or block_length <= 0:
            raise ValueError("cycle_length and block_length must be positive, got "
                             f"{cycle_length} and {block_length}.")
        self._fn, self._cycle, self._block = map_func, int(cycle_length), block_length
        super().__init__((input_dataset,), None)
        self._function = StructuredFunction(map_func, input_dataset.element_spec,
                                            "interleave_function", wrap=_must_be_dataset)
        if self._function.traced:
            self._element_spec = self._function.output_spec.element_spec
            self._captured = self._function.captured

    @property
    @outside_the_graph
    def element_spec(self):
        if self._element_spec is None:   # an eager map_func: its first dataset's
            self._captured = func_graph.captured_now()   # filled while map_func runs
            self._element_spec = traced(
                self._inputs[0], lambda first: _dataset_of(self._fn, first).element_spec,
                self._function.printed[0])
        return self._element_spec

    def _dataset(self, element) -> DatasetV2:
        if self._function.traced:
            return self._function(element)
        with held_output.held():   # TF runs the graph: its Python printed once, traced
            return _dataset_of(self._fn, element)

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
                    slots[index] = iter(self._dataset(element)._values())
                continue
            index, block = (index + 1) % self._cycle, 0
