"""``ReduceOp``: how values from several replicas are combined.

Glossary:
  SUM, MEAN  -- TF's reduce ops; MEAN is SUM divided by the number of values.
  MIN, MAX   -- element-wise extremes (listed by the API reference in the seeds).

Mirrors tensorflow/python/distribute/reduce_util.py.
"""

from __future__ import annotations

import enum

from simdist.framework.variables import VariableAggregation


class ReduceOp(enum.Enum):
    """Indicates how a set of values should be reduced."""

    SUM = "SUM"
    MEAN = "MEAN"
    MIN = "MIN"
    MAX = "MAX"

    @staticmethod
    def from_variable_aggregation(aggregation) -> ReduceOp:
        """The reduce op of a ``tf.VariableAggregation`` (SUM or MEAN only).

        Raises:
          ValueError: for NONE or ONLY_FIRST_REPLICA, which reduce nothing.
        """
        mapping = {VariableAggregation.SUM: ReduceOp.SUM, VariableAggregation.MEAN: ReduceOp.MEAN}
        op = mapping.get(aggregation)
        if op is None:
            raise ValueError(
                f"Could not convert from `tf.VariableAggregation` {aggregation} to "
                "`tf.distribute.ReduceOp` type"
            )
        return op


def as_reduce_op(reduce_op) -> ReduceOp:
    """Accept a ReduceOp or its name (``"sum"``, ``"SUM"``), as TF's ``reduce`` does.

    Raises:
      ValueError: for a name that is not a ReduceOp.
    """
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str):
        try:
            return ReduceOp(reduce_op.upper())
        except ValueError:
            raise ValueError(
                f"{reduce_op!r} is not a valid ReduceOp; use one of "
                f"{[op.value for op in ReduceOp]} (tf.distribute.ReduceOp.SUM ...)."
            ) from None
    raise TypeError(
        f"Expected `reduce_op` to be a `tf.distribute.ReduceOp`, not: {reduce_op!r}"
    )
