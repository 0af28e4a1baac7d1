"""``tf.data.experimental``: the names simdist supports from TF's experimental namespace.

Glossary:
  AUTOTUNE            -- -1: let tf.data choose a buffer size / parallelism.
  AutoShardPolicy     -- OFF / AUTO / FILE / DATA / HINT (see :mod:`simdist.data.options`).
  DistributeOptions   -- ``Options().experimental_distribute``.
  cardinality(ds)     -- ``ds.cardinality()``.
  scan, group_by_window -- transformations for ``ds.apply``: ``ds.scan(...)``,
                        ``ds.group_by_window(...)`` (deprecated in TF for those methods).

Mirrors tensorflow/python/data/experimental/__init__.py.
"""

from __future__ import annotations

from simdist.data.dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from simdist.data.options import AutoShardPolicy, DistributeOptions

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "AutoShardPolicy",
           "DistributeOptions", "cardinality", "group_by_window", "scan"]


def cardinality(dataset):
    """The cardinality of ``dataset`` as an int64 Tensor (-1 infinite, -2 unknown)."""
    return dataset.cardinality()


def scan(initial_state, scan_func):
    """A transformation for ``Dataset.apply``: ``dataset.scan(initial_state, scan_func)``."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """A transformation for ``Dataset.apply``: ``dataset.group_by_window(...)``."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)
