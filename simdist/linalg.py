"""``tf.linalg``: matrix products, inverses, factorisations, solves, diagonals, norms (names
only)."""

from simdist.framework import dispatch as _dispatch  # noqa: E402
from simdist.framework.ops.clip_ops import global_norm  # noqa: F401
from simdist.framework.ops.linalg_decompositions import *  # noqa: F401,F403
from simdist.framework.ops.linalg_impl import *  # noqa: F401,F403
from simdist.framework.ops.linalg_ops import *  # noqa: F401,F403
from simdist.framework.ops.special_math_ops import einsum  # noqa: F401
from simdist.framework.ops.tensordot_ops import tensordot  # noqa: F401

_dispatch.export_ops(globals(), "linalg")
