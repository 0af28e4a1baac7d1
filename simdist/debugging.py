"""``tf.debugging``: run-time checks and placement logging (names only)."""

from simdist.framework.execute import set_log_device_placement  # noqa: F401
from simdist.framework.ops.assert_ops import (  # noqa: F401
    assert_all_finite,
    assert_equal,
    assert_greater,
    assert_greater_equal,
    assert_less,
    assert_less_equal,
    assert_near,
    assert_negative,
    assert_non_negative,
    assert_non_positive,
    assert_none_equal,
    assert_positive,
    assert_rank,
    assert_scalar,
    assert_type,
)
from simdist.framework.ops.check_ops import ensure_shape  # noqa: F401
from simdist.framework.ops.control_flow_ops import Assert  # noqa: F401
from simdist.framework.ops.numerics import check_numerics  # noqa: F401
