"""``tf.ragged.constant``: a RaggedTensor of nested Python lists.

Glossary:
  depth       -- how deep the scalars sit in the nested lists; every scalar must sit at the
                 same depth (TF's ValueError otherwise).
  ragged_rank -- by default depth - 1 (every inner dimension ragged), less the inner shape's
                 length; 0 gives a dense Tensor.
  build       -- the rows' items concatenated and their row splits, level by level.

Mirrors tensorflow/python/ops/ragged/ragged_factory_ops.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute, func_graph
from simdist.framework.ragged_tensor import RaggedTensor


def _depth(value) -> int:
    return 1 + _depth(value[0]) if isinstance(value, (list, tuple)) and value else \
        (1 if isinstance(value, (list, tuple)) else 0)


def _scalar_depths(value, depth=0):
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _scalar_depths(v, depth + 1)
    else:
        yield depth


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """A RaggedTensor (or, with no ragged dimension, a Tensor) of nested Python lists.

    Raises:
      ValueError: scalars at different depths (TF's text).
    """
    depths = set(_scalar_depths(pylist))
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    depth = depths.pop() if depths else _depth(pylist)
    if ragged_rank is None:
        ragged_rank = max(0, depth - 1 - len(inner_shape or ()))
    if ragged_rank == 0:
        return execute.convert_to_tensor(pylist, dtype=dtype)
    return _build(pylist, ragged_rank, dtype)


def _build(rows, ragged_rank, dtype):
    """Rows as row splits over the concatenated items, recursively."""
    splits, items = [0], []
    for row in rows:
        items.extend(row)
        splits.append(len(items))
    if ragged_rank > 1:
        values = _build(items, ragged_rank - 1, dtype)
    else:
        values = execute.convert_to_tensor(items, dtype=dtype) if items else \
            execute.convert_to_tensor(np.zeros((0,), dtypes.as_dtype(dtype or "float32")
                                               .as_numpy_dtype))
    return RaggedTensor(values, execute.convert_to_tensor(np.asarray(splits, np.int64)),
                        internal=True)


# While a tf.function traces, a ragged constant is one node of the graph.
constant = func_graph.recorded(constant, name="RaggedConstant")
