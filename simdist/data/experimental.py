"""``tf.data.experimental``: the names simdist supports from TF's experimental namespace.

Glossary:
  AUTOTUNE            -- -1: let tf.data choose a buffer size / parallelism.
  AutoShardPolicy     -- OFF / AUTO / FILE / DATA / HINT (see :mod:`simdist.data.options`).
  DistributeOptions   -- ``Options().experimental_distribute``.
  cardinality(ds)     -- ``ds.cardinality()``.

Mirrors tensorflow/python/data/experimental/__init__.py.
"""

from __future__ import annotations

from simdist.data.dataset_ops import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from simdist.data.options import AutoShardPolicy, DistributeOptions

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "AutoShardPolicy",
           "DistributeOptions", "cardinality"]


def cardinality(dataset):
    """The cardinality of ``dataset`` as an int64 Tensor (-1 infinite, -2 unknown)."""
    return dataset.cardinality()
