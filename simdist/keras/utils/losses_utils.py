"""Loss reductions: ``Reduction`` and how per-example losses become one number.

Glossary:
  Reduction.NONE                -- keep one loss per example (what a custom distributed
                                   loop needs, before ``tf.nn.compute_average_loss``).
  Reduction.SUM                 -- sum of the (weighted) losses.
  Reduction.SUM_OVER_BATCH_SIZE -- sum / number of elements: the mean over the *local*
                                   batch, which is why it is refused in a custom loop under
                                   a strategy (it would average per replica, then the
                                   gradients get summed across replicas).
  Reduction.AUTO                -- SUM_OVER_BATCH_SIZE in practice.
  scale_loss_for_distribution   -- ``fit`` divides a mean loss by num_replicas_in_sync so
                                   the summed gradients are those of the global mean.

Mirrors keras/src/utils/losses_utils.py.
"""

from __future__ import annotations

from simdist import warnings as teach
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import dtypes, execute
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops.losses_util import (  # noqa: F401 - Keras's names for them
    remove_squeezable_dimensions,
    squeeze_or_expand_dimensions,
)


class ReductionV2:
    """Types of loss reduction (``tf.keras.losses.Reduction``)."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


Reduction = ReductionV2


def reduce_weighted_loss(weighted_losses, reduction=ReductionV2.SUM_OVER_BATCH_SIZE):
    if reduction == ReductionV2.NONE:
        return weighted_losses
    loss = M.reduce_sum(weighted_losses)
    if reduction == ReductionV2.SUM_OVER_BATCH_SIZE:
        n = A.cast(A.size(weighted_losses), loss.dtype)
        loss = M.div_no_nan(loss, n)
    return loss


def compute_weighted_loss(losses, sample_weight=None,
                          reduction=ReductionV2.SUM_OVER_BATCH_SIZE):
    """Weight the per-example losses and reduce them as ``reduction`` says."""
    ReductionV2.validate(reduction)
    if reduction == ReductionV2.AUTO:
        reduction = ReductionV2.SUM_OVER_BATCH_SIZE
    if sample_weight is None:
        sample_weight = 1.0
    losses = execute.convert_to_tensor(losses)
    input_casted = not losses.dtype.is_floating
    input_dtype = losses.dtype
    if input_casted:
        losses = A.cast(losses, dtypes.float32)
    sample_weight = A.cast(execute.convert_to_tensor(sample_weight), losses.dtype)
    losses, _, sample_weight = squeeze_or_expand_dimensions(losses, None, sample_weight)
    loss = reduce_weighted_loss(M.multiply(losses, sample_weight), reduction)
    return A.cast(loss, input_dtype) if input_casted else loss


def apply_valid_mask(losses, sample_weight, mask, reduction):
    """Fold a loss's mask into its sample weights; a mean counts the valid entries only."""
    if mask is None:
        return sample_weight
    mask = A.cast(mask, losses.dtype)
    if reduction in (ReductionV2.AUTO, ReductionV2.SUM_OVER_BATCH_SIZE):
        # total/valid on valid entries: their sum over the batch size is a mean over them
        total = A.cast(A.size(mask), losses.dtype)
        mask = M.multiply(mask, M.divide(total, M.reduce_sum(mask)))
    return apply_mask(losses, sample_weight, mask)


def apply_mask(y_p, sample_weight, mask):
    """The sample weights times the predictions' mask (the mask alone without weights)."""
    if mask is None:
        return sample_weight
    mask = A.cast(mask, y_p.dtype)
    if sample_weight is None:
        return mask
    sample_weight = A.cast(sample_weight, mask.dtype)
    mask, _, sample_weight = squeeze_or_expand_dimensions(mask, None, sample_weight)
    return M.multiply(sample_weight, mask)


def scale_loss_for_distribution(loss_value):
    """``loss / num_replicas_in_sync`` when there is more than one replica."""
    n = ds_context.get_strategy().num_replicas_in_sync
    if n > 1:
        loss_value = M.multiply(loss_value, A.constant(1.0 / n, dtype=loss_value.dtype))
    return teach.tag(loss_value, "scaled_for_replicas")


