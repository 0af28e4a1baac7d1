"""``Dataset.group_by_window``: elements grouped by a key, each full group reduced to a
dataset of its own.

Glossary:
  key_func         -- element -> an int64 scalar key (TF converts its result to int64: an
                      int32 tensor is TF's ValueError, a shape other than ``()`` too).
  window size      -- ``window_size``, or ``window_size_func(key)`` (int64 scalar), asked
                      the first time a key is seen; not positive: TF's InvalidArgumentError
                      at iteration.
  reduce_func      -- ``(key, window dataset) -> dataset``; a group is reduced as soon as it
                      holds its window size of elements, and all of its output is yielded
                      before the next input element is read. At the end of the input the
                      groups left are reduced in ascending key order (TF keeps them in an
                      ordered map).
  element spec     -- the spec of the dataset ``reduce_func`` returns, traced once on a key
                      and a window of the input's spec (``batch`` of it: an unknown size).
                      At iteration simdist calls ``reduce_func`` per window (TF runs its
                      graph).
Cardinality is unknown, as TF reports it.

Mirrors tensorflow/python/data/ops/group_by_window_op.py and
tensorflow/core/kernels/data/experimental/group_by_window_dataset_op.cc.
"""

from __future__ import annotations

import numpy as np

from simdist.data import structure
from simdist.data.dataset_ops import DatasetV2, outside_the_graph
from simdist.data.structured_function import StructuredFunction, traced_call
from simdist.data.windowing import ElementsDataset
from simdist.framework import dtypes, errors, execute
from simdist.framework.tensor import NotTraceable, Tensor
from simdist.framework.tensor_spec import TensorSpec

_SIZE_ERROR = ("Either the `window_size` argument or the `window_size_func` argument must "
               "be specified.")
_KEY_SPEC = TensorSpec([], dtypes.int64)


def _as_int64(value):
    """TF's wrappers of key_func and window_size_func: the result converted to int64."""
    return execute.convert_to_tensor(value, dtype=dtypes.int64)


def group_by_window(input_dataset, key_func, reduce_func, window_size=None,
                    window_size_func=None):
    """Validate the arguments (TF's ValueError) and make the dataset."""
    if (window_size is not None and window_size_func) or \
            not (window_size is not None or window_size_func):
        raise ValueError(_SIZE_ERROR)
    if window_size is not None:
        def window_size_func(unused_key):
            return window_size
    return GroupByWindowDataset(input_dataset, key_func, reduce_func, window_size_func)


def _key_tensor(key) -> Tensor:
    """A key as reduce_func gets it: an int64 scalar on the host."""
    return Tensor(structure._as_array(np.asarray(key, np.int64)), structure.host_device())


class GroupByWindowDataset(DatasetV2):
    """The datasets ``reduce_func`` makes of each full window of one key, one after another."""

    @outside_the_graph
    def __init__(self, input_dataset, key_func, reduce_func, window_size_func):
        for what, fn in (("key_func", key_func), ("reduce_func", reduce_func),
                         ("window_size_func", window_size_func)):
            if not callable(fn):
                raise TypeError(f"`{what}` must be callable, got {fn!r}.")
        spec = input_dataset.element_spec
        self._key = self._scalar_function(key_func, spec, "key_func")
        self._reduce = reduce_func
        element_spec = self._reduce_spec(reduce_func, spec)
        self._size = self._scalar_function(window_size_func, _KEY_SPEC, "window_size_func")
        self._captured = self._key.captured + self._size.captured
        super().__init__((input_dataset,), element_spec)

    @staticmethod
    def _scalar_function(fn, spec, what) -> StructuredFunction:
        """key_func / window_size_func traced, their output checked as TF does.

        Raises:
          ValueError: the output is not an int64 scalar.
        """
        out = StructuredFunction(fn, spec, what, wrap=_as_int64)
        if out.traced and out.output_spec != _KEY_SPEC:
            raise ValueError(f"Invalid `{what}`. `{what}` must return a single `tf.int64` "
                             f"scalar tensor but its return type is {out.output_spec}.")
        return out

    @staticmethod
    def _reduce_spec(reduce_func, spec):
        """The element spec of the dataset ``reduce_func`` returns, traced on a symbolic key
        and an empty window of ``spec`` (a stand-in key where that cannot be traced).

        Raises:
          TypeError: ``reduce_func`` returns something else than a dataset.
        """
        window = ElementsDataset([], spec)
        try:
            out = traced_call(reduce_func, lambda graph, host: (
                graph.symbolic_like([], dtypes.int64, host, "args_0"), window), "reduce_func")
        except NotTraceable:
            with structure.dataset_function():
                out = reduce_func(_key_tensor(0), window)
        if not isinstance(out, DatasetV2):
            got = TensorSpec(out.shape, out.dtype) if isinstance(out, Tensor) else \
                structure.spec_of(structure.to_values(out))
            raise TypeError("Invalid `reduce_func`. `reduce_func` must return a single "
                            f"`tf.data.Dataset` object but its return type is {got}.")
        return out.element_spec

    def _reduced(self, key, elements):
        """The elements of ``reduce_func(key, window of elements)``."""
        window = ElementsDataset(list(elements), self._inputs[0].element_spec)
        with structure.dataset_function():
            out = self._reduce(_key_tensor(key), window)
        yield from out._values()

    def _window_size(self, key) -> int:
        size = int(self._size(key))
        if size <= 0:
            raise errors.InvalidArgumentError(
                None, None, f"Window size must be greater than zero, but got {size}.")
        return size

    def _values(self):
        groups: dict = {}
        sizes: dict = {}
        for values in self._inputs[0]._values():
            key = int(self._key(values))
            if key not in sizes:
                sizes[key] = self._window_size(np.asarray(key, np.int64))
            group = groups.setdefault(key, [])
            group.append(values)
            if len(group) == sizes[key]:
                del groups[key]
                yield from self._reduced(key, group)
        for key in sorted(groups):   # the end of the input: what is left, by key
            yield from self._reduced(key, groups.pop(key))
