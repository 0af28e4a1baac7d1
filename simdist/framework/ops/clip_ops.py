"""Gradient clipping: by value (math_ops), by norm, and by the global norm of a list.

Glossary:
  clip_by_norm        -- ``t * clip_norm / max(l2norm(t), clip_norm)``: unchanged when its
                         norm is at most ``clip_norm``.
  global_norm         -- ``sqrt(sum of every tensor's squared L2 norm)``.
  clip_by_global_norm -- every tensor scaled by ``clip_norm / max(global_norm, clip_norm)``;
                         returns the clipped list and the global norm (NaN scale when the
                         norm is not finite, as in TF).

Mirrors tensorflow/python/ops/clip_ops.py.
"""

from __future__ import annotations

from simdist.framework import op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """``t`` rescaled so that its L2 norm (over ``axes``) is at most ``clip_norm``."""
    t = A._t(t)
    l2sum = M.reduce_sum(M.square(t), axis=axes, keepdims=True)
    positive = M.greater(l2sum, 0)
    safe = A.where(positive, l2sum, A.ones_like(l2sum))  # no sqrt(0) in the gradient
    l2norm = A.where(positive, M.sqrt(safe), l2sum)
    clip = A.cast(A.constant(clip_norm), t.dtype)
    return M.divide(M.multiply(t, clip), M.maximum(l2norm, clip))


def global_norm(t_list, name=None):
    """``sqrt(sum(reduce_sum(t ** 2) for t in t_list))`` (None entries skipped)."""
    squares = [M.reduce_sum(M.square(A._t(t))) for t in t_list if t is not None]
    return M.sqrt(M.add_n(squares))


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """``(clipped t_list, global_norm)``: all scaled by one factor so their global norm is
    at most ``clip_norm``.

    Raises:
      TypeError: ``t_list`` is not a list or tuple.
    """
    if not isinstance(t_list, (list, tuple)):
        raise TypeError("`t_list` should be a sequence of tensors. Received "
                        f"{type(t_list)}.")
    use_norm = global_norm(t_list) if use_norm is None else A._t(use_norm)
    clip = A.cast(A.constant(clip_norm), use_norm.dtype)
    scale = M.multiply(clip, M.minimum(M.divide(1.0, use_norm), M.divide(1.0, clip)))
    finite = M.is_finite(use_norm)
    scale = A.where(finite, scale, A.constant(float("nan"), dtype=use_norm.dtype))
    clipped = [None if t is None else M.multiply(A._t(t), A.cast(scale, A._t(t).dtype))
               for t in t_list]
    return clipped, use_norm


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
