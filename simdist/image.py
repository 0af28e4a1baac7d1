"""``tf.image``: image conversions, adjustments, resizing, crops and flips (names only)."""

from simdist.framework import dispatch as _dispatch  # noqa: E402
from simdist.framework.ops.image_color_ops import (  # noqa: F401
    adjust_brightness,
    adjust_saturation,
    random_brightness,
    random_saturation,
    rgb_to_grayscale,
    stateless_random_brightness,
    stateless_random_saturation,
)
from simdist.framework.ops.image_crop_ops import (  # noqa: F401
    central_crop,
    pad_to_bounding_box,
    random_crop,
    resize_with_crop_or_pad,
    rot90,
    stateless_random_crop,
)
from simdist.framework.ops.image_decode_ops import decode_image, decode_png  # noqa: F401
from simdist.framework.ops.image_geometry_ops import (  # noqa: F401
    crop_to_bounding_box,
    flip_left_right,
    flip_up_down,
    random_flip_left_right,
    random_flip_up_down,
    stateless_random_flip_left_right,
    stateless_random_flip_up_down,
)
from simdist.framework.ops.image_ops import (  # noqa: F401
    adjust_contrast,
    convert_image_dtype,
    random_contrast,
    stateless_random_contrast,
)
from simdist.framework.ops.image_resize_ops import resize  # noqa: F401

_dispatch.export_ops(globals(), "image")
