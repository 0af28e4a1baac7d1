"""``tf.distribute.coordinator``: the ClusterCoordinator of ParameterServerStrategy."""

from simdist.distribute.coordinator.cluster_coordinator import ClusterCoordinator
from simdist.distribute.coordinator.remote_value import (
    PerWorkerValues,
    RemoteValue,
    RemoteValueStatus,
)

PerWorkerValue = PerWorkerValues  # TF's name under tf.distribute.coordinator

__all__ = ["ClusterCoordinator", "PerWorkerValue", "PerWorkerValues", "RemoteValue",
           "RemoteValueStatus"]
