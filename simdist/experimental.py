"""``tf.experimental``: the shape of a ragged tensor as a value (names only; see
simdist/framework/ops/ragged_shape.py)."""

from simdist.framework.ops.ragged_shape import DynamicRaggedShape, RowPartition  # noqa: F401
