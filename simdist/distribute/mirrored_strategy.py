"""``MirroredStrategy``: synchronous data parallelism over the devices of one machine.

Glossary:
  devices            -- the replicas' devices: all GPUs by default, every logical CPU when
                        there are none (a CPU split with set_logical_device_configuration
                        gives several replicas, as in TF).
  mirrored variables -- each variable created in scope has one copy per device, initialised
                        from the first copy (so random initialisers agree).
  cross_device_ops   -- how gradients and values are all-reduced; TF's default choice is
                        kept in :func:`select_cross_device_ops`.
  reduce_to          -- reductions to a CPU destination (``strategy.reduce``) or to devices
                        other than the replicas' go through ReductionToOneDevice, as in TF.
  int32 values       -- always reduced by a ReductionToOneDevice of their own (TF's
                        _get_cross_device_ops), so batch_reduce_to cannot mix them with
                        others, nor batch two of them.

Mirrors tensorflow/python/distribute/mirrored_strategy.py.
"""

from __future__ import annotations

from simdist.distribute import cross_device_ops as cdo
from simdist.distribute import cross_replica_checks, mirrored_run
from simdist.distribute.distribute_lib import (
    COLOCATE_MESSAGE,
    ReplicaContext,
    Strategy,
    StrategyExtended,
)
from simdist.distribute.distributed_variable import (
    VARIABLE_CLASS_MAPPING,
    DistributedVariable,
    MirroredVariable,
    validate_aggregation,
    validate_synchronization,
)
from simdist.distribute.reduce_util import ReduceOp
from simdist.distribute.values import DistributedValues, Mirrored, PerReplica
from simdist.framework import context, execute, nest, op_recording
from simdist.framework.tensor import copy_to
from simdist.framework.variables import VariableAggregation
from simdist.hardware import machine as machine_lib
from simdist.hardware.device_spec import canonicalize


def default_devices() -> list:
    """All GPUs of the machine, or its first CPU when it has none.

    MultiWorkerMirroredStrategy's local devices (TF's CollectiveAllReduceExtended).
    """
    m = machine_lib.get_machine()
    gpus = m.devices_of_type("GPU")
    return gpus if gpus else m.devices_of_type("CPU")[:1]


def all_local_devices() -> list:
    """All logical GPUs, or every logical CPU when there are none (TF's all_local_devices).

    MirroredStrategy()'s default: a CPU split into 4 logical devices gives 4 replicas.
    """
    m = machine_lib.get_machine()
    return m.devices_of_type("GPU") or m.devices_of_type("CPU")


def canonical_device_names(devices) -> list:
    """The canonical names of user-given devices, with TF's checks.

    Raises:
      ValueError: an empty list.
      AssertionError: the same device twice, however spelled (TF's ``assert``).
    """
    if isinstance(devices, str):
        devices = [devices]
    devices = list(devices)
    if not devices:
        raise ValueError("Got an empty `devices` list. Please make sure the `devices` you "
                         "pass in is not empty.")
    names = [canonicalize(d, default=machine_lib.get_machine().prefix + "/device:CPU:0")
             for d in devices]
    if len(set(names)) != len(names):
        raise AssertionError(
            f"No duplicates allowed in `devices` argument: {tuple(names)} (from {devices}). "
            "Name each device once; to get more replicas on one CPU, split it into logical "
            "devices with tf.config.set_logical_device_configuration.")
    return names


def place(name):
    """The Device a replica named ``name`` runs on.

    A GPU (or TPU) name on a machine without any device of that type is soft-placed on
    CPU:0, as TF's eager placer does: the strategy keeps the name (``worker_devices``), its
    tensors and variables live on the CPU.

    Raises:
      ValueError: a device the machine lacks (other than that case).
    """
    from simdist.hardware.device_spec import DeviceSpec

    machine = machine_lib.get_machine()
    kind = DeviceSpec.from_string(name).device_type
    if kind in ("GPU", "TPU") and not machine.devices_of_type(kind):
        return machine_lib.find_device(machine.prefix + "/device:CPU:0")
    return machine_lib.find_device(name)


def resolve_devices(devices) -> list:
    """Device objects for user-given names, with TF's checks (see canonical_device_names)."""
    if devices is None:
        return all_local_devices()
    return [place(n) for n in canonical_device_names(devices)]


def select_cross_device_ops(devices):
    """TF's default (MirroredExtended._make_collective_ops_with_fallbacks, TF 2 eager).

    ReductionToOneDevice for CPUs beside GPUs; CollectiveAllReduce otherwise: RING when
    every device is a CPU (recorded from TF 2.21: tests/distribute/default_ops_cases.py) or
    when GPUs were split into more logical GPUs than there are physical ones; AUTO, which is
    NCCL on GPUs, when every device is a physical GPU. In eager it all-reduces each tensor
    alone; inside a tf.function it packs them (CollectiveAllReduce's docstring).
    """
    from simdist.distribute.collective_cross_device_ops import (
        CollectiveAllReduce,
        CommunicationImplementation,
        CommunicationOptions,
    )

    kinds = {d.device_type for d in devices}
    if "GPU" in kinds and "CPU" in kinds:
        return cdo.ReductionToOneDevice()
    options = CommunicationOptions()
    if kinds != {"GPU"} or _virtual_gpus():
        options = CommunicationOptions(implementation=CommunicationImplementation.RING)
    ops = CollectiveAllReduce(options)
    ops._devices = tuple(devices)
    return ops


def _virtual_gpus() -> bool:
    """TF's test: fewer physical GPUs than logical ones (a GPU split by
    set_logical_device_configuration)."""
    machine = machine_lib.get_machine()
    return len(machine.list_physical_devices("GPU")) < len(machine.list_logical_devices("GPU"))


def _is_int32(value) -> bool:
    from simdist.framework import dtypes

    parts = value.values if isinstance(value, DistributedValues) else [value]
    return any(getattr(v, "dtype", None) == dtypes.int32 for v in parts)


class _MirroredReplicaContext(mirrored_run.MirroredReplicaContext, ReplicaContext):
    """A replica of a MirroredStrategy run: merge_call pauses the replica's thread."""


class MirroredExtended(StrategyExtended):
    """``MirroredStrategy.extended``."""

    _wraps_one_replica = True

    def __init__(self, devices, cross_device_ops):
        super().__init__(devices)
        if cross_device_ops is not None and not isinstance(cross_device_ops, cdo.CrossDeviceOps):
            raise ValueError(
                f"cross_device_ops must be a tf.distribute.CrossDeviceOps instance, got "
                f"{cross_device_ops!r}."
            )
        # As TF: the user's ops, else the default for these devices.
        self._cross_device_ops = cross_device_ops or select_cross_device_ops(self._devices)
        # A replica may get an empty batch at the end of the data (partial-batch handling);
        # layers read this flag to cope with one (Keras's BatchNormalization does).
        self.experimental_enable_get_next_as_optional = True

    def _get_cross_device_ops(self, value=None):
        """The ops that reduce ``value``: int32 values go to a new ReductionToOneDevice (as
        TF's _get_cross_device_ops, whatever ops the strategy has), others to the
        strategy's."""
        if value is not None and _is_int32(value):
            return cdo.ReductionToOneDevice()
        return self._cross_device_ops

    def _reduce_destination(self):
        return machine_lib.find_device("/device:CPU:0")

    # --- variables --------------------------------------------------------------------
    def _create_variable(self, next_creator, **kwargs):
        sync = validate_synchronization(kwargs)
        agg = validate_aggregation(kwargs)
        kwargs["synchronization"], kwargs["aggregation"] = sync, agg
        components = []
        for i, dev in enumerate(self._devices):
            kw = dict(kwargs)
            with context.device(dev.name):
                if i > 0:
                    # Copies start from the primary's value, so random initialisers agree.
                    primary = components[0]
                    kw["initial_value"] = copy_to(primary.read_value(), dev)
                    base = primary.name.rpartition(":")[0]
                    kw["name"] = f"{base}/replica_{i}/"  # absolute: no name scope added
                components.append(next_creator(**kw))
            if i == 0 and agg == VariableAggregation.MEAN and \
                    not components[0].dtype.is_floating:
                raise ValueError(
                    "creating distributed tf.Variable with aggregation=MEAN and a non-floating "
                    "dtype is not supported, please use a different aggregation or dtype")
        cls = VARIABLE_CLASS_MAPPING[sync]
        return cls(self._strategy, components, agg, sync)

    def _validate_colocate_with_variable(self, colocate_with_variable):
        """TF's validate_colocate_distributed_variable: only this strategy's variables."""
        v = colocate_with_variable
        if not isinstance(v, DistributedVariable):
            raise ValueError(f"{COLOCATE_MESSAGE}: {v!r}")
        self._require_made_in_this_scope(v)

    def _validate_update_variable(self, var):
        # TF's MirroredExtended._update asserts the same, with no message; the first line
        # is TF's (empty), the next say what went wrong.
        if not isinstance(var, DistributedVariable):
            raise AssertionError(
                f"\n{type(self._strategy).__name__}.extended.update needs one of its own "
                f"distributed variables, not {var!r}. A model trained outside the strategy "
                "and then fit inside `strategy.scope()` meets this: build and compile the "
                "model inside the scope.")

    # --- execution --------------------------------------------------------------------
    def _make_replica_context(self, i, dev):
        return _MirroredReplicaContext(self._strategy, i, dev)

    def _call_for_each_replica(self, fn, args, kwargs):
        wrapped = mirrored_run.lifted(self._strategy, fn, self._run_replicas)
        if wrapped is not None:
            return wrapped(*args, **kwargs)
        return self._run_replicas(fn, args, kwargs)

    def _run_replicas(self, fn, args, kwargs):
        """``fn`` once per replica (one device: on this thread, with no merge to wait for)."""
        if len(self._devices) == 1:
            from simdist.distribute.values import select_replica

            dev = self._devices[0]
            ctx = self._make_replica_context(0, dev)
            ctx.home = (op_recording.current(), op_recording.inlined_calls(),
                        op_recording.bodies())
            with context.device(dev.name), ctx:
                return fn(*select_replica(0, args), **select_replica(0, kwargs))
        return mirrored_run.call_for_each_replica(
            self._strategy, self._devices, self._make_replica_context, fn, args, kwargs)

    # --- reductions -------------------------------------------------------------------
    def _reduce_to(self, reduce_op, value, destinations, options):
        if nest.is_nested(value):
            return nest.map_structure(
                lambda v: self._reduce_to(reduce_op, v, destinations, options), value)
        mirrored = isinstance(value, (Mirrored, MirroredVariable))
        if mirrored and reduce_op == ReduceOp.MEAN:
            return value
        if mirrored:
            raise AssertionError(
                f"Cannot {reduce_op.value}-reduce a mirrored value: its copies are equal "
                "already. Read one copy (experimental_local_results) or use ReduceOp.MEAN."
            )
        if not isinstance(value, DistributedValues):
            return cdo.reduce_non_distributed_value(
                reduce_op, value, destinations, self._num_replicas_in_sync)
        dest_devices = cdo.get_devices_from(destinations)
        if (set(dest_devices) != set(cdo.get_devices_from(value))
                or any(d.device_type == "CPU" for d in dest_devices)):
            return cdo.ReductionToOneDevice().reduce(reduce_op, value, destinations, options)
        return self._get_cross_device_ops(value).reduce(reduce_op, value, destinations, options)

    def _batch_reduce_to(self, reduce_op, pairs, options):
        # TF 2.21 all-reduces these with its collective ops (AddN for int32): their checks,
        # made once (the all-reduce below would check the same tensors again), and kept for
        # the batch's structure when they chose the strategy's ops (a training step's
        # gradients pass them again step after step: cross_replica_checks.structure).
        # The pass kept is of these checks with the kernel of this kind of strategy's ops,
        # for values that all go to its ops (which the structure's dtypes decide).
        ops = self._cross_device_ops
        values = [v for v, _ in pairs]
        key = cross_replica_checks.structure(values)
        checked = ("batch_reduce_to", type(self), isinstance(ops, cdo.ReductionToOneDevice))
        with cross_replica_checks.handing(values, key):
            if cross_replica_checks.passed(checked, key):
                return ops.batch_reduce(reduce_op, pairs, options)
            with cross_replica_checks.remembered():
                for value in values:
                    self._check_combinable(value, None)
                if key is not None and self._batch_ops(pairs) is ops:
                    cross_replica_checks.keep_pass(checked, key)
                return self._batch_reduce_checked(reduce_op, pairs, options)

    def _batch_reduce_checked(self, reduce_op, pairs, options):
        if not all(isinstance(v, DistributedValues) for v, _ in pairs):
            # TF's batch_reduce reads a plain value as one replica's, not as _reduce_to does.
            return [self._batch_reduce_to(reduce_op, [(v, d)], options)[0]
                    if isinstance(v, DistributedValues)
                    else cdo.batch_reduce_non_distributed_value(v, d) for v, d in pairs]
        # As TF: the strategy's cross-device ops decide (all-reducing where every value's
        # devices are its destinations, CPUs included), unlike _reduce_to.
        return self._batch_ops(pairs).batch_reduce(reduce_op, pairs, options)

    def _batch_ops(self, pairs):
        """The one CrossDeviceOps every value of a batch_reduce_to goes to.

        Raises:
          ValueError: the values go to different ops (TF compares them by identity, so
            int32 values, each given a new ReductionToOneDevice, cannot share a batch).
        """
        chosen = None
        for value, _ in pairs:
            ops = self._get_cross_device_ops(value)
            if chosen is None:
                chosen = ops
            elif ops is not chosen:
                raise ValueError(
                    "Inputs to batch_reduce_to must be either all on the host or all on the "
                    "compute devices.\nint32 values are reduced by a ReductionToOneDevice "
                    "of their own: reduce them one by one with reduce_to, or cast them to "
                    "another dtype to batch them.")
        return chosen

    def _broadcast_to(self, tensor, destinations):
        # A Python number stays one until the update converts it to the variable's dtype
        # (TF's fast path: ``step.assign_add(1)`` on an int64 ONLY_FIRST_REPLICA variable).
        if isinstance(tensor, (DistributedValues, float, int)):
            return tensor
        return cdo.simple_broadcast(execute.convert_to_tensor(tensor), destinations)

    def _all_gather(self, value, axis):
        # A value every replica shared is returned as it is (TF's _gather_to_implementation);
        # otherwise the parts are gathered onto the value's own devices.
        if not isinstance(value, DistributedValues):
            return value
        self._check_combinable(value, axis)
        return self._get_cross_device_ops(value)._gather(value, value, axis)

    def _check_combinable(self, value, gather_axis):
        """TF's error for replicas' values a collective cannot combine (see cross_replica_checks).

        ``gather_axis`` None: a reduction; else a gather along that axis.
        """
        if not isinstance(value, PerReplica) or len(value.values) < 2 or \
                cdo.cross_device_utils.is_sparse(value):   # concatenated: rows may differ
            return
        parts = [execute.convert_to_tensor(c) for c in value.values]
        gather = gather_axis is not None
        kernel = cross_replica_checks.kernel_for(parts, gather, self._cross_device_ops)
        if gather:
            cross_replica_checks.check_gather(parts, gather_axis, kernel)
        else:   # kept in a ``remembered`` scope where the parts are the value's own
            cross_replica_checks.check_reduce(parts, kernel, keep=all(
                p is c for p, c in zip(parts, value.values)))


class MirroredStrategy(Strategy):
    """Synchronous training over the replicas of one machine (tf.distribute.MirroredStrategy)."""

    def __init__(self, devices=None, cross_device_ops=None):
        super().__init__(MirroredExtended(resolve_devices(devices), cross_device_ops))
        if devices is not None:
            self._extended._worker_names = tuple(canonical_device_names(devices))
