"""Rank matching of losses, labels and sample weights, shared by ``tf.nn`` and Keras.

Glossary:
  remove_squeezable_dimensions -- squeeze a trailing 1 so two ranks differ as expected.
  squeeze_or_expand_dimensions -- labels lose a trailing 1 to match predictions; weights
                                  lose or gain a trailing axis when their rank differs by
                                  one from the predictions' (a scalar weight stays scalar),
                                  so (N, 1) weights scale (N,) losses element by element
                                  instead of broadcasting to (N, N).
  scale_losses_by_sample_weight -- losses times rank-matched weights, in float32.

Mirrors tensorflow/python/ops/losses/util.py.
"""

from __future__ import annotations

from simdist.framework import dtypes, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M


def remove_squeezable_dimensions(labels, predictions, expected_rank_diff=0):
    """Squeeze a trailing 1 so that ranks differ by ``expected_rank_diff``."""
    rank_diff = predictions.ndim - labels.ndim
    if rank_diff == expected_rank_diff + 1 and predictions.shape[-1] == 1:
        predictions = A.squeeze(predictions, [-1])
    elif rank_diff == expected_rank_diff - 1 and labels.shape[-1] == 1:
        labels = A.squeeze(labels, [-1])
    return labels, predictions


def squeeze_or_expand_dimensions(y_pred, y_true=None, sample_weight=None):
    """TF's rank matching of predictions, labels and weights (see the glossary)."""
    if y_true is not None:
        if (y_pred.ndim - y_true.ndim != 1) or (y_pred.ndim and y_pred.shape[-1] == 1):
            y_true, y_pred = remove_squeezable_dimensions(y_true, y_pred)
    if sample_weight is None:
        return y_pred, y_true
    if sample_weight.ndim == 0:
        return y_pred, y_true, sample_weight
    if sample_weight.ndim - y_pred.ndim == 1:
        sample_weight = A.squeeze(sample_weight, [-1])
    elif y_pred.ndim - sample_weight.ndim == 1:
        sample_weight = A.expand_dims(sample_weight, -1)
    return y_pred, y_true, sample_weight


def scale_losses_by_sample_weight(losses, sample_weight):
    """``losses * sample_weight`` after rank matching, both cast to float32 as TF does."""
    losses = A.cast(A._t(losses), dtypes.float32)
    sample_weight = A.cast(A._t(sample_weight), dtypes.float32)
    losses, _, sample_weight = squeeze_or_expand_dimensions(losses, None, sample_weight)
    return M.multiply(losses, sample_weight)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__)
