"""``tf.sparse``: sparse tensors (names only; see simdist/framework/sparse_tensor.py)."""

from simdist.framework.sparse_tensor import SparseTensor, from_dense, to_dense  # noqa: F401
