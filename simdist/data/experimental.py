"""``tf.data.experimental``: the names simdist supports from TF's experimental namespace.

Glossary:
  AUTOTUNE            -- -1: let tf.data choose a buffer size / parallelism.
  AutoShardPolicy     -- OFF / AUTO / FILE / DATA / HINT (see :mod:`simdist.data.options`).
  DistributeOptions   -- ``Options().experimental_distribute``.
  cardinality(ds)     -- ``ds.cardinality()``.
  scan, group_by_window, take_while, unique, rejection_resample -- transformations for ``ds.apply``:
                        ``ds.scan(...)`` ... (deprecated in TF for those methods: the first
                        call logs TF's deprecation warning).
  assert_cardinality  -- a transformation: the dataset reports that many elements and
                        checks it when iterated (simdist.data.assert_cardinality).
  CsvDataset          -- the records of CSV files (simdist.data.csv_reader).
  make_csv_dataset    -- batches of CSV records as feature dicts (simdist.data.make_csv).
  get_single_element, choose_from_datasets (``stop_on_empty_dataset=False`` here),
  Counter             -- deprecated spellings of the Dataset methods.

Mirrors tensorflow/python/data/experimental/__init__.py.
"""

from __future__ import annotations

from simdist.data.assert_cardinality import assert_cardinality
from simdist.data.csv_reader import CsvDataset
from simdist.data.dataset_ops import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetV2,
)
from simdist.data.make_csv import make_csv_dataset
from simdist.data.options import AutoShardPolicy, DistributeOptions
from simdist.platform.deprecation import deprecated

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "AutoShardPolicy",
           "Counter", "CsvDataset", "DistributeOptions", "assert_cardinality", "cardinality",
           "choose_from_datasets", "get_single_element", "group_by_window",
           "make_csv_dataset", "rejection_resample", "scan", "take_while", "unique"]

_OPS = "tensorflow.python.data.experimental.ops."


def cardinality(dataset):
    """The cardinality of ``dataset`` as an int64 Tensor (-1 infinite, -2 unknown)."""
    return dataset.cardinality()


@deprecated(_OPS + "batching", "Use `tf.data.Dataset.ragged_batch` instead.")
def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=None):
    """A transformation for ``Dataset.apply``: ``dataset.ragged_batch(batch_size)``."""
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder)


@deprecated(_OPS + "scan_ops", "Use `tf.data.Dataset.scan(...) instead")
def scan(initial_state, scan_func):
    """A transformation for ``Dataset.apply``: ``dataset.scan(initial_state, scan_func)``."""
    return lambda dataset: dataset.scan(initial_state, scan_func)


@deprecated(_OPS + "grouping", "Use `tf.data.Dataset.group_by_window(...)`.")
def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """A transformation for ``Dataset.apply``: ``dataset.group_by_window(...)``."""
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


@deprecated(_OPS + "take_while_ops", "Use `tf.data.Dataset.take_while(...)")
def take_while(predicate):
    """A transformation for ``Dataset.apply``: ``dataset.take_while(predicate)``."""
    return lambda dataset: dataset.take_while(predicate)


@deprecated(_OPS + "unique", "Use `tf.data.Dataset.unique(...)")
def unique():
    """A transformation for ``Dataset.apply``: ``dataset.unique()``."""
    return lambda dataset: dataset.unique()


@deprecated(_OPS + "resampling", "Use `tf.data.Dataset.rejection_resample(...)`.")
def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """A transformation for ``Dataset.apply``: ``dataset.rejection_resample(...)``."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist,
                                                      seed)


@deprecated(_OPS + "get_single_element", "Use `tf.data.Dataset.get_single_element()`.")
def get_single_element(dataset):
    """``dataset.get_single_element()``."""
    return dataset.get_single_element()


@deprecated(_OPS + "counter", "Use `tf.data.Dataset.counter(...)` instead.", name="CounterV2")
def Counter(start=0, step=1, dtype=None):   # noqa: N802 - TF's name
    """``tf.data.Dataset.counter(start, step, dtype)``."""
    return DatasetV2.counter(start, step, dtype)


@deprecated(_OPS + "interleave_ops",
            "Use `tf.data.Dataset.choose_from_datasets(...)` instead. Note that, unlike the "
            "experimental endpoint, the non-experimental endpoint sets "
            "`stop_on_empty_dataset=True` by default. You should set this argument explicitly "
            "in case you would like to match the behavior of the experimental endpoint.",
            name="choose_from_datasets_v2")
def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    """``Dataset.choose_from_datasets``, not stopping at an empty dataset by default."""
    return DatasetV2.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)
