"""``tf.random``: seeded, reproducible random tensors (names only)."""

from simdist.framework.ops.random_ops import normal, set_seed, uniform  # noqa: F401
