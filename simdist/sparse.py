"""``tf.sparse``: sparse tensors (names only; see simdist/framework/sparse_tensor.py and
simdist/framework/ops/sparse_ops.py)."""

from simdist.framework.ops.sparse_ops import (  # noqa: F401
    add,
    concat,
    fill_empty_rows,
    map_values,
    reduce_max,
    reduce_sum,
    reorder,
    slice,  # noqa: A004 - TF's name
    sparse_dense_matmul,
    transpose,
)
from simdist.framework.sparse_tensor import SparseTensor, from_dense, to_dense  # noqa: F401
