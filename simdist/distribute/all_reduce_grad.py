"""The gradient of ``ReplicaContext.all_reduce``: an all-reduce of the incoming gradients.

Glossary:
  AllReduce op  -- recorded on the tape of each replica linking its input to its reduced
                   output; its gradient all-reduces the output gradients with the same op
                   (the adjoint of an all-sum is an all-sum), as TF's custom gradient does.

Mirrors the ``grad_wrapper`` in ReplicaContext.all_reduce,
tensorflow/python/distribute/distribute_lib.py.
"""

from __future__ import annotations

from simdist.framework import execute, op_recording, tape
from simdist.framework.tensor import Tensor


def record(reduce_op, x, y):
    """Link ``y = all_reduce(x)`` on the active tapes; returns ``y``. In a trace the link is
    also a graph node, so each execution's tapes get it."""
    if tape.active() and isinstance(x, Tensor) and isinstance(y, Tensor):
        _link(reduce_op, x, y)
        if op_recording.is_symbolic(y) and op_recording.current() is not None:
            op_recording.current().record(_link, "stateful", None, (reduce_op, x, y), {},
                                        "CollectiveAllReduceGradLink")
    return y


def _link(reduce_op, x, y):
    tape.record("CollectiveAllReduce", (x,), (y,), {"reduce_op": reduce_op})


@execute.RegisterGradient("CollectiveAllReduce")
def _all_reduce_grad(op, grad):
    from simdist.distribute import distribution_strategy_context as ds_context

    return ds_context.get_replica_context().all_reduce(op.get_attr("reduce_op"), grad)
