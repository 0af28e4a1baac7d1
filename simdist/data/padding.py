"""``padded_batch``: elements of different sizes batched by padding them to one shape.

Glossary:
  padded_shapes  -- per component, the shape each element is padded to: a size, or
                    ``None`` / ``-1`` for "the largest in this batch". By default the
                    component's spec shape (its unknown sizes padded to the batch's
                    largest). A component of unknown rank needs one (TF's ValueError); one
                    of another rank, or smaller than a known size, is TF's ValueError.
  padding_values -- per component, the scalar written in the padding: 0 (``b""`` for
                    strings) by default; another dtype than the component's is TF's
                    TypeError.
  too small      -- an element larger than its padded shape: TF's DataLossError when that
                    batch is made.
The element spec is the padded shapes behind the batch dimension (``None`` unless
``drop_remainder``); cardinality as ``batch``'s.

Mirrors tensorflow/python/data/ops/padded_batch_op.py and
tensorflow/core/kernels/data/padded_batch_dataset_op.cc.
"""

from __future__ import annotations

import itertools

import numpy as np

from simdist.data import structure
from simdist.data.batching import BatchDataset
from simdist.data.dataset_ops import DatasetV2, int64_argument
from simdist.framework import dtypes, errors
from simdist.framework.none_tensor import NoneTensorSpec
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec


def _padded_shape(given, spec, index) -> TensorShape:
    """One component's padded shape: ``given`` (-1 read as unknown) or the spec's.

    Raises:
      ValueError: no shape for a component of unknown rank; one that does not fit.
    """
    if given is None:
        if spec.shape.rank is None:
            raise ValueError("You must provide `padded_shapes` argument because component "
                             f"{index} has unknown rank.")
        return spec.shape
    dims = [None if d is None or int(d) == -1 else int(d)
            for d in (given.as_list() if isinstance(given, TensorShape) else list(given))]
    shape = TensorShape(dims)
    if not _fits(shape, spec.shape):
        raise ValueError(f"The padded shape {shape} is not compatible with the shape "
                         f"{spec.shape} of the corresponding input component.")
    return shape


def _fits(padded: TensorShape, shape: TensorShape) -> bool:
    """TF's ``_is_padded_shape_compatible_with``: the same rank, no padded size smaller
    than a known size of the component."""
    if padded.rank is None or shape.rank is None:
        return True
    return padded.rank == shape.rank and all(
        p is None or d is None or p >= d for p, d in zip(padded.as_list(), shape.as_list()))


def _padding_value(given, spec):
    """One component's padding scalar (a NumPy scalar of the component's dtype).

    Raises:
      TypeError: a value of another dtype (TF's text).
    """
    if given is None:
        return b"" if spec.dtype.is_string else np.zeros((), spec.dtype.as_numpy_dtype)
    value = structure.to_array(given)
    dtype = dtypes.as_dtype(value.dtype)
    if dtype != spec.dtype:
        raise TypeError(f"Invalid `padding_values`. `padding_values` values type {dtype} "
                        f"does not match type {spec.dtype} of the corresponding input "
                        "component.")
    pad = structure.to_numpy(value)
    return pad if spec.dtype.is_string else np.asarray(pad)


class PaddedBatchDataset(BatchDataset):
    """Batches of ``batch_size`` elements, each component padded to one shape."""

    def __init__(self, input_dataset, batch_size, padded_shapes=None, padding_values=None,
                 drop_remainder=False):
        batch_size = int64_argument(batch_size)
        if batch_size <= 0:
            raise errors.InvalidArgumentError(
                None, None, "Batch size must be greater than zero. [Op:PaddedBatchDatasetV2]")
        spec = input_dataset.element_spec
        leaves = structure.flatten(spec)
        for leaf in leaves:
            if isinstance(leaf, NoneTensorSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce "
                                "tensor elements but type spec of elements in the input "
                                f"dataset is not a subclass of TensorSpec: `{leaf}`.")
        shapes = [None] * len(leaves) if padded_shapes is None else \
            structure.flatten(padded_shapes if isinstance(padded_shapes, (tuple, dict))
                              else (padded_shapes,) if len(leaves) == 1 else padded_shapes)
        values = [None] * len(leaves) if padding_values is None else \
            structure.flatten(padding_values)
        if len(values) == 1 and len(leaves) > 1:
            values = values * len(leaves)
        self._shapes = [_padded_shape(g, s, i) for i, (g, s) in
                        enumerate(zip(shapes, leaves))]
        self._pads = [_padding_value(v, s) for v, s in zip(values, leaves)]
        self._batch_size, self._drop = batch_size, bool(drop_remainder)
        padded = structure.pack(spec, [TensorSpec(shape, s.dtype, s.name)
                                       for shape, s in zip(self._shapes, leaves)])
        DatasetV2.__init__(self, (input_dataset,),
                           structure.batch_spec(padded, batch_size if self._drop else None))

    def _values(self):
        it = self._inputs[0]._values()
        while True:
            chunk = list(itertools.islice(it, self._batch_size))
            if not chunk or (self._drop and len(chunk) < self._batch_size):
                return
            flats = [structure.flatten(e) for e in chunk]
            out = [self._pad(c, [np.asarray(structure.to_numpy(leaf)) for leaf in leaves])
                   for c, leaves in enumerate(zip(*flats))]
            yield structure.pack(chunk[0], [structure._as_array(v) for v in out])

    def _pad(self, c, arrays):
        """Component ``c`` of one batch: each element padded, stacked.

        Raises:
          DataLossError: an element is larger than its padded shape (TF's text).
        """
        dims = [d if d is not None else max(a.shape[i] for a in arrays)
                for i, d in enumerate(self._shapes[c].as_list())]
        pad = self._pads[c]
        strings = isinstance(pad, bytes)   # string tensors hold NumPy object arrays
        out = np.full([len(arrays)] + dims, pad, dtype=object if strings else arrays[0].dtype)
        for k, a in enumerate(arrays):
            a = a.astype(object) if strings else a
            if any(n > d for n, d in zip(a.shape, dims)):
                raise errors.DataLossError(
                    None, None, "Attempted to pad to a smaller size than the input element.")
            out[(k,) + tuple(slice(0, n) for n in a.shape)] = a if a.ndim else a[()]
        return out
