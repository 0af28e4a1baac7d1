"""``tf.distribute.experimental``: the experimental strategies and options."""

from simdist.distribute import coordinator, partitioners
from simdist.distribute.central_storage_strategy import CentralStorageStrategy
from simdist.distribute.collective_cross_device_ops import (
    CollectiveAllReduce,
    CommunicationImplementation,
    CommunicationOptions,
)
from simdist.distribute.distribute_lib import ValueContext
from simdist.distribute.multi_worker_mirrored_strategy import (
    _CollectiveAllReduceStrategyExperimental as MultiWorkerMirroredStrategy,
)
from simdist.distribute.parameter_server_strategy_v2 import (
    ParameterServerStrategyV2 as ParameterServerStrategy,
)
from simdist.distribute.tpu_strategy import TPUStrategyV1 as TPUStrategy

CollectiveCommunication = CommunicationImplementation   # TF's older name, kept as an alias

__all__ = ["CentralStorageStrategy", "CollectiveAllReduce", "CollectiveCommunication",
           "CommunicationImplementation",
           "CommunicationOptions", "MultiWorkerMirroredStrategy", "ParameterServerStrategy",
           "TPUStrategy", "ValueContext", "coordinator", "partitioners"]
