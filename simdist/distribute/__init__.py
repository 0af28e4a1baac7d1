"""``tf.distribute``: strategies, contexts, distributed values and cross-device ops.

Each name loads its own module on first use, as TF's lazy loader does: a MirroredStrategy
loads neither the parameter-server coordinator nor the multi-worker, TPU and experimental
strategies or the cluster resolvers.
"""

# name -> (module, its attribute there; None: the module itself)
_LAZY = {}
for _module, _names in {
    "collective_cross_device_ops": "HierarchicalCopyAllReduce NcclAllReduce",
    "cross_device_ops": "CrossDeviceOps ReductionToOneDevice",
    "distribute_lib": "ReplicaContext Strategy StrategyExtended",
    "distributed_variable": "AggregatingVariable DistributedVariable MirroredVariable "
                            "SyncOnReadVariable",
    "distribution_strategy_context": "experimental_set_strategy get_replica_context "
                                     "get_strategy has_strategy in_cross_replica_context",
    "input_lib": "InputContext InputOptions InputReplicationMode",
    "mirrored_strategy": "MirroredStrategy",
    "one_device_strategy": "OneDeviceStrategy",
    "parameter_server_strategy_v2": "ParameterServerStrategy=ParameterServerStrategyV2",
    "reduce_util": "ReduceOp",
    "server_lib": "Server",
    "values": "DistributedValues Mirrored PerReplica",
    "multi_worker_mirrored_strategy": "MultiWorkerMirroredStrategy",
    "tpu_strategy": "TPUStrategy",
    "cluster_resolver": "cluster_resolver=",
    "coordinator": "coordinator=",
    "experimental": "experimental=",
}.items():
    for _name in _names.split():
        _tf_name, _renamed, _attribute = _name.partition("=")
        _LAZY[_tf_name] = ("simdist.distribute." + _module,
                           (_attribute or None) if _renamed else _tf_name)


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
