"""``tf.distribute``: strategies, contexts, distributed values and cross-device ops."""

from simdist.distribute import all_reduce_grad as _all_reduce_grad
from simdist.distribute import coordinator
from simdist.distribute.collective_cross_device_ops import (
    HierarchicalCopyAllReduce,
    NcclAllReduce,
)
from simdist.distribute.cross_device_ops import CrossDeviceOps, ReductionToOneDevice
from simdist.distribute.distribute_lib import (
    ReplicaContext,
    Strategy,
    StrategyExtended,
)
from simdist.distribute.distributed_variable import (
    AggregatingVariable,
    DistributedVariable,
    MirroredVariable,
    SyncOnReadVariable,
)
from simdist.distribute.distribution_strategy_context import (
    experimental_set_strategy,
    get_replica_context,
    get_strategy,
    has_strategy,
    in_cross_replica_context,
)
from simdist.distribute.input_lib import InputContext, InputOptions, InputReplicationMode
from simdist.distribute.mirrored_strategy import MirroredStrategy
from simdist.distribute.one_device_strategy import OneDeviceStrategy
from simdist.distribute.parameter_server_strategy_v2 import (
    ParameterServerStrategyV2 as ParameterServerStrategy,
)
from simdist.distribute.reduce_util import ReduceOp
from simdist.distribute.server_lib import Server
from simdist.distribute.values import DistributedValues, Mirrored, PerReplica

# Loaded on first use (as TF's lazy loader does): the multi-worker, TPU and experimental
# strategies and the cluster resolvers are a good part of ``import simdist``.
_LAZY = {
    "cluster_resolver": ("simdist.distribute.cluster_resolver", None),
    "experimental": ("simdist.distribute.experimental", None),
    "MultiWorkerMirroredStrategy": ("simdist.distribute.multi_worker_mirrored_strategy",
                                    "MultiWorkerMirroredStrategy"),
    "TPUStrategy": ("simdist.distribute.tpu_strategy", "TPUStrategy"),
}


def __getattr__(name):
    import importlib

    if name not in _LAZY:
        raise AttributeError(f"module 'simdist.distribute' has no attribute {name!r}")
    module_name, attr = _LAZY[name]
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
