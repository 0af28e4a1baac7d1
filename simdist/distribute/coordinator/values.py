"""Per-worker datasets of ``ClusterCoordinator.create_per_worker_dataset``.

Glossary:
  PerWorkerDatasetFromDatasetFunction -- ``dataset_fn`` (a function, or a ``tf.function``
                   that calls ``strategy.distribute_datasets_from_function``) traced once on
                   the coordinator (a plain function wrapped in ``tf.function``, as TF), its
                   concrete function run on every worker; ``iter`` makes an iterator on
                   every worker.
  PerWorkerDatasetFromDataset -- the same from a dataset or distributed dataset object (each
                   worker gets its own copy and reads it from the start, as TF's serialized
                   copies do).
  PerWorkerDistributedIterator -- the PerWorkerValues of those iterators: pass it to
                   ``schedule``; ``next`` on it on the coordinator is refused, as TF.

Mirrors tensorflow/python/distribute/coordinator/values.py.
"""

from __future__ import annotations

from simdist.distribute.coordinator.remote_value import PerWorkerValues
from simdist.framework import context, variables


def _disallow_variable_creation(next_creator, **kwargs):
    raise ValueError("Creating variables in `dataset_fn` is not allowed.")


def _traced(dataset_fn):
    """TF traces ``dataset_fn`` once, here on the coordinator (a plain function wrapped in
    ``tf.function`` first), refusing variables, and each worker runs the concrete function:
    its Python (and the dataset functions it calls) runs once, not once per worker."""
    from simdist.framework.function import Function, function

    if not isinstance(dataset_fn, Function):
        dataset_fn = function(dataset_fn)
    with variables.variable_creator_scope(_disallow_variable_creation):
        return dataset_fn.get_concrete_function()


class PerWorkerDistributedIterator(PerWorkerValues):
    """The iterators of a per-worker dataset, one per worker."""

    def __next__(self):
        return self.get_next()

    def get_next(self, name=None):
        raise NotImplementedError("Iterating over an `AsyncDistributedIterator` is not "
                                  "supported right now.")


class PerWorkerDatasetFromDatasetFunction:
    """Datasets made by ``dataset_fn()`` on every worker."""

    def __init__(self, dataset_fn, coordinator):
        self._dataset_fn = _traced(dataset_fn)
        self._coordinator = coordinator
        self._element_spec = None

    def _make(self):
        return self._dataset_fn()

    def build(self):
        """Create the dataset on every worker (no iterator); PerWorkerValues of them."""
        return self._coordinator._create_per_worker_resources(self._make)

    def __iter__(self):
        if not context.executing_eagerly():
            raise RuntimeError("__iter__() is not supported inside of tf.function or in "
                               "graph mode.")
        values = self._coordinator._create_per_worker_resources(lambda: iter(self._make()))
        return PerWorkerDistributedIterator(values._values)

    @property
    def element_spec(self):
        """The type specification of an element (of the first worker's dataset)."""
        first = self._coordinator._cluster.workers[0]
        with context.device(first.device_name):
            return self._make().element_spec


class PerWorkerDatasetFromDataset(PerWorkerDatasetFromDatasetFunction):
    """A dataset (or distributed dataset) copied to every worker."""

    def __init__(self, dataset, coordinator):
        from simdist.data.dataset_ops import DatasetV2
        from simdist.distribute.input_lib import DistributedDataset

        if not isinstance(dataset, (DatasetV2, DistributedDataset)):
            raise ValueError("Unexpected dataset type!")
        self._dataset_fn = lambda: dataset
        self._coordinator = coordinator
        self._element_spec = None


def get_per_worker_dataset(dataset_or_dataset_fn, coordinator):
    """A per-worker dataset from a dataset function, or from a dataset."""
    if callable(dataset_or_dataset_fn):
        return PerWorkerDatasetFromDatasetFunction(dataset_or_dataset_fn, coordinator)
    return PerWorkerDatasetFromDataset(dataset_or_dataset_fn, coordinator)
