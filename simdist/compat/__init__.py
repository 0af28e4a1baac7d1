"""``tf.compat``: ``tf.compat.v1``, as far as TF 2 programs still use it (names only)."""

from simdist.compat import v1  # noqa: F401
