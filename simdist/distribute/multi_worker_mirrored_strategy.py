"""``MultiWorkerMirroredStrategy``: synchronous data parallelism across the hosts of a cluster.

Glossary:
  workers        -- the ``chief`` and ``worker`` tasks of the cluster (TF_CONFIG); each is a
                    simulated host with the local machine's GPUs (or its CPU), its devices
                    named ``/job:worker/replica:0/task:i/device:GPU:j``.
  two modes      -- (process_cluster.runs_as_processes) a TF_CONFIG task whose address is
                    on this machine is one worker of a cluster of processes: it owns its
                    host's replicas, ``num_replicas_in_sync`` counts the cluster and
                    ``experimental_local_results`` holds its own; otherwise (``host1:2222``,
                    or SIMDIST_CLUSTER_MODE=simulate) this process plays every worker in
                    lock-step and its results hold every replica.
  chief          -- ``chief`` 0, else ``worker`` 0 (an evaluator is its own):
                    ``should_checkpoint`` and ``should_save_summary`` only there.
  collectives    -- CollectiveAllReduce with the strategy's CommunicationOptions, over the
                    machine's topology (one worker) or an InfiniBand fat-tree of the hosts,
                    for every reduction of per-replica values (CPUs too), as TF; all_gather
                    and strategy.gather, and the chief's broadcast of initial values, are
                    collectives too (broadcast_to is not, as in TF); between processes the
                    same schedules trade their steps over the Peers.
  faults         -- each strategy.run is a step for simdist.faults (a simulated cluster).
  input          -- each worker reads its auto-sharded part of the dataset
                    (``simdist.data.distribute.rebatch_for_worker``).
  experimental   -- ``tf.distribute.experimental.MultiWorkerMirroredStrategy``: TF's
                    deprecated class, (communication, cluster_resolver) (its first call
                    logs TF's deprecation text).
  startup        -- the strategy sets up the collectives as the program starts (TF's
                    configure_collective_ops); made after the devices were initialized (an
                    op ran, or they were listed: another strategy does) a one-worker one
                    warns, as TF, each time until one made at startup set them up, and one
                    of a TF_CONFIG cluster raises TF's RuntimeError; a second set-up that
                    differs (another cluster task, or none) raises TF's ValueError.

Mirrors tensorflow/python/distribute/collective_all_reduce_strategy.py.
"""

from __future__ import annotations

from simdist.distribute import collective_listing, faults, multi_worker_util
from simdist.distribute import cross_device_ops as cdo
from simdist.distribute.cluster_resolver import TFConfigClusterResolver
from simdist.distribute.collective_cross_device_ops import (
    CollectiveAllReduce,
    CommunicationImplementation,
    CommunicationOptions,
)
from simdist.distribute.distribute_lib import Strategy
from simdist.distribute.distributed_variable import MirroredVariable
from simdist.distribute.mirrored_strategy import MirroredExtended, default_devices
from simdist.distribute.values import DistributedValues, Mirrored, PerReplica
from simdist.framework import context, execute, func_graph, nest
from simdist.framework.tensor import copy_to
from simdist.hardware import array_api, backend
from simdist.hardware import machine as machine_lib
from simdist.platform import deprecation

WORKER_JOBS = ("chief", "worker")


def _cluster_topology(num_workers, gpus, kind):
    from simdist.hardware.topologies.multinode import fat_tree

    if gpus == 0:
        return None
    try:
        return fat_tree(num_nodes=num_workers, gpus_per_node=gpus, gpu=kind,
                        nics_per_node=min(4, gpus))
    except (KeyError, ValueError):
        return fat_tree(num_nodes=num_workers, gpus_per_node=gpus, gpu="A100",
                        nics_per_node=min(4, gpus))


def _training_tasks(spec, task_type, task_id) -> list:
    """The (job, index) of every task that trains with this one, validated as TF does."""
    if not spec.as_dict():
        return []
    if task_type is None or task_id is None:
        raise ValueError("When `cluster_spec` is given, you must also specify `task_type` "
                         "and `task_id`.")
    multi_worker_util.id_in_cluster(spec, task_type, task_id)
    multi_worker_util.worker_count(spec, task_type)
    if task_type == "evaluator":
        return [("evaluator", task_id)]
    return [(job, i) for job in WORKER_JOBS if job in spec.jobs
            for i in range(spec.num_tasks(job))]


def _configure_collective_ops(local, spec, task_type, task_id) -> None:
    """TF's ``context.configure_collective_ops`` as the strategy calls it: once per program,
    before the eager context is initialized. A one-worker strategy (no cluster) made after
    that logs TF's warning and goes on; one of a TF_CONFIG cluster raises TF's RuntimeError
    (before any connection); a second configuration that differs raises its ValueError."""
    cluster = bool(spec.as_dict())
    config = ((multi_worker_util.collective_leader(spec, task_type, task_id),
               (f"/job:{task_type}/task:{task_id}",)) if cluster else ("", None))
    if local.collective_ops is not None:
        if local.collective_ops != config:
            raise ValueError("Collective ops are already configured.")
        return
    if not local.initialized:
        local.collective_ops = config
    elif cluster:
        raise RuntimeError("Collective ops must be configured at program startup")
    else:
        from simdist.platform.tf_logging import get_logger  # logging loads at first use

        get_logger().warning("Collective ops is not configured at program startup. "
                             "Some performance features may not be enabled.")


class CollectiveAllReduceExtended(MirroredExtended):
    """``MultiWorkerMirroredStrategy.extended``."""

    def __init__(self, cluster_resolver, communication_options):
        spec = cluster_resolver.cluster_spec()
        task_type, task_id = cluster_resolver.task_type, cluster_resolver.task_id
        tasks = _training_tasks(spec, task_type, task_id)
        local = machine_lib.get_machine()
        _configure_collective_ops(local, spec, task_type, task_id)
        topology = None
        self._is_chief = (not tasks) or multi_worker_util.is_chief(spec, task_type, task_id)
        self._cluster = None
        options = communication_options or CommunicationOptions()
        if len(tasks) <= 1:
            devices = default_devices()
            self._worker_index = 0
        else:
            gpus = len(local.list_physical_devices("GPU"))
            hosts = [machine_lib.Machine(gpus=gpus, gpu_kind=local.gpu_kind, job=job, task=i,
                                         trace=local.trace) for job, i in tasks]
            machine_lib.register_cluster(hosts)
            devices = [d for h in hosts for d in (h.devices_of_type("GPU")
                                                  or h.devices_of_type("CPU"))]
            self._worker_index = tasks.index((task_type, task_id))
            self._hosts = hosts
            topology = _cluster_topology(len(tasks), gpus, local.gpu_kind)
            # Sockets and multiprocessing load only for a TF_CONFIG cluster (import time).
            from simdist.distribute import process_cluster

            if process_cluster.runs_as_processes(spec, task_type, task_id):
                # One task of a cluster of processes: it owns its own host's replicas only;
                # collectives trade the other hosts' parts over the network.
                per_worker = len(devices) // len(tasks)
                owner = [r // per_worker for r in range(len(devices))]
                self._cluster = process_cluster.ProcessCluster(
                    spec, tasks, self._worker_index, owner,
                    process_cluster.cluster_timeout(options.timeout_seconds))
                self._cluster_devices = devices
                devices = devices[self._worker_index * per_worker:
                                  (self._worker_index + 1) * per_worker]
        self._num_workers = max(len(tasks), 1)
        ops = CollectiveAllReduce(options)
        if topology is not None:
            from simdist.hardware.topology import Topology

            ops._topology = Topology(topology)
        if self._cluster is not None:
            ops._cluster = (self._cluster_devices, self._cluster.exchange)
        super().__init__(devices, ops)
        self._cluster_resolver = cluster_resolver

    @property
    def _num_replicas_in_sync(self) -> int:
        return len(self._devices) * (self._num_workers if self._cluster else 1)

    @property
    def _replica_id_offset(self) -> int:
        return self._worker_index * len(self._devices) if self._cluster else 0

    # --- a cluster of processes: what crosses to the other tasks ------------------------
    def _any_worker(self, has_data: bool) -> bool:
        """Whether any worker of the cluster has data for the next step (an all-reduce)."""
        flag = backend.xp.asarray([1.0 if has_data else 0.0])
        ops = self._get_cross_device_ops()
        out = ops._run_all_reduce([flag] * len(self._devices), list(self._devices), "ring",
                                  op="max")
        return bool(out[0][0] > 0)

    def _create_variable(self, next_creator, **kwargs):
        var = super()._create_variable(next_creator, **kwargs)
        if self._num_workers > 1:
            # As TF (CollectiveBcastSend on the chief, CollectiveBcastRecv elsewhere), every
            # worker starts from the chief's initial value, so unseeded initializers agree
            # across processes: a broadcast from the chief's first replica (also when the
            # cluster is simulated here, so both modes trace the same transfers).
            value = var._values[0].numpy()
            placed = array_api.from_host(value)
            xp = array_api.namespace(placed)
            mine = xp.reshape(placed, (-1,))
            if self._cluster is not None and self._worker_index != 0:
                mine = xp.zeros_like(mine)
            outs = self._get_cross_device_ops()._run_collective(
                "broadcast", [mine] * len(self._devices), list(self._devices), "binomial",
                root=0)
            for component, out in zip(var._values, outs):
                component._write(array_api.copy(xp.reshape(out, value.shape)),
                                 "CollectiveBcastRecv")
        return var

    def _as_per_replica(self, value):
        """A plain tensor (what strategy.run returns from one local replica) as this
        worker's value on each of its replicas; a distributed value as it is."""
        if isinstance(value, DistributedValues):
            return value
        return PerReplica([copy_to(execute.convert_to_tensor(value), d) for d in self._devices])

    def _all_gather(self, value, axis):
        # Across processes a worker's one replica gives a plain tensor: it is still its
        # part of the cluster's all-gather (TF's host CollectiveAllReduce).
        return super()._all_gather(self._as_per_replica(value) if self._cluster else value,
                                   axis)

    def _gather(self, value, axis):
        """strategy.gather: an all-gather of the cluster's replicas (TF's _gather_to), its
        result on this worker's reduce device."""
        if not (self._cluster is not None or isinstance(value, DistributedValues)) \
                or nest.is_nested(value) or any(
                    execute.convert_to_tensor(p).ndim == 0 for p in self._local_results(value)):
            return super()._gather(value, axis)  # its errors for scalars
        self._check_combinable(value, axis)
        dst = context.explicit_device() or self._reduce_destination()
        gathered = self._get_cross_device_ops()._gather(self._as_per_replica(value), dst, axis)
        return self._local_results(gathered)[0]

    def _call_for_each_replica(self, fn, args, kwargs):
        # A step begins: the faults injected in a simulated cluster take effect here (a
        # traced step's node; not again when its graph's replica groups run the replicas).
        if self._num_workers > 1 and func_graph._execution.value is None:
            graph = func_graph.current()
            self._step_begins()
            if graph is not None:   # simdist's own node: TF's graph has no op for it
                graph.node_listings[id(graph.nodes[-1])] = collective_listing.UNLISTED
        return super()._call_for_each_replica(fn, args, kwargs)

    def _get_cross_device_ops(self, value=None):
        # TF's CollectiveAllReduceExtended has no int32 rule: its collectives reduce all.
        return self._cross_device_ops

    @func_graph.recorded(kind="stateful", spec=lambda graph, extended: None,
                         name="StepBegins")
    def _step_begins(self):
        """Faults' step hook; traced (Keras's train_function), a node run at each step."""
        faults.before_step(self._devices, machine_lib.get_machine().trace)

    def _local_replica_ids(self) -> range:
        if self._cluster is None:
            return super()._local_replica_ids()
        return range(self._replica_id_offset, self._replica_id_offset + len(self._devices))

    def _all_reduced(self, value) -> bool:
        """Whether reducing ``value`` is a collective (TF's CollectiveAllReduceExtended).

        A mirrored value's copies agree already; a plain tensor (what strategy.run returns
        from one local replica) crosses workers only when there are other processes.
        """
        if nest.is_nested(value) or isinstance(value, (Mirrored, MirroredVariable)):
            return False
        return isinstance(value, DistributedValues) or self._cluster is not None

    def _reduce_to(self, reduce_op, value, destinations, options):
        if not self._all_reduced(value):
            return super()._reduce_to(reduce_op, value, destinations, options)
        return self._cluster_reduce(reduce_op, [(value, destinations)], options)[0]

    def _batch_reduce_to(self, reduce_op, pairs, options):
        if not all(self._all_reduced(v) for v, _ in pairs):
            return super()._batch_reduce_to(reduce_op, pairs, options)
        return self._cluster_reduce(reduce_op, pairs, options)

    def _cluster_reduce(self, reduce_op, pairs, options):
        # As TF's collective ops: every value is all-reduced over the cluster onto its own
        # replicas, even CPU ones (MirroredStrategy would reduce those on one device), then
        # copied to its destinations when they are elsewhere. A plain tensor is this
        # worker's value on each of its replicas. The destinations are checked first, as
        # TF's batch_reduce does (a graph tensor made outside every device scope has none).
        for _, d in pairs:
            cdo.validate_destinations(d)
        values = [self._as_per_replica(v) for v, _ in pairs]
        reduced = self._get_cross_device_ops().batch_reduce(
            reduce_op, [(v, v) for v in values], options)
        pairs = list(zip(values, [d for _, d in pairs]))
        out = []
        for r, (v, d) in zip(reduced, pairs):
            same = set(cdo.get_devices_from(d)) == set(cdo.get_devices_from(v))
            out.append(r if same else cdo.simple_broadcast(r.values[0], d))
        return out

    def _local_workers(self) -> list:
        """The workers whose input this process reads (all of them when simulated)."""
        return [self._worker_index] if self._cluster else list(range(self._num_workers))

    def _reduce_destination(self):
        if self._num_workers > 1:
            return self._hosts[self._worker_index].devices_of_type("CPU")[0]
        return super()._reduce_destination()

    @property
    def experimental_between_graph(self) -> bool:
        return True

    def _in_multi_worker_mode(self) -> bool:
        """Whether more than one worker trains (TF's test for a multi-worker cluster)."""
        return self._num_workers > 1

    @property
    def experimental_should_init(self) -> bool:
        return True

    @property
    def should_checkpoint(self) -> bool:
        """Only the chief writes checkpoints (the others write to a temporary place)."""
        return self._is_chief

    @property
    def should_save_summary(self) -> bool:
        return self._is_chief


class MultiWorkerMirroredStrategy(Strategy):
    """Synchronous training across workers, each with possibly several replicas."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        if communication_options is not None and not isinstance(
                communication_options, CommunicationOptions):
            raise ValueError("communication_options must be a "
                             "tf.distribute.experimental.CommunicationOptions instance.")
        resolver = cluster_resolver or TFConfigClusterResolver()
        super().__init__(CollectiveAllReduceExtended(resolver, communication_options))
        self._cluster_resolver = resolver

    @property
    def cluster_resolver(self):
        return self._cluster_resolver


class _CollectiveAllReduceStrategyExperimentalMeta(type):
    def __instancecheck__(cls, instance):
        # isinstance(tf.distribute.MultiWorkerMirroredStrategy(), the experimental class)
        return isinstance(instance, MultiWorkerMirroredStrategy)


class _CollectiveAllReduceStrategyExperimental(
        MultiWorkerMirroredStrategy, metaclass=_CollectiveAllReduceStrategyExperimentalMeta):
    """``tf.distribute.experimental.MultiWorkerMirroredStrategy``: the strategy under its
    older signature (a ``CommunicationImplementation`` first); deprecated, as in TF."""

    @deprecation.deprecated("tensorflow.python.distribute.collective_all_reduce_strategy",
                            "use distribute.MultiWorkerMirroredStrategy instead",
                            name="_CollectiveAllReduceStrategyExperimental.__init__")
    def __init__(self, communication=CommunicationImplementation.AUTO, cluster_resolver=None):
        super().__init__(cluster_resolver, CommunicationOptions(implementation=communication))
