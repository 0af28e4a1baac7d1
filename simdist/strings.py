"""``tf.strings``: element-wise text ops over ``tf.string`` tensors (names only)."""

from simdist.framework import dispatch as _dispatch  # noqa: E402
from simdist.framework.ops.ragged_string_ops import (  # noqa: F401
    bytes_split,
    ngrams,
    split,
    unicode_decode,
    unicode_split,
)
from simdist.framework.ops.string_format_ops import string_format as format  # noqa: A001,F401
from simdist.framework.ops.string_ops import (  # noqa: F401
    as_string,
    join,
    length,
    lower,
    reduce_join,
    regex_full_match,
    regex_replace,
    strip,
    substr,
    to_hash_bucket_fast,
    to_number,
    upper,
)

_dispatch.export_ops(globals(), "strings")
