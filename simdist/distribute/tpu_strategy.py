"""``TPUStrategy``: synchronous training with one replica per TPU core (or per block of cores).

Glossary:
  resolver           -- a TPUClusterResolver; the slice must be connected
                        (experimental_connect_to_cluster) and initialized.
  device assignment  -- which cores each replica uses (DeviceAssignment); by default one
                        replica per core, in the slice's ring order.
  logical devices    -- a replica's cores; experimental_assign_to_logical_device moves a
                        tensor to one of them, experimental_split_to_logical_devices checks
                        a tiling over them (the value is unchanged, as TF returns it).
  pure eager run     -- ``strategy.run`` of a plain Python function outside a tf.function:
                        TF's NotImplementedError (TPU programs are compiled by XLA).
  all-reduce         -- gradients are summed with the ``torus_2d`` schedule over the slice's
                        ICI links (rings along x, then along y/z).
Input rules are TF's TPUExtended's: PER_REPLICA replication only through
distribute_datasets_from_function, and get_next_as_optional for partial batches (as
MirroredStrategy; TPUExtended sets experimental_enable_get_next_as_optional = True).

Mirrors tensorflow/python/distribute/tpu_strategy.py.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import weakref

import numpy as np

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute import input_lib, tpu_replicate
from simdist.distribute.collective_cross_device_ops import AllReduceCrossDeviceOps
from simdist.distribute.device_assignment import DeviceAssignment
from simdist.distribute.distribute_lib import Strategy
from simdist.distribute.distribution_strategy_context import get_replica_context
from simdist.distribute.mirrored_strategy import MirroredExtended, _MirroredReplicaContext
from simdist.distribute.reduce_util import ReduceOp
from simdist.distribute.tpu_cluster_resolver import TPUClusterResolver
from simdist.distribute.values import PerReplica
from simdist.framework import context, execute, func_graph
from simdist.framework.function import ConcreteFunction, Function
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor, copy_to
from simdist.hardware import machine as machine_lib

EAGER_RUN_MESSAGE = (
    "TPUStrategy.run(fn, ...) does not support pure eager execution. please make sure the "
    "function passed into `strategy.run` is a `tf.function` or `strategy.run` is called "
    "inside a `tf.function` if eager behavior is enabled.")


def validate_run_function(fn) -> None:
    """TF's check: a TPU computation is a tf.function, or runs inside one.

    Raises:
      NotImplementedError: ``fn`` is a plain function called eagerly.
    """
    if (context.executing_eagerly() and not isinstance(fn, (Function, ConcreteFunction))
            and not isinstance(inspect.getattr_static(fn, "__call__", None), Function)):
        raise NotImplementedError(EAGER_RUN_MESSAGE)


class _TPUReplicaContext(_MirroredReplicaContext):
    """A replica of a TPUStrategy run. Its merge_call is TF's base one: no check of the
    graph, so a tf.function nested in the replica function, or a cond branch or loop body
    of it, may merge (TF builds the cross-replica op there: a node that merges when it
    runs, tpu_replicate). In a replicated trace its replica id is a tensor each replica's
    copy reads for itself."""

    # TF's tpu.replicate builds the computation under no device scope (only its outputs
    # under core 0): a replica's ops say '' as their device (tpu/tpu.py).
    _requested_device = ""
    _replication = None   # the replicated trace this context traces (replica 0's)

    def _check_merge_call_graph(self):
        pass

    def _merge_call(self, merge_fn, args, kwargs):
        replication = self._replication
        graph = func_graph.current()
        if replication is not None and graph is not None and (
                graph is not replication.graph or replication.in_control_flow()):
            # in a tf.function nested in the replica function (traced apart, once), or in
            # a cond branch or loop body of it: a node that merges when it runs (TF: the
            # cross-replica op inside its graph or branch)
            return tpu_replicate.merge_node(graph, merge_fn, args, kwargs)
        # every merge is inside TF's replicated computation: a tensor it reduces is summed
        # over the replicas (its collective nodes, traced in that mode, run in it again)
        merge_fn = _in_tpu_context(merge_fn)
        result = super()._merge_call(merge_fn, args, kwargs)
        if isinstance(result, tpu_replicate.MergeFailed):
            raise result.error
        return result

    @property
    def replica_id_in_sync_group(self):
        graph = func_graph.current()
        if self._replication is not None and graph is not None:
            return tpu_replicate.replica_id_node(graph)
        return super().replica_id_in_sync_group


class _ReplicatedComputationMode(ds_context.ThreadMode):
    """The cross-replica mode of a merge inside TF's replicated computation (tpu_util's
    ``enclosing_tpu_context`` is not None there). A mode, not a flag: the nodes a merge
    traced into a graph record it and run in it again at each execution."""

    __slots__ = ()


def _in_tpu_context(merge_fn):
    """``merge_fn`` run as inside TF's replicated computation: its reductions are
    cross-replica sums."""

    @functools.wraps(merge_fn)
    def merge(*args, **kwargs):
        mode = ds_context.get_per_thread_mode()
        ds_context.push_mode(_ReplicatedComputationMode(
            mode.strategy, mode.cross_replica_context, mode.replica_context))
        try:
            return merge_fn(*args, **kwargs)
        finally:
            ds_context.pop_mode()

    return merge


def _sums_across_replicas(value) -> bool:
    """Whether reducing ``value`` is TF's cross_replica_sum of it: a tensor, in a merge
    inside the replicated computation."""
    return (type(ds_context.get_per_thread_mode()) is _ReplicatedComputationMode
            and isinstance(value, Tensor))


class TPUExtended(MirroredExtended):
    """``TPUStrategy.extended``."""

    def _reduce_to(self, reduce_op, value, destinations, options):
        """TF's TPUExtended._reduce_to: inside the replicated computation a tensor is each
        replica's value and is summed across the replicas (``cross_replica_sum``; MEAN
        scales it by 1/n first), whatever the destinations; elsewhere as MirroredStrategy.

        Raises:
          NotImplementedError: MIN or MAX inside the replicated computation (TF's text).
        """
        if _sums_across_replicas(value):
            return self._cross_replica_sum(reduce_op, value, options)
        return super()._reduce_to(reduce_op, value, destinations, options)

    def _batch_reduce_to(self, reduce_op, pairs, options):
        if any(_sums_across_replicas(v) for v, _ in pairs):
            return [self._reduce_to(reduce_op, v, d, options) for v, d in pairs]
        return super()._batch_reduce_to(reduce_op, pairs, options)

    def _cross_replica_sum(self, reduce_op, value, options):
        """The sum over the replicas of ``value``, every replica's own (a tensor they all
        received), through the strategy's all-reduce."""
        if reduce_op not in (ReduceOp.SUM, ReduceOp.MEAN):
            raise NotImplementedError(
                f"`reduce_op`={reduce_op} is not supported. Currently we only support "
                "ReduceOp.SUM and ReduceOp.MEAN in TPUStrategy.")
        if reduce_op == ReduceOp.MEAN:
            value = M.multiply(value, A.cast(1.0 / self._num_replicas_in_sync, value.dtype))
        per_replica = PerReplica([copy_to(value, d) for d in self._devices])
        return super()._reduce_to(ReduceOp.SUM, per_replica, per_replica, options)

    def __init__(self, resolver, device_assignment, use_spmd_for_xla_partitioning=False):
        if resolver is None:
            resolver = TPUClusterResolver("")
        metadata = resolver.get_tpu_system_metadata()
        if device_assignment is None:
            # TF: one replica per TPU core, in the system's device order (task, ordinal).
            coords = np.asarray(metadata.topology.device_coordinates)
            device_assignment = DeviceAssignment(metadata.topology,
                                                 coords.reshape(-1, 1, coords.shape[-1]))
        elif not isinstance(device_assignment, DeviceAssignment):
            raise ValueError("device_assignment must be a "
                             "tf.tpu.experimental.DeviceAssignment, got "
                             f"{type(device_assignment).__name__}.")
        job = resolver._machine.tpu_job
        self._device_assignment = device_assignment
        self._tpu_devices = np.array(
            [[machine_lib.find_device(device_assignment.tpu_device(r, c, job=job))
              for c in range(device_assignment.num_cores_per_replica)]
             for r in range(device_assignment.num_replicas)], dtype=object)
        self._tpu_cluster_resolver = resolver
        self._tpu_metadata = metadata
        self._use_spmd_for_xla_partitioning = use_spmd_for_xla_partitioning
        replicas = list(self._tpu_devices[:, 0])
        super().__init__(replicas, AllReduceCrossDeviceOps(self._all_reduce_algorithm(
            replicas), num_packs=1))
        self.experimental_enable_get_next_as_optional = True
        self._host_devices = sorted({d.task for d in replicas})
        self._tpu_function_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _make_replica_context(self, i, dev):
        return _TPUReplicaContext(self._strategy, i, dev)

    # TF's TPUExtended: the replicated computation is traced once for all cores.
    _retrace_functions_for_each_device = False

    def _call_for_each_replica(self, fn, args, kwargs):
        """TF's tpu_run: called eagerly, the replicated computation is a tf.function (one
        per ``fn``, cached), so ``fn`` (a tf.function) runs inside its trace. In a trace,
        TF's tpu_function (``_tpu_function_creator``) calls ``tpu.replicate(replicated_fn,
        replicate_inputs)``: ``fn`` is traced once for all replicas (tpu_replicate). Run
        eagerly (a tf.function's eager fallback, a replica group at execution), the
        replicas run in a thread each; but a tf.function ``fn`` in an eager fallback goes
        through ``tpu_function`` as when called eagerly: in a thread each, the replicas
        share its one trace, and the replica tracing it would wait at a merge_call for
        replicas that wait for its trace."""
        if not context.executing_eagerly() and (func_graph.current() is not None
                                                or not isinstance(fn, Function)):
            return self._replicate(fn, args, kwargs)
        try:
            tpu_function = self._tpu_function_cache.get(fn)
        except TypeError:   # not weakly referable: a tf.function of its own for this call
            tpu_function = None
        if tpu_function is None:
            run = weakref.WeakMethod(self._replicate)

            def tpu_function(args, kwargs):   # fn, a tf.function, is traced apart in it
                return run()(fn, args, kwargs)

            tpu_function = Function(tpu_function)
            with contextlib.suppress(TypeError):
                self._tpu_function_cache[fn] = tpu_function
        return tpu_function(args, kwargs)

    def _replicate(self, fn, args, kwargs):
        """TF's tpu.replicate while a graph traces (tpu_replicate); else (a tf.function's
        eager fallback, a replica group at execution) a thread per replica."""
        if func_graph.current() is not None and len(self._devices) > 1:
            return tpu_replicate.replicate(self._strategy, self._devices,
                                           self._make_replica_context, fn, args, kwargs)
        return self._run_replicas(fn, args, kwargs)

    @staticmethod
    def _all_reduce_algorithm(replicas) -> str:
        topo = machine_lib.get_machine().topology
        names = [d.name for d in replicas]
        return "torus_2d" if topo is not None and names == topo.devices else "ring"

    @property
    def num_hosts(self) -> int:
        return len(self._host_devices)

    @property
    def num_replicas_per_host(self) -> int:
        return self._num_replicas_in_sync // self.num_hosts

    @property
    def steps_per_run(self) -> int:
        return 1

    def _experimental_distribute_dataset(self, dataset, options):
        if (options is not None and options.experimental_replication_mode
                == input_lib.InputReplicationMode.PER_REPLICA):
            raise NotImplementedError("InputReplicationMode.PER_REPLICA is only supported in "
                                      "`experimental_distribute_datasets_from_function`.")

    def _distribute_datasets_from_function(self, options):
        if (options is not None and options.experimental_replication_mode
                == input_lib.InputReplicationMode.PER_REPLICA):
            raise NotImplementedError(
                "InputReplicationMode.PER_REPLICA is only supported in  "
                "`experimental_distribute_datasets_from_function` of "
                "tf.distribute.MirroredStrategy")


class TPUStrategy(Strategy):
    """Synchronous training on TPU cores (``tf.distribute.TPUStrategy``)."""

    def __init__(self, tpu_cluster_resolver=None, experimental_device_assignment=None,
                 experimental_spmd_xla_partitioning=False):
        super().__init__(TPUExtended(tpu_cluster_resolver, experimental_device_assignment,
                                     experimental_spmd_xla_partitioning))

    def run(self, fn, args=(), kwargs=None, options=None):
        """Run ``fn`` on every replica; ``fn`` must be a tf.function or run inside one.

        Raises:
          NotImplementedError: a plain Python function called eagerly (TF's message).
        """
        validate_run_function(fn)
        return super().run(fn, args, kwargs, options)

    def experimental_distribute_dataset(self, dataset, options=None):
        self._extended._experimental_distribute_dataset(dataset, options)
        return super().experimental_distribute_dataset(dataset, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        self._extended._distribute_datasets_from_function(options)
        return super().distribute_datasets_from_function(dataset_fn, options)

    def _logical_devices_per_replica(self) -> int:
        return self._extended._tpu_devices.shape[1]

    def experimental_assign_to_logical_device(self, tensor, logical_device_id):
        """Place ``tensor`` on logical core ``logical_device_id`` of the current replica.

        Raises:
          ValueError: SPMD partitioning, or an id outside the replica's cores (TF's text).
        """
        if self._extended._use_spmd_for_xla_partitioning:
            raise ValueError("Cannot assign a tensor to a logical device in SPMD mode. To "
                             "disable SPMD, Please construct the TPUStrategy with "
                             "`experimental_spmd_xla_partitioning=False`")
        n = self._logical_devices_per_replica()
        if logical_device_id < 0 or logical_device_id >= n:
            raise ValueError("`logical_core_id` to assign must be lower then total number of "
                             "logical devices per replica. Received logical device id "
                             f"{logical_device_id} but there are only total of {n} logical "
                             "devices in replica.")
        ctx = get_replica_context()
        if ctx is None or ctx.strategy is not self:
            return tensor
        replica = int(ctx._replica_index)
        return _on_core(tensor, self._extended._tpu_devices[replica, logical_device_id])

    def experimental_split_to_logical_devices(self, tensor, partition_dimensions):
        """Check that ``tensor`` tiles over the replica's cores by ``partition_dimensions``.

        Raises:
          ValueError: a wrong rank, a dimension that does not divide, or a product that is
            not the number of logical cores (TF's messages).
        """
        n = self._logical_devices_per_replica()
        splits = int(np.prod(partition_dimensions))
        shape = execute.convert_to_tensor(tensor).shape.as_list()
        if len(shape) != len(partition_dimensions):
            raise ValueError("Length of `partition_dimensions` must equal to the rank of "
                             f"`tensor.shape` ({len(shape)}). Received "
                             f"len(partition_dimensions)={len(partition_dimensions)}.")
        for i, size in enumerate(shape):
            if size is not None and size % partition_dimensions[i] != 0:
                raise ValueError(f"Tensor shape at `partition_dimensions[{i}]` must be "
                                 "divisible by corresponding value specified by "
                                 f"`partition_dimensions` ({partition_dimensions[i]}). "
                                 f"Received: {size}.")
        if splits != n:
            raise ValueError("The product of `partition_dimensions` should be the same as "
                             f"the number of logical devices (={n}). Received "
                             f"`partition_dimensions`={partition_dimensions},and their "
                             f"product is {splits}.")
        return tensor

    def experimental_replicate_to_logical_devices(self, tensor):
        """Every logical core of the replica holds the whole ``tensor`` (the value as is)."""
        return tensor


@func_graph.recorded(name="Identity")
def _on_core(tensor, device):
    """``tensor`` on the logical core ``device`` (in a trace: a node, TF's sharding
    annotation, copying the value at each execution)."""
    return copy_to(execute.convert_to_tensor(tensor), device)


class TPUStrategyV1(TPUStrategy):
    """``tf.distribute.experimental.TPUStrategy`` (its argument is ``device_assignment``)."""

    def __init__(self, tpu_cluster_resolver=None, device_assignment=None):
        super().__init__(tpu_cluster_resolver, device_assignment)
