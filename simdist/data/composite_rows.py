"""RaggedTensors and SparseTensors as dataset components: their rows, batches and specs.

Glossary:
  composite leaf -- a component of an element (inside the pipeline) that is a RaggedTensor
                    or a SparseTensor, carried as itself (other components are arrays).
  row            -- row i of a composite leaf: of a RaggedTensor of one ragged dimension a
                    dense row (an array: TF's element of spec RaggedTensorSpec with
                    ragged_rank 0 is a Tensor), of a deeper one a RaggedTensor; of a
                    SparseTensor the SparseTensor of its entries in row i.
  take           -- rows ``idx`` as one composite (a batch of a sliced source): a
                    RaggedTensor of those rows, a SparseTensor of those rows' entries.
  batch          -- elements' composites (a map's outputs) as one: RaggedTensors stacked,
                    SparseTensors under a new leading dimension (the largest dense shape).
  specs          -- RaggedTensorSpec / SparseTensorSpec; batching adds a leading
                    dimension (a ragged one more ragged dimension), unbatching removes it.
  ragged_batch   -- dense elements of any lengths as the rows of a RaggedTensor (scalars
                    stacked); ``Dataset.ragged_batch`` and
                    ``tf.data.experimental.dense_to_ragged_batch``.

Mirrors tensorflow/python/ops/ragged/ragged_tensor.py's and
tensorflow/python/framework/sparse_tensor.py's batch/unbatch of their type specs, and
tensorflow/python/data/ops/ragged_batch_op.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute
from simdist.framework.composite_specs import RaggedTensorSpec, SparseTensorSpec
from simdist.framework.ragged_tensor import RaggedTensor, host
from simdist.framework.sparse_tensor import SparseTensor
from simdist.framework.tensor_shape import TensorShape
from simdist.hardware import backend


def is_composite(x) -> bool:
    return isinstance(x, (RaggedTensor, SparseTensor))


def is_composite_spec(s) -> bool:
    return isinstance(s, (RaggedTensorSpec, SparseTensorSpec))


def nrows(x) -> int:
    if isinstance(x, RaggedTensor):
        return x.nrows_int()
    return int(host(x.dense_shape)[0])


def row(x, i: int):
    """Row ``i`` of a composite leaf (see the module glossary)."""
    if isinstance(x, RaggedTensor):
        out = x[int(i)]
        return out if isinstance(out, RaggedTensor) else out._value
    idx, shape = host(x.indices), host(x.dense_shape)
    keep = idx[:, 0] == int(i)
    values = execute.execute("SparseSlice", [x.values], host(x.values)[keep])
    return SparseTensor(idx[keep][:, 1:], values, shape[1:])


def take(x, idx):
    """Rows ``idx`` of a composite leaf as one composite."""
    from simdist.framework.ops.ragged_getitem import gather_rows

    idx = np.asarray(idx, np.int64)
    if isinstance(x, RaggedTensor):
        return gather_rows(x, idx)
    entries, shape = host(x.indices), host(x.dense_shape)
    picks = [(j, np.flatnonzero(entries[:, 0] == i)) for j, i in enumerate(idx)]
    order = np.concatenate([p for _, p in picks]).astype(np.int64) if picks else \
        np.zeros(0, np.int64)
    new_rows = np.concatenate([np.full(len(p), j, np.int64) for j, p in picks]) if picks \
        else np.zeros(0, np.int64)
    new = np.concatenate([new_rows[:, None], entries[order][:, 1:]], axis=1)
    values = execute.execute("SparseSlice", [x.values], host(x.values)[order])
    return SparseTensor(new, values, np.concatenate([[len(idx)], shape[1:]]))


def rows_of(x, start: int, stop: int):
    """Rows ``start`` to ``stop`` of a leaf, composite or array, as one leaf."""
    if not is_composite(x):
        return x[start:stop, ...]
    return take(x, np.arange(start, min(stop, nrows(x))))


def count_rows(x) -> int:
    return nrows(x) if is_composite(x) else x.shape[0]


def concat_rows(parts):
    """Leaves' rows one after another as one leaf (a rebatch joining input batches)."""
    from simdist.framework.ops import ragged_array_ops, sparse_ops
    from simdist.hardware import array_api

    if isinstance(parts[0], RaggedTensor):
        return ragged_array_ops.concat(list(parts), 0)
    if isinstance(parts[0], SparseTensor):
        return sparse_ops.concat(0, list(parts), expand_nonconcat_dims=True)
    return array_api.concat(parts)


def batch(leaves):
    """Elements' composite leaves (one component) as one batch: RaggedTensors stacked as
    the rows of a RaggedTensor of one more ragged dimension; SparseTensors as one of a new
    leading dimension, its dense shape the largest of each (TF's batch of their boxed
    variants)."""
    from simdist.framework.ops import ragged_array_ops

    if isinstance(leaves[0], RaggedTensor):
        return ragged_array_ops.stack(list(leaves))
    entries = [host(x.indices) for x in leaves]
    shapes = np.stack([host(x.dense_shape) for x in leaves])
    indices = np.concatenate([np.concatenate([np.full((len(e), 1), i, np.int64), e], axis=1)
                              for i, e in enumerate(entries)])
    values = execute.execute("SparseConcat", [x.values for x in leaves],
                             np.concatenate([host(x.values) for x in leaves]))
    return SparseTensor(indices, values, np.concatenate([[len(leaves)], shapes.max(axis=0)]))


def spec(x):
    if isinstance(x, RaggedTensor):
        return RaggedTensorSpec.from_value(x)
    return SparseTensorSpec.from_value(x)


def batch_spec(s, batch_size):
    dims = [batch_size] + (s.shape.as_list() if s.shape.rank is not None else [])
    if isinstance(s, RaggedTensorSpec):
        return RaggedTensorSpec(dims, s.dtype, s.ragged_rank + 1, s.row_splits_dtype)
    return SparseTensorSpec(dims, s.dtype)


def unbatch_spec(s):
    dims = TensorShape(s.shape).as_list()[1:]
    if isinstance(s, RaggedTensorSpec):
        return RaggedTensorSpec(dims, s.dtype, s.ragged_rank - 1, s.row_splits_dtype)
    return SparseTensorSpec(dims, s.dtype)


def ragged_batch_leaf(leaves):
    """Dense leaves (arrays) of one component as the rows of a RaggedTensor (scalars:
    stacked into a Tensor's array)."""
    arrays = [np.asarray(backend.to_host(a)) for a in leaves]
    if arrays[0].ndim == 0:
        return np.stack(arrays)
    lens = np.asarray([a.shape[0] for a in arrays], np.int64)
    values = execute.convert_to_tensor(np.concatenate(arrays))
    return RaggedTensor.from_row_lengths(values, lens, validate=False)


def ragged_batch_spec(s, batch_size):
    """The spec of a ragged batch of elements of TensorSpec ``s``."""
    from simdist.framework.tensor_spec import TensorSpec

    if s.shape.rank == 0:
        return TensorSpec([batch_size], s.dtype)
    dims = s.shape.as_list() if s.shape.rank is not None else [None]
    return RaggedTensorSpec([batch_size, None] + dims[1:], s.dtype, 1, dtypes.int64)
