"""``OneDeviceStrategy``: everything on one device, through the distribution API.

Glossary:
  device  -- variables created in scope and every op of ``run`` go there; ``run`` returns
             plain values (not PerReplica) and ``reduce`` returns its input, as in TF.

Mirrors tensorflow/python/distribute/one_device_strategy.py.
"""

from __future__ import annotations

from simdist.distribute.distribute_lib import ReplicaContext, SingleReplicaExtended, Strategy
from simdist.distribute.mirrored_strategy import canonical_device_names, resolve_devices
from simdist.framework import context


class _OneDeviceReplicaContext(ReplicaContext):
    """The replica context of OneDeviceStrategy.run."""


class OneDeviceExtended(SingleReplicaExtended):
    """``OneDeviceStrategy.extended``."""

    def __init__(self, device):
        super().__init__(resolve_devices([device]))
        self._worker_names = tuple(canonical_device_names([device]))  # a GPU soft-placed
        self._device = self._devices[0]
        self._default_device = self._device.name

    def _create_variable(self, next_creator, **kwargs):
        with context.device(self._device.name):
            return next_creator(**kwargs)

    def _call_for_each_replica(self, fn, args, kwargs):
        with context.device(self._device.name), _OneDeviceReplicaContext(
                self._strategy, 0, self._device):
            return fn(*args, **kwargs)

    def _reduce_destination(self):
        return self._device

    def _validate_colocate_with_variable(self, colocate_with_variable):
        self._validate_colocate_same_strategy(colocate_with_variable)


class OneDeviceStrategy(Strategy):
    """Runs everything on a single device (``tf.distribute.OneDeviceStrategy``)."""

    def __init__(self, device):
        super().__init__(OneDeviceExtended(device))
