"""The ``tf.nn`` loss helpers of distributed training: they read the current strategy.

Glossary:
  per-example loss     -- one loss value per example of the (per-replica) batch.
  compute_average_loss -- sum of per-example losses / *global* batch size, so that summing
                          the replicas' gradients gives the gradient of the global mean.
  scale_regularization_loss -- a regularization loss / number of replicas, for the same reason.

Mirrors compute_average_loss and scale_regularization_loss in
tensorflow/python/ops/nn_impl.py (which import tensorflow/python/distribute, as here).
"""

from __future__ import annotations

from simdist import errors
from simdist import warnings as teach
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import losses_util
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor


def _num_replicas_in_sync() -> int:
    """``get_strategy().num_replicas_in_sync`` (1 under the default strategy)."""
    return ds_context.get_strategy().num_replicas_in_sync


def _check_replica_context(fn_name: str) -> None:
    if ds_context.has_strategy() and ds_context.in_cross_replica_context():
        raise RuntimeError(
            f"You are calling `{fn_name}` in cross replica context, while it was expected "
            "to be called in replica context."
        )


def compute_average_loss(per_example_loss, sample_weight=None,
                         global_batch_size=None) -> Tensor:
    """Sum of (weighted) per-example losses divided by the global batch size.

    When ``global_batch_size`` is None it is the per-replica batch size times the current
    strategy's ``num_replicas_in_sync``. A zero global batch size gives 0.

    Raises:
      ValueError: a scalar ``per_example_loss`` or a non-scalar ``global_batch_size``.
      TypeError: a non-integer ``global_batch_size``.
      InvalidArgumentError: a negative ``global_batch_size``.
      RuntimeError: called in cross-replica context of a strategy without a batch size.
    """
    losses = A._t(per_example_loss)
    input_dtype = losses.dtype
    if losses.ndim == 0:
        raise ValueError(
            "Invalid value passed for `per_example_loss`. Expected a tensor with at least "
            f"rank 1. Received per_example_loss={losses.numpy()} with rank 0")
    if sample_weight is not None:
        losses = losses_util.scale_losses_by_sample_weight(losses, sample_weight)
    losses = A.cast(losses, input_dtype)
    if global_batch_size is None:
        _check_replica_context("compute_average_loss")
        global_batch_size = losses._value.shape[0] * _num_replicas_in_sync()
    gbs = A._t(global_batch_size)
    if gbs.ndim != 0:
        raise ValueError(f"global_batch_size must be scalar. Received: {gbs!r}")
    if not gbs.dtype.is_integer:
        raise TypeError("global_batch_size must be an integer..  Expected \"x\" to be integer "
                        f"type.  Found: tensor of dtype <dtype: '{gbs.dtype.name}'>")
    if int(gbs) < 0:
        raise errors.InvalidArgumentError(
            None, None, "global_batch_size must be non-negative..  \nCondition x >= 0 did not "
                        f"hold element-wise:\nx (shape=() dtype={gbs.dtype.name}) = \n{int(gbs)}")
    loss = M.reduce_sum(losses)
    return teach.tag(M.div_no_nan(loss, A.cast(gbs, input_dtype)), "global_scaled")


def scale_regularization_loss(regularization_loss) -> Tensor:
    """``reduce_sum(regularization_loss) / num_replicas_in_sync``.

    Raises:
      RuntimeError: called in cross-replica context of a strategy.
    """
    _check_replica_context("scale_regularization_loss")
    return teach.tag(M.truediv(M.reduce_sum(regularization_loss), _num_replicas_in_sync()),
                     "scaled_for_replicas")


# In a traced tf.function each call is one graph node, replayed in the replica's mode.
import sys as _sys  # noqa: E402

from simdist.framework import func_graph as _func_graph  # noqa: E402

_func_graph.record_module_ops(_sys.modules[__name__])

from simdist.framework import call_plan as _call_plan  # noqa: E402

_call_plan.register(compute_average_loss)   # its ops replay as kernel calls, once captured
