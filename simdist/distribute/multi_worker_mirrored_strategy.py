"""``MultiWorkerMirroredStrategy``: synchronous data parallelism across the hosts of a cluster.

Glossary:
  workers        -- the ``chief`` and ``worker`` tasks of the cluster (TF_CONFIG); each is a
                    simulated host with the local machine's GPUs (or its CPU), its devices
                    named ``/job:worker/replica:0/task:i/device:GPU:j``.
  one process    -- the simulation plays every worker in lock-step in this process, so
                    ``num_replicas_in_sync`` counts all of them and results hold every
                    replica (TF's ``experimental_local_results`` would show one worker's).
  collectives    -- CollectiveAllReduce with the strategy's CommunicationOptions, over the
                    machine's topology (one worker) or an InfiniBand fat-tree of the hosts.
  input          -- each worker reads its auto-sharded part of the dataset
                    (``simdist.data.distribute.rebatch_for_worker``).

Mirrors tensorflow/python/distribute/collective_all_reduce_strategy.py.
"""

from __future__ import annotations

from simdist.distribute import multi_worker_util
from simdist.distribute.cluster_resolver import TFConfigClusterResolver
from simdist.distribute.collective_cross_device_ops import (
    CollectiveAllReduce,
    CommunicationOptions,
)
from simdist.distribute.distribute_lib import Strategy
from simdist.distribute.mirrored_strategy import MirroredExtended, default_devices
from simdist.hardware import machine as machine_lib

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


class CollectiveAllReduceExtended(MirroredExtended):
    """``MultiWorkerMirroredStrategy.extended``."""

    def __init__(self, cluster_resolver, communication_options):
        spec = cluster_resolver.cluster_spec()
        task_type, task_id = cluster_resolver.task_type, cluster_resolver.task_id
        tasks = _training_tasks(spec, task_type, task_id)
        local = machine_lib.get_machine()
        topology = None
        self._is_chief = (not tasks) or multi_worker_util.is_chief(spec, task_type, task_id)
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
        self._num_workers = max(len(tasks), 1)
        options = communication_options or CommunicationOptions()
        ops = CollectiveAllReduce(options)
        if topology is not None:
            from simdist.hardware.topology import Topology

            ops._topology = Topology(topology)
        super().__init__(devices, ops)
        self._communication_options = options
        self._cluster_resolver = cluster_resolver

    def _reduce_destination(self):
        if self._num_workers > 1:
            return self._hosts[self._worker_index].devices_of_type("CPU")[0]
        return super()._reduce_destination()

    @property
    def _num_replicas_per_worker(self) -> int:
        return len(self._devices) // self._num_workers

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
