"""The ``Strategy`` API every strategy shares, its ``extended`` half, and ``ReplicaContext``.

Glossary:
  Strategy          -- user-facing: ``scope``, ``run``, ``reduce``, ``gather``,
                       ``experimental_local_results``, ``num_replicas_in_sync`` ...
  StrategyExtended  -- ``strategy.extended``: ``update``, ``reduce_to``, ``batch_reduce_to``,
                       ``broadcast_to``, ``value_container``, ``worker_devices``,
                       ``parameter_devices``. Subclasses implement the ``_impl`` hooks.
  ReplicaContext    -- what code inside ``strategy.run`` sees: replica id,
                       ``all_reduce``, ``all_gather``, ``merge_call``.
  ValueContext      -- what ``experimental_distribute_values_from_function`` passes.

Mirrors tensorflow/python/distribute/distribute_lib.py.
"""

from __future__ import annotations

import contextlib

from simdist import warnings as teach
from simdist.distribute import cross_replica_checks, mistakes
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.reduce_util import ReduceOp, as_reduce_op
from simdist.distribute.update_context import UpdateContext
from simdist.distribute.values import DistributedValues, Mirrored, PerReplica, regroup
from simdist.framework import context, dtypes, execute, nest, op_recording, variables
from simdist.framework.indexed_slices import IndexedSlices


def _pick(i, args) -> tuple:
    """``values.select_replica(i, args)`` of a tuple of leaves (no nested structure)."""
    from simdist.distribute.distributed_variable import DistributedVariable

    return tuple(a.values[i] if isinstance(a, DistributedValues) and
                 not isinstance(a, DistributedVariable) else a for a in args)


def require_cross_replica_or_default_context(extended) -> None:
    """TF's check that a cross-replica method is called where it may be."""
    mode = ds_context.get_per_thread_mode()
    cross = mode.cross_replica_context
    if cross is not None and cross.extended is extended:
        return
    if mode is ds_context._get_default_mode():
        return
    strategy = extended._container_strategy()
    if mode.strategy is not strategy:
        _wrong_strategy_scope(strategy, mode)
    raise RuntimeError(
        "Method requires being in cross-replica context, use "
        "get_replica_context().merge_call()"
    )


def require_strategy_scope_extended(extended) -> None:
    """TF's check that the current thread is in ``extended``'s strategy's scope."""
    mode = ds_context.get_per_thread_mode()
    if mode.strategy.extended is not extended:
        _wrong_strategy_scope(extended._container_strategy(), mode)


def _wrong_strategy_scope(strategy, mode):
    if not ds_context.has_strategy():
        raise RuntimeError(f'Need to be inside "with strategy.scope()" for {strategy}')
    raise RuntimeError(
        f"Mixing different tf.distribute.Strategy objects: {mode.strategy} is not {strategy}"
    )


# TF's words when colocate_vars_with is given a variable of another scope (or none).
COLOCATE_MESSAGE = ("`colocate_vars_with` must only be passed a variable created in this "
                    "tf.distribute.Strategy.scope(), not")


class _StrategyScope:
    """``with strategy.scope():`` — cross-replica mode plus the strategy's variable creator."""

    def __init__(self, strategy):
        self._strategy = strategy
        self._same_scope_again = 0
        self._stack = None

    def __enter__(self):
        if ds_context.has_strategy():
            require_cross_replica_or_default_context(self._strategy.extended)
            self._same_scope_again += 1
            return self._strategy
        ds_context.push_mode(ds_context.cross_replica_mode(self._strategy))
        stack = contextlib.ExitStack()
        stack.enter_context(variables.variable_creator_scope(self._creator))
        dev = self._strategy.extended._default_device
        if dev is not None:
            stack.enter_context(context.device(dev))
        self._stack = stack
        return self._strategy

    def _creator(self, next_creator, **kwargs):
        # As TF's creator_with_resource_vars: each variable records the strategy it was
        # made under (colocate_vars_with and variable_created_in_scope read it).
        kwargs["distribute_strategy"] = self._strategy
        return self._strategy.extended._create_variable(next_creator, **kwargs)

    def __exit__(self, *exc):
        if self._same_scope_again:
            self._same_scope_again -= 1
            return False
        self._stack.close()
        self._stack = None
        ds_context.pop_mode()
        return False


class Strategy:
    """A state & compute distribution policy on a list of devices (``tf.distribute.Strategy``)."""

    def __init__(self, extended):
        self._extended = extended
        extended._strategy = self

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self) -> int:
        return self._extended._num_replicas_in_sync

    def scope(self):
        """Context manager that makes this strategy current and distributes new variables."""
        return _StrategyScope(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        """Invoke ``fn`` on each replica with ``args``; PerReplica args are split per replica."""
        if not callable(fn):
            raise TypeError(f"fn must be callable, got {fn!r} of type {type(fn).__name__}.")
        if not isinstance(args, (list, tuple)):
            raise ValueError(f"positional args must be a list or tuple, got {type(args)}")
        require_cross_replica_or_default_context(self._extended)
        if teach.enabled():
            mistakes.check_run_args(self, args, kwargs)
        with self.scope():
            out = self._extended._call_for_each_replica(fn, tuple(args), dict(kwargs or {}))
        if teach.enabled():
            mistakes.check_diverged()
        return out

    def reduce(self, reduce_op, value, axis=None):
        """Reduce ``value`` across replicas (and over ``axis`` within each) to one Tensor."""
        require_cross_replica_or_default_context(self._extended)
        reduce_op = as_reduce_op(reduce_op)
        if teach.enabled():
            mistakes.check_reduce(self, reduce_op, value)
        if axis is None:
            return self._extended._reduce(reduce_op, value)
        _check_reduce_axis(self._extended._local_results(value), axis)
        from simdist.framework.ops import array_ops, math_ops

        if reduce_op == ReduceOp.SUM:
            value = self.run(lambda v: math_ops.reduce_sum(v, axis=axis), args=(value,))
            return self._extended._reduce(reduce_op, value)
        if reduce_op != ReduceOp.MEAN:
            raise TypeError(
                f"Expected `reduce_op` to be ReduceOp.SUM or ReduceOp.MEAN when `axis` is "
                f"given, not: {reduce_op!r}. Reduce over the axis inside strategy.run first."
            )

        def mean_helper(v):
            # TF's mean_reduce_helper: each axis's length an int64 identity (of a Const
            # where the shape knows it, else of the Shape's element); their product
            t = execute.convert_to_tensor(v)
            numer = math_ops.reduce_sum(t, axis=axis)

            def dimension(a):
                if t.shape[a] is not None:
                    return array_ops.identity(array_ops.constant(t.shape[a], dtypes.int64))
                return array_ops.identity(array_ops.shape(t, out_type=dtypes.int64)[a])

            if isinstance(axis, (list, tuple)):
                return numer, math_ops.reduce_prod([dimension(a) for a in axis])
            return numer, dimension(axis)

        numer, denom = self.run(mean_helper, args=(value,))
        numer = self._extended._reduce(ReduceOp.SUM, numer)
        denom = self._extended._reduce(ReduceOp.SUM, denom)
        return math_ops.divide(numer, array_ops.cast(denom, numer.dtype))

    def gather(self, value, axis):
        """Concatenate the replicas' components of ``value`` along ``axis`` on this device."""
        require_cross_replica_or_default_context(self._extended)
        return self._extended._gather(value, axis)

    def experimental_local_results(self, value) -> tuple:
        """The components of ``value`` held by this worker's replicas, in replica order."""
        return self._extended._local_results(value)

    def experimental_distribute_values_from_function(self, value_fn):
        """Build a PerReplica from ``value_fn(ValueContext)`` called once per replica."""
        n = self.num_replicas_in_sync
        # Like TF, value_fn runs where the caller is; strategy.run moves values later. Each
        # worker of a cluster of processes calls it for its own replicas only.
        ids = self._extended._local_replica_ids()
        out = [value_fn(ValueContext(i, n)) for i in ids]
        return regroup(out, always_wrap=True) if n > 1 or self._extended._wraps_one_replica \
            else out[0]

    def experimental_distribute_dataset(self, dataset, options=None):
        """Distribute ``dataset``: each global batch is split across the replicas as TF does."""
        from simdist.distribute import input_lib

        return input_lib.distribute_dataset(self, dataset, options)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """Call ``dataset_fn(InputContext)`` per input pipeline and distribute the result."""
        from simdist.distribute import input_lib

        return input_lib.distribute_datasets_from_function(self, dataset_fn, options)

    def experimental_distribute_datasets_from_function(self, dataset_fn, options=None):
        """The deprecated name of :meth:`distribute_datasets_from_function` (TF keeps it)."""
        return self.distribute_datasets_from_function(dataset_fn, options)

    def group(self, value, name=None):
        """``tf.group`` of ``value``'s local results (TF 1's shortcut, kept by TF 2).

        Eagerly a group is nothing (None); one unnamed value is returned as it is.
        """
        parts = nest.flatten(self._extended._local_results(value))
        if len(parts) != 1 or name is not None:
            return None
        return parts[0]

    def __repr__(self):
        # TF's own repr, not simdist's: TF's errors print it ("created in scope: <tensorflow.
        # python.distribute.mirrored_strategy.MirroredStrategy object at ...>") and the
        # recorded messages (tests/*/fixtures) compare it.
        module = type(self).__module__.replace("simdist", "tensorflow.python")
        return f"<{module}.{type(self).__name__} object at {id(self):#x}>"


def _check_reduce_axis(parts, axis) -> None:
    """TF's error for an ``axis`` that ``strategy.reduce`` cannot sum over.

    TF traces the per-replica reduce_sum in a tf.function, whose shape inference refuses an
    axis outside [-rank, rank), a scalar's axis 0 included (eager reduce_sum accepts that).

    Raises:
      ValueError: an axis out of range for some replica's value.
    """
    for i, leaf in ((i, x) for i, part in enumerate(parts) for x in nest.flatten(part)):
        if leaf is None or isinstance(leaf, str):
            continue
        ndim = execute.convert_to_tensor(leaf).ndim
        for a in axis if isinstance(axis, (list, tuple)) else [axis]:
            if not -ndim <= int(a) < ndim:
                raise ValueError(
                    f"Invalid reduction dimension {a} for input with {ndim} dimensions "
                    f"(replica {i}'s value). strategy.reduce's axis is an axis of each "
                    f"replica's value: use an axis in [{-ndim}, {ndim}), or axis=None to "
                    "reduce across replicas only.")


class StrategyExtended:
    """Additional APIs for strategy implementers (``strategy.extended``)."""

    _default_device = None
    # Whether values_from_function wraps even one replica's value in a PerReplica (TF's
    # regroup(always_wrap=True): Mirrored, its subclasses and the parameter-server
    # strategies do; OneDevice and the default strategy hand back the value itself).
    _wraps_one_replica = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        from simdist.distribute import distribute_graph

        distribute_graph.record_collectives(cls)   # collectives are graph nodes in a trace

    def __init__(self, devices):
        self._devices = tuple(devices)
        self._strategy = None

    def _container_strategy(self):
        return self._strategy

    @property
    def _retrace_functions_for_each_device(self) -> bool:
        """TF's flag (set in distribute_lib's StrategyBase): a tf.function called under
        this strategy is traced once per device (more than one worker device)."""
        try:
            return len(self.worker_devices) > 1
        except RuntimeError:   # the default strategy has none (TF's bare except)
            return False

    @property
    def _num_replicas_in_sync(self) -> int:
        return len(self._devices)

    # The names the user gave, where a replica was soft-placed on another device.
    _worker_names = None

    @property
    def worker_devices(self) -> tuple:
        return self._worker_names or tuple(d.name for d in self._devices)

    @property
    def parameter_devices(self) -> tuple:
        return self.worker_devices

    # --- variables --------------------------------------------------------------------
    def _create_variable(self, next_creator, **kwargs):
        raise NotImplementedError

    def colocate_vars_with(self, colocate_with_variable):
        """Scope in which new variables are placed like ``colocate_with_variable`` (which a
        strategy's variable creator already does here: the scope only checks its argument).

        Raises:
          RuntimeError: not inside this strategy's scope.
          ValueError: ``colocate_with_variable`` was not created in this strategy's scope
            (Keras's optimizers meet it when they make slots).
          AttributeError: OneDevice and CentralStorage given a variable made outside every
            strategy's scope (TF's type, from its ``None.extended``).
        """
        require_strategy_scope_extended(self)
        self._validate_colocate_with_variable(colocate_with_variable)
        return contextlib.nullcontext()

    def _validate_colocate_with_variable(self, colocate_with_variable):
        pass

    def _validate_colocate_same_strategy(self, colocate_with_variable):
        """TF's distribute_utils.validate_colocate (OneDevice and CentralStorage)."""
        v = colocate_with_variable
        if not hasattr(v, "_distribute_strategy"):
            raise ValueError(f"{COLOCATE_MESSAGE}: {v!r}")
        if v._distribute_strategy is None:
            # TF's first line (its strategy is None); the next ones say what happened.
            raise AttributeError(
                "'NoneType' object has no attribute 'extended'\n`colocate_vars_with` was "
                f"passed {v!r}, made outside any tf.distribute.Strategy scope. Create the "
                "model and the optimizer (model.compile) inside `with strategy.scope():`.")
        self._require_made_in_this_scope(v)

    def _require_made_in_this_scope(self, v):
        if v._distribute_strategy.extended is not self:
            raise ValueError(f"{COLOCATE_MESSAGE} {v} created in scope: {v._distribute_strategy}")

    def value_container(self, value):
        """The distributed variable that holds the component ``value`` (or ``value`` itself)."""
        container = getattr(value, "_distributed_container", None)
        return value if container is None else container

    def variable_created_in_scope(self, v) -> bool:
        return getattr(v, "_distribute_strategy", None) is self._strategy

    # --- updates ----------------------------------------------------------------------
    def update(self, var, fn, args=(), kwargs=None, group=True):
        """Run ``fn(component, *args)`` for each copy of ``var``, on that copy's device.

        In replica context the update goes through ``merge_call`` (TF's _replica_ctx_update),
        so every replica's call becomes one cross-replica update.
        """
        ctx = ds_context.get_replica_context()
        if ctx is not None and ds_context.has_strategy():
            return ctx.merge_call(
                lambda strategy, v, a, kw: strategy.extended.update(v, fn, a, kw, group),
                args=(var, tuple(args), kwargs or {}))
        require_cross_replica_or_default_context(self)
        self._validate_update_variable(var)
        kwargs = kwargs or {}
        components = self._local_results(var) if isinstance(var, DistributedValues) else (var,)
        from simdist.distribute.values import select_replica

        args = tuple(args)
        flat = not kwargs and not any(nest.is_nested(a) for a in args)
        results = []
        for i, comp in enumerate(components):
            # Flat positional arguments (an optimizer's gradient): each one's component,
            # as select_replica picks it, without walking a structure per copy.
            picked = _pick(i, args) if flat else select_replica(i, args)
            with context.device(comp.device), UpdateContext(i):
                out = fn(comp, *picked, **(select_replica(i, kwargs) if kwargs else {}))
            results.append(out)
        if len(results) == 1:
            return results[0]  # one variable's assign: its _UnreadVariable, as in TF
        # Several copies: each assign's written value, as TF's mirrored update gives.
        return Mirrored([out.read_value() if isinstance(out, variables.Variable) else out
                         for out in results])

    def _validate_update_variable(self, var):
        pass

    def update_non_slot(self, colocate_with, fn, args=(), kwargs=None, group=True):
        with UpdateContext(0):
            return fn(*args, **(kwargs or {}))

    # --- reductions -------------------------------------------------------------------
    def reduce_to(self, reduce_op, value, destinations, options=None):
        """Reduce ``value`` (PerReplica) to ``destinations`` (a device, variable or value)."""
        reduce_op = as_reduce_op(reduce_op)
        return self._reduce_to(reduce_op, value, destinations, options)

    def batch_reduce_to(self, reduce_op, value_destination_pairs, options=None):
        """Reduce each (value, destinations) pair; may pack them into fewer collectives."""
        reduce_op = as_reduce_op(reduce_op)
        return self._batch_reduce_to(reduce_op, list(value_destination_pairs), options)

    def _batch_reduce_to(self, reduce_op, pairs, options):
        return [self._reduce_to(reduce_op, v, d, options) for v, d in pairs]

    def broadcast_to(self, tensor, destinations):
        """Copy ``tensor`` to ``destinations``."""
        return self._broadcast_to(tensor, destinations)

    def _reduce(self, reduce_op, value):
        dst = context.explicit_device() or self._reduce_destination()
        return self._local_results(self.reduce_to(reduce_op, value, dst))[0]

    def _reduce_destination(self):
        from simdist.hardware.machine import find_device

        return find_device("/device:CPU:0")

    def _gather(self, value, axis):
        from simdist.framework.ops import array_ops

        parts = [execute.convert_to_tensor(v) for v in self._local_results(value)]
        for p in parts:
            if p.ndim == 0:
                raise ValueError(
                    "Cannot gather scalars: every replica's value must have rank >= 1. "
                    "Reshape each value to [1] inside strategy.run first."
                )
        if len(parts) > 1:
            cross_replica_checks.check_gather(parts, axis, cross_replica_checks.kernel_for(
                parts, gather=True, cross_device_ops=getattr(self, "_cross_device_ops", None)))
        with context.device(context.explicit_device() or self._reduce_destination()):
            return array_ops.concat(parts, axis=axis)

    def _local_replica_ids(self) -> range:
        """The global ids of this process's replicas."""
        return range(self._num_replicas_in_sync)

    def _local_results(self, value) -> tuple:
        if isinstance(value, DistributedValues):
            return value.values
        if nest.is_nested(value) and any(isinstance(v, DistributedValues)
                                         for v in nest.flatten(value)):
            from simdist.distribute.values import select_replica

            return tuple(select_replica(i, value) for i in range(len(self._devices)))
        return (value,)

    def read_var(self, v):
        """The value of ``v``: a sync-on-read variable's aggregate, else a copy of its value."""
        from simdist.distribute.distributed_variable import DistributedVariable, SyncOnReadVariable
        from simdist.framework.ops import array_ops

        if isinstance(v, SyncOnReadVariable):
            return v._get_cross_replica().read_value()
        return array_ops.identity(v._get() if isinstance(v, DistributedVariable) else v)

    # --- replica execution ------------------------------------------------------------
    def call_for_each_replica(self, fn, args=(), kwargs=None):
        require_cross_replica_or_default_context(self)
        return self._call_for_each_replica(fn, tuple(args), dict(kwargs or {}))

    def _call_for_each_replica(self, fn, args, kwargs):
        raise NotImplementedError

    def experimental_run_steps_on_iterator(self, *a, **k):
        raise NotImplementedError("Use strategy.run inside a Python loop.")


from simdist.distribute import distribute_graph  # noqa: E402 - needs StrategyExtended

distribute_graph.record_collectives(StrategyExtended)


class SingleReplicaExtended(StrategyExtended):
    """Extended half of one-replica strategies: reductions and gathers pass values through."""

    def _reduce_to(self, reduce_op, value, destinations, options):
        return value

    def _broadcast_to(self, tensor, destinations):
        return tensor

    def _gather(self, value, axis):
        return execute.convert_to_tensor(value)

    def _all_gather(self, value, axis):
        return value


class ReplicaContext:
    """The context of one replica inside ``strategy.run`` (``tf.distribute.ReplicaContext``)."""

    def __init__(self, strategy, replica_id_in_sync_group, device=None):
        self._strategy = strategy
        self._replica_index = replica_id_in_sync_group
        self._device = device
        self._thread = None

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        from simdist.framework import dtypes
        from simdist.framework.ops import array_ops

        # Across processes a worker's first replica is not replica 0 of the cluster.
        offset = getattr(self._strategy.extended, "_replica_id_offset", 0)
        graph = op_recording.current()
        if graph is not None:   # TF's Const "replica_id_in_sync_group" (replica_1/... ...)
            scope = f"replica_{self._replica_index}/" if self._replica_index else ""
            if scope in graph.scope:   # the replica thread's name scope says it already
                scope = ""
            return graph.record(array_ops.constant.__recorded_op__, "pure", None,
                                (self._replica_index + offset,), {"dtype": dtypes.int32},
                                f"{scope}replica_id_in_sync_group")
        return array_ops.constant(self._replica_index + offset, dtype=dtypes.int32)

    @property
    def devices(self):
        return (self._device.name,) if self._device is not None else ()

    def __enter__(self):
        ds_context.push_mode(ds_context.replica_mode(self))
        return self

    def __exit__(self, *exc):
        ds_context.pop_mode()
        return False

    def _require(self):
        mode = ds_context.get_per_thread_mode()
        if mode.replica_context is self:
            return
        if mode.replica_context is None:
            raise RuntimeError(
                "Need to be inside `call_for_each_replica()`: merge_call, all_reduce and "
                "all_gather are replica-context methods; call them inside strategy.run."
            )
        if mode.strategy is self._strategy:
            raise RuntimeError("Mismatching ReplicaContext.")
        raise RuntimeError(f"Mismatching tf.distribute.Strategy objects: {mode.strategy} is "
                           f"not {self._strategy}.")

    def merge_call(self, merge_fn, args=(), kwargs=None):
        """Pause all replicas, call ``merge_fn(strategy, *args)`` once in cross-replica context."""
        self._require()
        self._check_merge_call_graph()
        op_recording.note_merge_call()
        return self._merge_call(merge_fn, tuple(args), dict(kwargs or {}))

    def _check_merge_call_graph(self):
        """Where merge_call may run: anywhere for TF's base ReplicaContext (one device,
        TPU); a MirroredStrategy replica refuses a nested tf.function (mirrored_run)."""

    def _merge_call(self, merge_fn, args, kwargs):
        ds_context.push_mode(ds_context.cross_replica_mode(self._strategy))
        try:
            return merge_fn(self._strategy, *args, **kwargs)
        finally:
            ds_context.pop_mode()

    def all_reduce(self, reduce_op, value, options=None):
        """All-reduce ``value`` (a structure of tensors) across replicas; every replica gets it."""
        reduce_op = as_reduce_op(reduce_op)
        flat = nest.flatten(value)

        def batch_all_reduce(strategy, *values):
            # Each value is reduced onto its own devices (TF's _batch_reduce_destination); a
            # tensor every replica shared comes back as it is, as in TF.
            return strategy.extended.batch_reduce_to(reduce_op, [(v, v) for v in values],
                                                     options)

        batch_all_reduce.collective = f"all_reduce({reduce_op.value})"
        reduced = self.merge_call(batch_all_reduce, args=flat)
        if any(isinstance(v, IndexedSlices) for v in flat):
            # TF: no gradient wrapper (nor its identity on the replica's device) then
            return nest.pack_sequence_as(value, list(reduced))
        from simdist.distribute import all_reduce_grad

        out = [all_reduce_grad.record(reduce_op, x, self._on_own_device(y))
               for x, y in zip(flat, reduced)]
        graph = op_recording.current()
        if graph is not None and out and op_recording.is_symbolic(out[-1]):
            from simdist.distribute import collective_listing

            collective_listing.name_identity_n(graph, self._strategy, out, flat)
        return nest.pack_sequence_as(value, out)

    def all_gather(self, value, axis, options=None):
        """Gather ``value`` from all replicas along ``axis``; every replica gets the result."""

        def gather_fn(strategy, *values):
            return [strategy.extended._all_gather(v, axis) for v in values]

        gather_fn.collective = f"all_gather(axis={axis})"
        flat = nest.flatten(value)
        gathered = self.merge_call(gather_fn, args=flat)
        return nest.pack_sequence_as(value, [self._on_own_device(y) for y in gathered])

    def _on_own_device(self, result):
        """``result`` copied onto this replica's device: TF's custom gradient wraps the
        collective's outputs in an identity that runs under the replica's device scope."""
        from simdist.framework.tensor import Tensor, copy_to

        if self._device is None or not isinstance(result, Tensor):
            return result
        if op_recording.is_symbolic(result):   # in a trace: a node named Identity
            with context.device(self._device.name):
                return _on_replica_device(result, self._device.name)
        return copy_to(result, self._device)

    def __repr__(self):
        return f"<ReplicaContext replica {self._replica_index} of {self._strategy}>"


@op_recording.recorded(name="Identity")
def _on_replica_device(t, device_name):
    """A replica's own copy of a collective's result, as a node of a trace (TF's identity
    under the replica's device scope): it costs what the eager path's copy costs -- a
    transfer from another device, nothing where the result already is -- so a traced step
    and an eager one take the same simulated time."""
    from simdist.framework.tensor import Tensor, copy_to
    from simdist.hardware.machine import find_device

    device = find_device(device_name)
    if t._device is device or execute.in_shape_inference():
        return Tensor(t._value, device)
    return copy_to(t, device)


class ValueContext:
    """What ``experimental_distribute_values_from_function`` tells ``value_fn``."""

    def __init__(self, replica_id_in_sync_group=0, num_replicas_in_sync=1):
        self._replica_id = replica_id_in_sync_group
        self._num = num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self) -> int:
        return self._replica_id

    @property
    def num_replicas_in_sync(self) -> int:
        return self._num

    def __repr__(self):
        return (f"tf.distribute.ValueContext(replica id {self._replica_id}, "
                f" total replicas in sync: {self._num})")


__all__ = ["Strategy", "StrategyExtended", "ReplicaContext", "ValueContext", "PerReplica"]
