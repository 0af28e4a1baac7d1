"""``tf.__operators__``: the functions behind a tensor's ``+``, ``==``, ``!=`` and ``[]``, public
so that Keras's op layers made from them (``tf.__operators__.add``) can name them (names
only).

Mirrors tensorflow/python/ops/math_ops.py (``_add_dispatch``, ``tensor_equals``,
``tensor_not_equals``) and array_ops.py (``_slice_helper``).
"""

from simdist.framework import dispatch as _dispatch
from simdist.framework.ops import math_ops as _math_ops
from simdist.framework.ops.array_ops import _getitem as getitem  # noqa: F401
from simdist.framework.ops.overloads import _equals as eq  # noqa: F401
from simdist.framework.ops.overloads import _not_equals as ne  # noqa: F401


def add(x, y, name=None):
    """``x + y`` (numbers added, strings joined): its own function, as TF's ``_add_dispatch``
    is, so that an op layer made from ``+`` is 'tf.__operators__.add', not 'tf.math.add'."""
    return _math_ops.add(x, y)


_dispatch.export_ops(globals(), "__operators__")
