"""``tf.math``: element-wise and reduction maths (names only)."""

from simdist.framework.ops.math_ops import *  # noqa: F401,F403
