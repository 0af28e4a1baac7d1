"""``tf.random``: TF's Philox random numbers, stateful and stateless (names only)."""

import types

from simdist.framework.ops.random_ops import (  # noqa: F401
    Algorithm,
    normal,
    set_seed,
    shuffle,
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
    truncated_normal,
    uniform,
)

experimental = types.SimpleNamespace(Algorithm=Algorithm)
