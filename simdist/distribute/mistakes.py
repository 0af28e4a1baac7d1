"""The strategy's side of the teaching warnings (simdist.warnings): what ``run`` and
``reduce`` can see of a classic mistake, checked only when the warnings are on.

Glossary:
  undistributed input -- a tf.data Dataset, its iterator, or an element read from one,
                         passed to ``strategy.run`` of several replicas: each replica gets
                         the whole batch (TF runs it; the gradients count it R times).
  sum of means        -- ``reduce(SUM)`` of per-replica ``tf.reduce_mean`` results.
  mean of scaled      -- ``reduce(MEAN)`` of ``tf.nn.compute_average_loss`` results.
"""

from __future__ import annotations

from simdist import warnings as teach
from simdist.data.dataset_ops import DatasetV2, OwnedIterator
from simdist.distribute.reduce_util import ReduceOp
from simdist.distribute.values import PerReplica
from simdist.framework import nest


def check_run_args(strategy, args, kwargs) -> None:
    """Warn when ``strategy.run`` gets input that every replica would read whole."""
    replicas = strategy.num_replicas_in_sync
    if replicas <= 1:
        return
    for leaf in nest.flatten([list(args), list((kwargs or {}).values())]):
        if isinstance(leaf, (DatasetV2, OwnedIterator)) \
                or teach.tagged(leaf, "dataset_element"):
            teach.warn("undistributed_dataset", replicas=replicas)
            return


def check_reduce(strategy, reduce_op, value) -> None:
    """Warn on SUM of per-replica means and on MEAN of globally scaled losses."""
    if not isinstance(value, PerReplica) or strategy.num_replicas_in_sync <= 1:
        return
    parts = value.values
    if reduce_op == ReduceOp.SUM and all(teach.tagged(v, "batch_mean") for v in parts):
        teach.warn("sum_of_means", replicas=len(parts))
    elif reduce_op == ReduceOp.MEAN and all(teach.tagged(v, "global_scaled") for v in parts):
        teach.warn("mean_of_scaled", replicas=len(parts))
