"""``tf.ragged``: ragged tensors (names only; see simdist/framework/ragged_tensor.py)."""

from simdist.framework.ragged_tensor import RaggedTensor, constant  # noqa: F401
