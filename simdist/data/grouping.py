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
  tracing          -- the three functions are traced once when the dataset is made, as TF
                      does (their Python runs then); ``reduce_func`` on an int64 key and a
                      window dataset argument (a DatasetSpec: ``batch`` of it has an
                      unknown size). Each full window runs its graph and gets the traced
                      dataset back, bound to that key and window
                      (simdist.data.bound_dataset).
Cardinality is unknown, as TF reports it.

Mirrors tensorflow/python/data/ops/group_by_window_op.py and
tensorflow/core/kernels/data/experimental/group_by_window_dataset_op.cc.
"""

from __future__ import annotations

import numpy as np

from simdist.data import structure
from simdist.data.dataset_ops import DatasetV2, outside_the_graph
from simdist.data.structured_function import StructuredFunction, check_callable
from simdist.data.windowing import DatasetSpec, ElementsDataset
from simdist.framework import dtypes, errors, execute
from simdist.framework.tensor import Tensor
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
        for fn in (key_func, reduce_func, window_size_func):
            check_callable(fn)
        spec = input_dataset.element_spec
        self._key = self._scalar_function(key_func, spec, "key_func")
        self._reduce_func = reduce_func
        self._reduce = self._reduce_function(reduce_func, spec)
        self._size = self._scalar_function(window_size_func, _KEY_SPEC, "window_size_func")
        self._captured = self._key.captured + self._reduce.captured + self._size.captured
        super().__init__((input_dataset,), self._reduce.output_spec.element_spec)

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
    def _reduce_function(reduce_func, spec) -> StructuredFunction:
        """``reduce_func`` traced on an int64 key and a window of ``spec`` (a DatasetSpec
        argument), as TF traces it.

        Raises:
          TypeError: ``reduce_func`` returns something else than a dataset.
        """
        def must_be_dataset(out):
            if not isinstance(out, DatasetV2):
                got = TensorSpec(out.shape, out.dtype) if isinstance(out, Tensor) else \
                    structure.spec_of(structure.to_values(out))
                raise TypeError("Invalid `reduce_func`. `reduce_func` must return a single "
                                f"`tf.data.Dataset` object but its return type is {got}.")
            return out

        out = StructuredFunction(reduce_func, (_KEY_SPEC, DatasetSpec(spec)), "reduce_func",
                                 wrap=must_be_dataset)
        if not out.traced:   # its spec from a stand-in key and an empty window
            with structure.dataset_function():
                out.output_spec = DatasetSpec(must_be_dataset(reduce_func(
                    _key_tensor(0), ElementsDataset([], spec))).element_spec)
        return out

    def _reduced(self, key, elements):
        """The elements of ``reduce_func(key, window of elements)``."""
        window = ElementsDataset(list(elements), self._inputs[0].element_spec)
        if self._reduce.traced:
            out = self._reduce((np.asarray(key, np.int64), window))
        else:
            with structure.dataset_function():
                out = self._reduce_func(_key_tensor(key), window)
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
