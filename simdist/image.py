"""``tf.image``: image conversions and adjustments (names only)."""

from simdist.framework import dispatch as _dispatch  # noqa: E402
from simdist.framework.ops.image_ops import adjust_contrast, convert_image_dtype  # noqa: F401

_dispatch.export_ops(globals(), "image")
