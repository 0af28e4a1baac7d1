"""``tf.debugging``: run-time checks (names only)."""

from simdist.framework.ops.control_flow_ops import Assert  # noqa: F401
