"""The default strategy: what ``get_strategy()`` returns outside any scope (one replica, no-op).

Mirrors ``_DefaultDistributionStrategy`` in tensorflow/python/distribute/distribute_lib.py.
"""

from __future__ import annotations

from simdist.distribute.distribute_lib import ReplicaContext, SingleReplicaExtended, Strategy
from simdist.framework import context


class _DefaultReplicaContext(ReplicaContext):
    """The replica context of code outside any strategy (replica 0 of 1)."""

    @property
    def replica_id_in_sync_group(self):
        return 0


class _DefaultDistributionExtended(SingleReplicaExtended):
    def __init__(self):
        super().__init__(())
        self._default_replica_context = None

    @property
    def _num_replicas_in_sync(self) -> int:
        return 1

    @property
    def worker_devices(self):
        raise RuntimeError("worker_devices() method unsupported by default tf.distribute.Strategy.")

    @property
    def parameter_devices(self):
        raise RuntimeError(
            "parameter_devices() method unsupported by default tf.distribute.Strategy."
        )

    def _create_variable(self, next_creator, **kwargs):
        kwargs.pop("distribute_strategy", None)  # a variable of no strategy, as in TF
        return next_creator(**kwargs)

    def variable_created_in_scope(self, v) -> bool:
        return getattr(v, "_distribute_strategy", None) is None

    def _call_for_each_replica(self, fn, args, kwargs):
        with ReplicaContext(self._strategy, 0, context.current_device()):
            return fn(*args, **kwargs)



class _DefaultDistributionStrategy(Strategy):
    """Default ``tf.distribute.Strategy``: one replica, values pass through unchanged."""

    def __init__(self):
        super().__init__(_DefaultDistributionExtended())
        # No replica index: distributed values read outside any run use cross-replica rules.
        self.extended._default_replica_context = _DefaultReplicaContext(self, None)

    # One replica, no split: TF's _DefaultDistributionExtended returns the dataset itself
    # (its batches are plain tensors on the default device) and calls dataset_fn once.
    def experimental_distribute_dataset(self, dataset, options=None):
        """``dataset`` itself: the default strategy does not distribute input."""
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """``dataset_fn(InputContext())``: one input pipeline of one replica."""
        from simdist.distribute.input_lib import InputContext

        return dataset_fn(InputContext())


DefaultDistributionStrategy = _DefaultDistributionStrategy
