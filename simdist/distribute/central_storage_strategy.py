"""``CentralStorageStrategy``: variables on one parameter device, compute on every device.

Glossary:
  parameter_device -- where each variable lives (one copy, an AggregatingVariable): the
                      CPU when there are several compute devices, else the one device.
  compute_devices  -- the replicas; each reads the variables from the parameter device and
                      writes are aggregated there.

Mirrors tensorflow/python/distribute/central_storage_strategy.py and
parameter_server_strategy.py (its single-machine mode).
"""

from __future__ import annotations

from simdist.distribute import cross_device_ops as cdo
from simdist.distribute.distribute_lib import Strategy
from simdist.distribute.distributed_variable import AggregatingVariable, validate_aggregation
from simdist.distribute.mirrored_strategy import (
    MirroredExtended,
    canonical_device_names,
    resolve_devices,
)
from simdist.distribute.values import DistributedValues
from simdist.framework import context, variables
from simdist.hardware import machine as machine_lib


class CentralStorageExtended(MirroredExtended):
    """``CentralStorageStrategy.extended``."""

    def __init__(self, compute_devices, parameter_device):
        devices = resolve_devices(compute_devices)
        super().__init__(devices, cdo.ReductionToOneDevice())
        if compute_devices is not None:  # GPU names soft-placed on a CPU stay the names
            self._worker_names = tuple(canonical_device_names(compute_devices))
        # TF's ParameterServerStrategyExtended, which CentralStorage runs on, leaves it unset.
        self.experimental_enable_get_next_as_optional = False
        if parameter_device is None:
            parameter_device = devices[0].name if len(devices) == 1 else "/device:CPU:0"
        self._parameter_device_name = parameter_device  # reported as given, as TF does
        self._parameter_device = machine_lib.find_device(parameter_device)

    @property
    def parameter_devices(self):
        return (self._parameter_device_name,)

    def _validate_colocate_with_variable(self, colocate_with_variable):
        self._validate_colocate_same_strategy(colocate_with_variable)

    def _validate_update_variable(self, var):
        # ParameterServerStrategyExtended._update: any variable, its own or not.
        if not isinstance(var, (AggregatingVariable, variables.Variable)):
            raise ValueError(f"You can not update `var` {var!r}. It must be a Variable.")

    def _create_variable(self, next_creator, **kwargs):
        agg = validate_aggregation(kwargs)
        kwargs["aggregation"] = agg
        with context.device(self._parameter_device.name):
            v = next_creator(**kwargs)
        return AggregatingVariable(self._strategy, [v], agg, v.synchronization)

    def _reduce_to(self, reduce_op, value, destinations, options):
        if not isinstance(value, DistributedValues):
            return cdo.reduce_non_distributed_value(
                reduce_op, value, destinations, self._num_replicas_in_sync)
        return cdo.ReductionToOneDevice().reduce(reduce_op, value, destinations, options)

    def _batch_reduce_to(self, reduce_op, pairs, options):
        return [self._reduce_to(reduce_op, v, d, options) for v, d in pairs]


class CentralStorageStrategy(Strategy):
    """A one-machine strategy that puts all variables on a single device."""

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__(CentralStorageExtended(compute_devices, parameter_device))
