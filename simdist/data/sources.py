"""Source datasets: rows of in-memory tensors, one whole tensor, and integer ranges.

Glossary:
  TensorSliceDataset -- ``from_tensor_slices``: element ``i`` is row ``i`` of every component;
                        the components must agree on their leading dimension.
  TensorDataset      -- ``from_tensors``: a single element, the whole structure.
  RangeDataset       -- ``range``: ``start, start + step, ...`` below ``stop`` (int64).
  _rows / _row       -- the slicable-source protocol: gather rows by index (one fancy-index
                        per leaf), which ``batch`` uses to build batches without stacking.

Mirrors tensorflow/python/data/ops/from_tensor_slices_op.py, from_tensors_op.py and
range_op.py.
"""

from __future__ import annotations

import math

import numpy as np

from simdist.data import composite_rows, structure
from simdist.data.dataset_ops import DatasetV2
from simdist.framework import dtypes, errors
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec
from simdist.hardware import array_api, backend


class TensorSliceDataset(DatasetV2):
    """Slices every component of ``tensors`` along its first dimension."""

    def __init__(self, tensors):
        values = structure.to_values(tensors)
        leaves = structure.flatten(values)
        n = None
        for leaf in leaves:
            if leaf is None:   # a None component (TF's NoneTensor) has no rows
                continue
            if len(leaf.shape) == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            rows = composite_rows.nrows(leaf) if composite_rows.is_composite(leaf) else \
                leaf.shape[0]
            if n is not None and rows != n:
                raise ValueError(f"Dimensions {n} and {rows} are not compatible")
            n = rows
        self._arrays = values
        self._composite = any(composite_rows.is_composite(leaf) for leaf in leaves)
        self._n = 0 if n is None else int(n)
        super().__init__((), structure.unbatch_spec(structure.spec_of(values)))

    def _cardinality(self) -> int:
        return self._n

    def _index_stream(self):
        return self, iter(range(self._n))

    def _row(self, i):
        return structure.map_leaves(
            lambda a: composite_rows.row(a, i) if composite_rows.is_composite(a) else a[i, ...],
            self._arrays)

    def _rows(self, idx):
        """Rows ``idx`` (an int array) of every component: a contiguous slice when possible."""
        if self._composite:   # a RaggedTensor or SparseTensor component: its rows
            return structure.map_leaves(
                lambda a: composite_rows.take(a, idx) if composite_rows.is_composite(a)
                else _take(a, idx), self._arrays)
        if len(idx) and idx[-1] - idx[0] == len(idx) - 1 and _is_increasing_by_one(idx):
            start = int(idx[0])
            return structure.map_leaves(lambda a: a[start:start + len(idx), ...], self._arrays)
        return structure.map_leaves(lambda a: _take(a, idx), self._arrays)


def _take(a, idx):
    """Rows ``idx`` of an array: the Array API's take (NumPy's fancy a[ix] is not in the
    standard)."""
    xp = array_api.namespace(a)
    return xp.take(a, xp.asarray(idx) if xp is backend.xp else idx, axis=0)


def _is_increasing_by_one(idx) -> bool:
    return bool(np.all(np.diff(idx) == 1)) if len(idx) > 1 else True


class TensorDataset(DatasetV2):
    """A dataset with the single element ``tensors``."""

    def __init__(self, tensors):
        self._value = structure.to_values(tensors)
        super().__init__((), structure.spec_of(self._value))

    def _cardinality(self) -> int:
        return 1

    def _values(self):
        yield self._value


class RangeDataset(DatasetV2):
    """``start, start + step, ...`` up to (excluding) ``stop``."""

    def __init__(self, *args, output_type=None):
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Invalid `args`. The length of `args` should be between 1 and 3 "
                             f"but was {len(args)}.")
        ints = []
        for a in args:
            if isinstance(a, float) or getattr(getattr(a, "dtype", None), "is_floating", False):
                raise TypeError(f"Cannot convert {a!r} to EagerTensor of dtype int64")
            # a tensor's value (a traced source's reads its placeholder: simdist.data.
            # dataset_ops.TracedSource)
            ints.append(int(backend.to_host(a._value)) if isinstance(a, Tensor) else int(a))
        if len(ints) == 1:
            start, stop, step = 0, ints[0], 1
        elif len(ints) == 2:
            (start, stop), step = ints, 1
        else:
            start, stop, step = ints
        if step == 0:
            raise errors.InvalidArgumentError(None, None, "step must be a non-zero integer.")
        self._start, self._step = start, step
        self._dtype = dtypes.int64 if output_type is None else dtypes.as_dtype(output_type)
        self._n = max(0, math.ceil((stop - start) / step))
        super().__init__((), TensorSpec((), self._dtype))

    def _cardinality(self) -> int:
        return self._n

    def _index_stream(self):
        return self, iter(range(self._n))

    def _row(self, i):
        return backend.xp.asarray(self._start + self._step * i, dtype=self._dtype.as_numpy_dtype)

    def _rows(self, idx):
        xp = backend.xp
        ix = xp.asarray(idx, dtype="int64")
        return array_api.astype(self._start + self._step * ix, self._dtype.as_numpy_dtype)
