"""``tf.debugging``: run-time checks and placement logging (names only)."""

from simdist.framework.execute import set_log_device_placement  # noqa: F401
from simdist.framework.ops.check_ops import ensure_shape  # noqa: F401
from simdist.framework.ops.control_flow_ops import Assert  # noqa: F401
from simdist.framework.ops.numerics import check_numerics  # noqa: F401
