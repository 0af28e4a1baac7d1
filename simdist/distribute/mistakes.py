"""The strategy's side of the teaching warnings (simdist.warnings): what ``run`` and
``reduce`` can see of a classic mistake, checked only when the warnings are on.

Glossary:
  undistributed input -- a tf.data Dataset, its iterator, or an element read from one,
                         passed to ``strategy.run`` of several replicas: each replica gets
                         the whole batch (TF runs it; the gradients count it R times).
  sum of means        -- ``reduce(SUM)`` of per-replica ``tf.reduce_mean`` results.
  mean of scaled      -- ``reduce(MEAN)`` of ``tf.nn.compute_average_loss`` results.
  diverged copies     -- a MirroredVariable with aggregation NONE written in replica
                         context: each replica writes only its copy; after ``run`` the
                         copies are compared, and differing ones are no longer mirrors.
"""

from __future__ import annotations

import sys
import threading

from simdist import warnings as teach
from simdist.distribute.reduce_util import ReduceOp
from simdist.distribute.values import PerReplica
from simdist.framework import nest
from simdist.hardware.backend import to_host


def check_run_args(strategy, args, kwargs) -> None:
    """Warn when ``strategy.run`` gets input that every replica would read whole."""
    replicas = strategy.num_replicas_in_sync
    if replicas <= 1:
        return
    data = sys.modules.get("simdist.data.dataset_ops")   # no dataset before tf.data loads
    datasets = () if data is None else (data.DatasetV2, data.OwnedIterator)
    for leaf in nest.flatten([list(args), list((kwargs or {}).values())]):
        if isinstance(leaf, datasets) or teach.tagged(leaf, "dataset_element"):
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


_written_lock = threading.Lock()
_written_none: dict[int, object] = {}  # id -> MirroredVariable written with NONE in this run


def note_none_write(variable) -> None:
    """Remember a replica-context write to a NONE-aggregated MirroredVariable."""
    with _written_lock:
        _written_none[id(variable)] = variable


def check_diverged() -> None:
    """After ``run``: warn if a NONE variable written in it now holds different copies."""
    with _written_lock:
        written = list(_written_none.values())
        _written_none.clear()
    for var in written:
        first = to_host(var.values[0]._value).tobytes()
        if any(to_host(c._value).tobytes() != first for c in var.values[1:]):
            teach.warn("none_aggregation_diverged", variable=var.name.split(":")[0],
                       replicas=len(var.values))
            return


