"""``tf.linspace``: ``num`` evenly spaced values from ``start`` to ``stop``.

Glossary:
  start, stop -- float tensors broadcast together (``stop`` converted to ``start``'s dtype);
                 N-D tensors give N-D ranges along ``axis``.
  delta       -- ``(stop - start) / max(num - 1, 1)``; the inner values are
                 ``start + delta * i`` for ``i`` in ``1 .. num - 2``, and the first and last
                 are ``start`` and ``stop`` themselves (not ``start + delta * (num - 1)``).
  composite   -- a Python composite of ops, as TF's, so a tape follows ``start`` and
                 ``stop`` and a trace records its ops.
  traced      -- inside a trace the composite is recorded as one node (``linspace``), run
                 on the trace's placeholders for its shape: a symbolic ``num`` (a
                 tf.function's argument) gives an unknown length along ``axis`` (None), as
                 TF's trace infers it, so one trace serves every num; a tape follows it.
                 ``get_operations()`` lists TF's ops for it (about 70 under ``linspace/``:
                 linspace_listing.py).

Mirrors tensorflow/python/ops/math_ops.py (``linspace_nd``, exported as ``tf.linspace``).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import selection_ops
from simdist.hardware import backend


def linspace_nd(start, stop, num, name=None, axis=0):
    """``num`` values from ``start`` to ``stop`` along ``axis`` (``tf.linspace``)."""
    from simdist.framework import func_graph

    if func_graph.current() is not None:   # (see ``traced``)
        named = {"name": name} if name else {}
        return linspace_of_a_tensor_num(start, stop, num, axis=axis, **named)
    return _linspace_impl(start, stop, num, axis)


def linspace_of_a_tensor_num(start, stop, num, axis=0, name=None):
    """The composite run as one recorded op while tracing (see ``traced``)."""
    return _linspace_impl(start, stop, num, axis)


def linspace_spec(graph, start, stop, num, axis=0, name=None):
    """``tf.linspace`` while tracing: a float symbolic ``num`` is TF's TypeError; else run
    on the placeholders (a symbolic num's length differs between them: unknown)."""
    if _symbolic(num) and not num.dtype.is_integer:
        raise TypeError(f"Argument `tensor` (name: num) must be of type integer. Received "
                        f"`tensor` = {num} of dtype: {num.dtype}")
    return NotImplemented


def _symbolic(x) -> bool:
    from simdist.framework import func_graph

    return func_graph.is_symbolic(x)


def _linspace_impl(start, stop, num, axis):
    start = A.convert_to_tensor(start, name="start")
    stop = A.convert_to_tensor(stop, name="stop", dtype=start.dtype)
    num = _num(num)
    shape = np.broadcast_shapes(tuple(start.shape.as_list()), tuple(stop.shape.as_list()))
    expanded_start = A.expand_dims(A.broadcast_to(start, shape), axis)
    expanded_stop = A.expand_dims(A.broadcast_to(stop, shape), axis)
    ndims = len(shape) + 1
    axis = axis if axis >= 0 else ndims + axis
    n_steps = max(num - 1, 1)
    delta = M.divide(M.subtract(expanded_stop, expanded_start),
                     A.cast(n_steps, expanded_stop.dtype))
    expanded_start = A.cast(expanded_start, delta.dtype)
    expanded_stop = A.cast(expanded_stop, delta.dtype)
    desired_range = A.cast(A.range(1, n_steps, dtype=dtypes.int64), delta.dtype)
    range_shape = [max(num - 2, 0) if i == axis else 1 for i in range(ndims)]
    res = M.add(expanded_start, M.multiply(delta, A.reshape(desired_range, range_shape)))
    concatenated = A.concat((expanded_start, res, expanded_stop), axis=axis)
    size = list(shape[:axis]) + [num] + list(shape[axis:])
    return selection_ops.slice(concatenated, [0] * ndims, size)


def _num(num) -> int:
    """``num`` as a Python int: an integer scalar (TF's ``convert_to_int_tensor``); a
    negative one fails in the range of inner points, which then ends at -1."""
    if not isinstance(num, int) or isinstance(num, bool):
        # a Python int stays one: a trace would record a Const for its tensor
        t = A.convert_to_tensor(num)
        if not t.dtype.is_integer:
            raise TypeError(f"Argument `tensor` (name: num) must be of type integer. Received "
                            f"`tensor` = {num} of dtype: {t.dtype}")
        num = int(backend.to_host(t._value))   # (a traced op: its placeholder's)
    if num < 0:
        raise errors.InvalidArgumentError(
            None, None, "Requires start <= limit when delta > 0: 1/-1 [Op:Range]")
    return num


linspace = linspace_nd


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
linspace_of_a_tensor_num = op_recording.recorded(
    linspace_of_a_tensor_num, kind="spec", spec=linspace_spec, name="linspace")
