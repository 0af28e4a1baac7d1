"""``tf.math``: element-wise and reduction maths (names only)."""

from simdist.framework import dispatch as _dispatch  # noqa: E402
from simdist.framework.ops.bincount_ops import bincount  # noqa: F401
from simdist.framework.ops.clip_ops import global_norm  # noqa: F401 - tf.linalg's too
from simdist.framework.ops.math_ops import *  # noqa: F401,F403
from simdist.framework.ops.scan_ops import *  # noqa: F401,F403
from simdist.framework.ops.sort_ops import top_k  # noqa: F401
from simdist.framework.ops.trig_ops import *  # noqa: F401,F403

_dispatch.export_ops(globals(), "math")
