"""``tf.ragged``: ragged tensors (names only; see simdist/framework/ragged_tensor.py and the
framework/ops/ragged_*.py modules)."""

from simdist.framework.ops.ragged_array_ops import boolean_mask, stack  # noqa: F401
from simdist.framework.ops.ragged_factory_ops import constant  # noqa: F401
from simdist.framework.ops.ragged_math_ops import map_flat_values, range  # noqa: F401,A004
from simdist.framework.ragged_tensor import RaggedTensor  # noqa: F401
