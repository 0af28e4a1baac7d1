"""``tf.distribute.ParameterServerStrategy``: asynchronous training with parameter servers.

Glossary:
  cluster      -- ``worker`` and ``ps`` jobs (and optionally ``chief``, the coordinator),
                  from a cluster resolver; TF's tutorial makes them in-process with
                  ``tf.distribute.Server``. Each task is a simulated host of its own.
  variables    -- created in ``scope()`` on the parameter servers round-robin
                  (``/job:ps/replica:0/task:{i % num_ps}/device:CPU:0``, counting every
                  variable and every shard), as CachingVariables.
  variable_partitioner -- ``partitioner(shape, dtype)`` -> shards per axis; more than one
                  on axis 0 makes a ShardedVariable of ``name/part_i`` shards ("div" split).
                  Rank-0 variables and ``colocate_with`` ones are never split.
  workers      -- run what ``ClusterCoordinator.schedule`` sends them, one replica each
                  (``worker_devices`` is ``('/device:CPU:0',)`` on CPU hosts), each on its
                  own simulated clock: ``extended.simulation`` (coordinator/simulation.py).
  run / reduce -- inside a scheduled function they run on that worker alone
                  (``num_replicas_in_sync`` is 1); on the coordinator they work but TF warns.

Mirrors tensorflow/python/distribute/parameter_server_strategy_v2.py.
"""

from __future__ import annotations

import contextlib
import logging

from simdist.distribute import cross_device_ops as cdo
from simdist.distribute import multi_worker_util
from simdist.distribute.coordinator.simulation import PSSimulation, WorkerState
from simdist.distribute.distribute_lib import ReplicaContext, SingleReplicaExtended, Strategy
from simdist.distribute.ps_values import CachingVariable
from simdist.distribute.sharded_variable import ShardedVariable, first_axis_shards
from simdist.distribute.values import DistributedValues
from simdist.framework import context, execute, nest
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.thread_local import ThreadLocalNamespace
from simdist.hardware import machine as machine_lib

_logger = logging.getLogger("tensorflow")

_NOT_SCHEDULED_WARNING = (
    "A `tf.distribute.experimental.ParameterServerStrategy` method is invoked without using "
    "`ClusterCoordinator.schedule`. If you are not tracing a tf.function, this method is "
    "possibly executed on the coordinator, which can be slow. To properly dispatch functions "
    "to run on workers, methods like `run` or `reduce` should be used within a function "
    "passed to `tf.distribute.experimental.coordinator.ClusterCoordinator.schedule`.")


class ParameterServerStrategyV2Extended(SingleReplicaExtended):
    """``ParameterServerStrategy.extended`` (one replica per worker: broadcasts and gathers
    pass values through)."""

    _wraps_one_replica = True   # TF's ParameterServerStrategyExtended

    def __init__(self, cluster_resolver, variable_partitioner):
        self._strategy = None
        spec = cluster_resolver.cluster_spec()
        self._num_ps = spec.num_tasks("ps")
        self._cluster_workers = spec.num_tasks("worker")
        self._variable_count = 0
        self._variable_partitioner = variable_partitioner
        self._used_with_coordinator = False
        self._allow_run_without_coordinator = False
        self._local = ThreadLocalNamespace()
        self._cross_device_ops = cdo.ReductionToOneDevice(reduce_to_device="/device:CPU:0")
        local = machine_lib.get_machine()
        gpus = len(local.list_physical_devices("GPU"))
        if gpus > 1:
            raise NotImplementedError(
                f"simdist simulates ParameterServerStrategy workers with one replica each; "
                f"this machine has {gpus} GPUs per worker. Use SIMDIST_MACHINE=cpu (as TF's "
                "in-process tutorial on a CPU host) or gpus=1.")
        self._num_gpus_per_worker = gpus
        kind = dict(gpus=gpus, gpu_kind=local.gpu_kind, trace=local.trace)
        self._ps_hosts = [machine_lib.Machine(job="ps", task=i, **dict(kind, gpus=0))
                          for i in range(self._num_ps)]
        self._worker_hosts = [machine_lib.Machine(job="worker", task=i, **kind)
                              for i in range(self._cluster_workers)]
        machine_lib.register_cluster(self._ps_hosts + self._worker_hosts)
        workers = [WorkerState(i, (h.devices_of_type("GPU") or h.devices_of_type("CPU"))[0])
                   for i, h in enumerate(self._worker_hosts)]
        ps_devices = [h.devices_of_type("CPU")[0] for h in self._ps_hosts]
        for d in ps_devices + [w.device for w in workers]:
            d.reset()
        self.simulation = PSSimulation(workers, ps_devices)

    # --- devices ----------------------------------------------------------------------
    @property
    def _num_replicas_in_sync(self) -> int:
        return 1

    @property
    def worker_devices(self) -> tuple:
        return ("/device:GPU:0",) if self._num_gpus_per_worker else ("/device:CPU:0",)

    @property
    def parameter_devices(self) -> tuple:
        # As TF 2.21 reports it (the coordinator's CPU), whatever the ps tasks are.
        return ("/job:chief/replica:0/task:0/device:CPU:0",)

    def _current_worker(self):
        worker = getattr(self._local, "worker", None)
        return worker if worker is not None else self.simulation.workers[0]

    @property
    def _devices(self) -> tuple:
        return (self._current_worker().device,)

    @contextlib.contextmanager
    def _scheduled_on(self, worker):
        """The scope of a function (or a dataset) that runs on ``worker``."""
        previous = getattr(self._local, "worker", None)
        self._local.worker = worker
        try:
            yield
        finally:
            self._local.worker = previous

    @contextlib.contextmanager
    def _scheduling(self):
        """The scope of ``ClusterCoordinator.schedule`` tracing a function on the
        coordinator (TF's ``_being_scheduled``): no worker yet, so the trace's replica runs
        on no device of its own (each execution runs on its worker's)."""
        previous = getattr(self._local, "scheduling", False)
        self._local.scheduling = True
        try:
            yield
        finally:
            self._local.scheduling = previous

    def _being_scheduled(self) -> bool:
        return getattr(self._local, "worker", None) is not None or \
            getattr(self._local, "scheduling", False)

    def _assert_being_scheduled_by_cluster_coordinator(self):
        if not self._being_scheduled() and not self._allow_run_without_coordinator:
            _logger.warning(_NOT_SCHEDULED_WARNING)

    # --- variables --------------------------------------------------------------------
    def _create_variable(self, next_creator, **kwargs):
        if "colocate_with" in kwargs:  # never partitioned
            colocate_with = kwargs.pop("colocate_with")
            with context.device(colocate_with.device):
                var = next_creator(**kwargs)
            return CachingVariable.adopt(var, getattr(colocate_with, "_ps_task", 0))
        if self._variable_partitioner is None:
            return self._create_variable_round_robin(next_creator, **kwargs)
        return self._create_partitioned(next_creator, **kwargs)

    def _create_partitioned(self, next_creator, **kwargs):
        name, dtype = kwargs.get("name"), kwargs.get("dtype")
        initial_value, shape = kwargs.get("initial_value"), kwargs.get("shape")
        if initial_value is None:
            raise ValueError(
                "It looks like you are using `ParameterServerStrategy` with a "
                "`variable_partitioner`, and trying to create a variable without specifying "
                "`initial_value`. This is not allowed. Please specify the `initial_value`.")
        if callable(initial_value):
            initial_value = initial_value()
        initial_value = execute.convert_to_tensor(initial_value, dtype=dtype)
        shape = TensorShape(initial_value.shape) if shape is None else TensorShape(shape)
        if shape.rank == 0:  # rank-0 variables are never partitioned
            return self._create_variable_round_robin(next_creator, **kwargs)
        num_partitions = self._variable_partitioner(shape=shape, dtype=initial_value.dtype)
        if (not num_partitions or num_partitions[0] == 0
                or any(v != 1 for v in num_partitions[1:])):
            raise ValueError("variable_partitioner must return a list/tuple whose elements "
                             "are 1 besides the first element (non-zero), got: "
                             f"{num_partitions!r}")
        if num_partitions[0] == 1:
            return self._create_variable_round_robin(next_creator, **kwargs)
        offsets = first_axis_shards(shape[0], num_partitions[0])
        shards = []
        for i in range(len(offsets) - 1):
            part = dict(kwargs, shape=None,
                        initial_value=initial_value[offsets[i]:offsets[i + 1]])
            if name is not None:
                part["name"] = f"{name}/part_{i}"
            shards.append(self._create_variable_round_robin(next_creator, **part))
        return ShardedVariable(shards)

    def _create_variable_round_robin(self, next_creator, **kwargs):
        task = self._variable_count % self._num_ps
        with context.device(f"/job:ps/replica:0/task:{task}/device:CPU:0"):
            var = next_creator(**kwargs)
        self._variable_count += 1
        return CachingVariable.adopt(var, task)

    def _validate_update_variable(self, var):
        from simdist.framework import variables

        if not isinstance(var, variables.Variable):
            raise ValueError(f"You can not update `var` {var!r}. It must be a Variable.")

    # --- replicas and reductions ------------------------------------------------------
    def _call_for_each_replica(self, fn, args, kwargs):
        self._assert_being_scheduled_by_cluster_coordinator()
        worker = getattr(self._local, "worker", None)
        device = worker.device if worker is not None else None
        with ReplicaContext(self._strategy, 0, device):
            return fn(*args, **kwargs)

    def _reduce(self, reduce_op, value):
        self._assert_being_scheduled_by_cluster_coordinator()
        return self._reduce_to(reduce_op, value, None, None)

    def _reduce_to(self, reduce_op, value, destinations, options):
        self._assert_being_scheduled_by_cluster_coordinator()

        def get_values(x):
            if isinstance(x, DistributedValues):
                return self._cross_device_ops.reduce(reduce_op, x, destinations or x)
            return x

        return nest.map_structure(get_values, value)


class ParameterServerStrategyV2(Strategy):
    """Asynchronous data-parallel training with workers and parameter servers.

    Use it with ``tf.distribute.coordinator.ClusterCoordinator`` (a custom loop) or with
    ``model.fit`` (which makes the coordinator).

    Raises:
      ValueError: the cluster is empty, has a job other than chief/worker/ps/evaluator,
        or no ps or no worker (TF's messages).
    """

    def __init__(self, cluster_resolver, variable_partitioner=None):
        self._cluster_resolver = cluster_resolver
        self._verify_args_and_config(cluster_resolver)
        self._cluster_coordinator = None
        super().__init__(ParameterServerStrategyV2Extended(cluster_resolver,
                                                           variable_partitioner))
        self._should_use_with_coordinator = True
        self._is_parameter_server_strategy_v2 = True

    @property
    def cluster_resolver(self):
        return self._cluster_resolver

    @staticmethod
    def _verify_args_and_config(cluster_resolver):
        spec = cluster_resolver.cluster_spec()
        if not spec.as_dict():
            raise ValueError("Cluster spec must be non-empty in "
                             "`tf.distribute.cluster_resolver.ClusterResolver`.")
        multi_worker_util.validate_cluster_spec(spec, cluster_resolver.task_type,
                                                cluster_resolver.task_id)
        if multi_worker_util.task_count(spec, "ps") < 1:
            raise ValueError("There must be at least one ps.")
        if multi_worker_util.task_count(spec, "worker") < 1:
            raise ValueError("There must be at least one worker.")

