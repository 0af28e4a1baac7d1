"""Distributed variables: one copy per replica, kept in sync by TF's aggregation rules.

Glossary:
  MirroredVariable      -- ON_WRITE: every copy is updated on each write. In replica
                           context a write with aggregation SUM/MEAN/ONLY_FIRST_REPLICA goes
                           through ``merge_call`` (reduce, then update every copy); with
                           NONE each replica writes only its own copy, as in TF.
  SyncOnReadVariable    -- ON_READ: each replica writes its own copy; reading in
                           cross-replica context aggregates them (SUM/MEAN) or reads the
                           first (ONLY_FIRST_REPLICA). Metrics are built on these.
  AggregatingVariable   -- one variable on a parameter device (CentralStorageStrategy);
                           replica writes are aggregated first.
  apply_aggregation     -- reduce (or take replica 0 of) a value before a synced update.

Mirrors tensorflow/python/distribute/values.py, values_util.py and ps_values.py.
"""

from __future__ import annotations

import operator
import weakref

from simdist import warnings as teach
from simdist.distribute import distribute_lib, fused_write, mistakes
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.reduce_util import ReduceOp
from simdist.distribute.update_context import get_update_replica_id
from simdist.distribute.values import OPERATORS, DistributedDelegate, PerReplica
from simdist.framework import context
from simdist.framework.variables import Variable, VariableAggregation, VariableSynchronization

AGGREGATION_ERROR = (
    "You must specify an aggregation method to update a {variable_type} in Replica Context. "
    "You can do so by passing an explicit value for argument `aggregation` to tf.Variable(..)."
    "e.g. `tf.Variable(..., aggregation=tf.VariableAggregation.SUM)`. Alternatively update it "
    "in cross-replica context: call tf.distribute.get_replica_context().merge_call(merge_fn) "
    "and use strategy.extended.update() inside merge_fn."
)


def apply_aggregation(strategy, value, aggregation, destinations):
    """Combine a per-replica ``value`` as ``aggregation`` says, onto ``destinations``."""
    if aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
        first = strategy.experimental_local_results(value)[0]
        return strategy.extended.broadcast_to(first, destinations=destinations)
    op = ReduceOp.from_variable_aggregation(aggregation)
    return strategy.extended.reduce_to(op, value, destinations)


def _assign(var, value, **kw):
    return Variable.assign(var, value, **kw)


def _assign_add(var, value, **kw):
    return Variable.assign_add(var, value, **kw)


def _assign_sub(var, value, **kw):
    return Variable.assign_sub(var, value, **kw)


# The writes fused_write runs for a number: their op names and Variable's operators.
_NUMBER_WRITES = {_assign_add: ("AssignAddVariableOp", operator.add),
                  _assign_sub: ("AssignSubVariableOp", operator.sub)}


def _scatter_add(var, value, **kw):
    return Variable.scatter_add(var, value)


def _scatter_sub(var, value, **kw):
    return Variable.scatter_sub(var, value)


def _scatter_update(var, value, **kw):
    return Variable.scatter_update(var, value)


class DistributedVariable(DistributedDelegate, Variable):
    """Base of the variables that have one component per replica."""

    _returns_unread_variable = False  # a write gives the written value (a Tensor)

    def __init__(self, strategy, values, aggregation, synchronization):
        DistributedDelegate.__init__(self, values)
        self._distribute_strategy = strategy
        self._aggregation = aggregation
        self._synchronization = synchronization
        self._primary = values[0]
        for v in values:
            v._container_ref = weakref.ref(self)   # Variable._distributed_container

    # --- identity ---------------------------------------------------------------------
    name = property(lambda self: self._primary.name)
    dtype = property(lambda self: self._primary.dtype)
    shape = property(lambda self: self._primary.shape)
    trainable = property(lambda self: self._primary.trainable)
    aggregation = property(lambda self: self._aggregation)
    synchronization = property(lambda self: self._synchronization)
    distribute_strategy = property(lambda self: self._distribute_strategy)
    _id = property(lambda self: self._get()._id)

    @property
    def device(self):
        return self._get().device

    @property
    def _device(self):
        return self._get()._device

    # --- which component --------------------------------------------------------------
    # A read, a tape watch or a write inside ``extended.update`` acts on one component,
    # chosen by this table (first matching row wins; TF's values.py ``_get``):
    #
    #   row  where the code runs                             component
    #   1    extended.update's fn for copy i (update id i)   copy i
    #   2    replica context, replica i                      copy i
    #   3    cross-replica, under tf.device(d) of a copy     the copy on d
    #   4    anywhere else                                   the primary (replica 0's copy)
    def _get(self):
        update_id = get_update_replica_id()
        if isinstance(update_id, int) and update_id < len(self._values):  # row 1
            return self._values[update_id]
        i = self._replica_index()
        if i is not None and i < len(self._values):  # row 2
            return self._values[i]
        return self._get_on_device_or_primary()  # rows 3 and 4

    def _get_on_device_or_primary(self):
        return self._copy_on(context.explicit_device())

    def _copy_on(self, device):
        """The copy on ``device``, else the primary one."""
        if device is not None:
            for v in self._values:
                if v._device is device:
                    return v
        return self._primary

    def _tape_source(self):
        return self._get()

    def _in_cross_replica(self) -> bool:
        return ds_context.in_cross_replica_context() or self._replica_index() is None

    # --- reading ----------------------------------------------------------------------
    def _get_cross_replica(self):
        return self._get_on_device_or_primary()

    def _read_local(self):
        if self._replica_index() is None and get_update_replica_id() is None:
            return self._get_cross_replica()
        return self._get()

    def _update_read(self, i, device):
        """The copy ``_read_local`` picks in cross-replica context inside the scopes of
        ``extended.update``'s update of copy ``i`` on ``device`` (``tf.device`` and
        ``UpdateContext(i)``: row 1 of ``_get``, else rows 3 and 4), found without
        entering them; None for a class that picks its copy otherwise."""
        cls = type(self)
        if cls._read_local is not DistributedVariable._read_local or \
                cls._get is not DistributedVariable._get or \
                cls._get_on_device_or_primary is not DistributedVariable._get_on_device_or_primary:
            return None
        values = self._values
        return values[i] if i < len(values) else self._copy_on(device)

    def value(self):
        return self._read_local().read_value()

    read_value = value

    def _as_tensor(self):   # converted for an op: read in its scope, as a plain variable
        local = self._read_local()
        convert = getattr(local, "_as_tensor", None)
        return local.read_value() if convert is None else convert()

    def numpy(self):
        return self._read_local().numpy()

    def _host_component(self):
        return self._read_local()

    # --- writing ----------------------------------------------------------------------
    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._write(_assign, value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(_assign_add, delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._write(_assign_sub, delta, read_value)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._write(_scatter_add, sparse_delta, True)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._write(_scatter_sub, sparse_delta, True)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._write(_scatter_update, sparse_delta, True)

    # A write (assign, assign_add, assign_sub) goes by this table (first matching row
    # wins; TF's DistributedVariable._update and values_util):
    #
    #   row  where the code runs                        what the write does
    #   0    another strategy is current                refused (TF's "Mixing different
    #                                                   tf.distribute.Strategy objects")
    #   1    extended.update's fn (update id i), in     writes copy i only (copy 0 for a
    #        cross-replica context                      non-replica update id)
    #   2    cross-replica context, or outside any      ``_update_cross_replica``: every
    #        replica                                    copy, each on its own device
    #                                                   (SyncOnRead SUM: the value / n each)
    #   3    replica context                            ``_update_replica``: Mirrored with
    #                                                   NONE, or SyncOnRead: this replica's
    #                                                   copy; Mirrored SUM / MEAN /
    #                                                   ONLY_FIRST_REPLICA: merge_call,
    #                                                   aggregate, then row 2
    def _write(self, update_fn, value, read_value):
        if ds_context.has_strategy() and ds_context.get_strategy() is not \
                self._distribute_strategy:  # row 0
            distribute_lib.require_strategy_scope_extended(self._distribute_strategy.extended)
        update_id = get_update_replica_id()
        if update_id is not None and ds_context.in_cross_replica_context():  # row 1
            out = update_fn(self._values[update_id if isinstance(update_id, int) else 0], value)
        elif self._in_cross_replica():  # row 2
            out = self._update_cross_replica(update_fn, value)
        else:  # row 3
            out = self._update_replica(update_fn, value)
        if isinstance(out, Variable) and not self._returns_unread_variable:
            out = out.read_value()  # TF returns the written value, not the variable
        return out if read_value else None

    def _update_cross_replica(self, update_fn, value):
        # a number added to (subtracted from) every copy
        out = fused_write.update(self, _NUMBER_WRITES.get(update_fn), value)
        if out is not None:
            return out
        return self._distribute_strategy.extended.update(self, update_fn, args=(value,))

    def _update_replica(self, update_fn, value):
        raise NotImplementedError

    # Whether a write in replica context (row 3) merges the replicas (a merge_call).
    _replica_writes_merge = False


class MirroredVariable(DistributedVariable):
    """A variable kept identical on every replica (ON_WRITE synchronization)."""

    _replica_writes_merge = True

    def _update_replica(self, update_fn, value):
        if self._aggregation == VariableAggregation.NONE:
            # TF updates only this replica's copy: the copies may drift apart.
            if teach.enabled():
                mistakes.note_none_write(self)
            return update_fn(self._get(), value)

        def merge_fn(strategy, value):
            if (self._aggregation == VariableAggregation.MEAN and not self.dtype.is_floating
                    and isinstance(value, PerReplica)):
                raise ValueError(
                    "Cannot update non-float variables with tf.VariableAggregation.MEAN "
                    "aggregation in replica context. Either change the variable dtype to float "
                    "or update it in cross-replica context."
                )
            v = apply_aggregation(strategy, value, self._aggregation, self)
            return self._update_cross_replica(update_fn, v)

        return ds_context.get_replica_context().merge_call(merge_fn, args=(value,))


class SyncOnReadVariable(DistributedVariable):
    """A variable whose copies are written locally and aggregated when read across replicas."""

    def _get_cross_replica(self):
        if self._aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
            return self._primary
        op = ReduceOp.from_variable_aggregation(self._aggregation)
        return _ReducedView(self._distribute_strategy.reduce(op, PerReplica(
            [v.read_value() for v in self._values]), axis=None))

    def _update_replica(self, update_fn, value):
        return update_fn(self._get(), value)

    def _update_cross_replica(self, update_fn, value):
        n = len(self._values)
        if self._aggregation == VariableAggregation.SUM:
            if update_fn is not _assign:
                raise ValueError(
                    f"SyncOnReadVariable does not support `{update_fn.__name__[1:]}` in "
                    "cross-replica context when aggregation is set to "
                    "`tf.VariableAggregation.SUM`."
                )
            # Dividing keeps the sum across replicas equal to the assigned value, as TF does
            # (so restoring a summed value restores the same sum).
            from simdist.framework.ops import array_ops, math_ops

            value = array_ops.cast(math_ops.divide(value, n), self.dtype)
        for v in self._values:
            with context.device(v.device):
                update_fn(v, value)
        # TF returns the variable's (aggregated) value after the write, and only then finds
        # that aggregation NONE has no reduction to read it with (the write has happened).
        if self._aggregation != VariableAggregation.ONLY_FIRST_REPLICA:
            ReduceOp.from_variable_aggregation(self._aggregation)  # NONE: TF's ValueError
        return self._get_cross_replica().read_value()


class _ReducedView:
    """A read-only stand-in for an aggregated read (``value``/``numpy`` like a variable)."""

    def __init__(self, tensor):
        self._t = tensor

    def read_value(self):
        return self._t

    def numpy(self):
        return self._t.numpy()

    def __array__(self, dtype=None):
        return self._t.__array__(dtype)

    def __format__(self, spec):
        return format(self._t, spec)


class AggregatingVariable(DistributedVariable):
    """One variable on a parameter device whose replica writes are aggregated first."""

    _returns_unread_variable = True  # its one variable's assign result, as TF's ps_values
    _replica_writes_merge = True

    def _get(self):
        return self._primary

    def _get_on_device_or_primary(self):
        return self._primary

    def _update_replica(self, update_fn, value):
        if self._aggregation == VariableAggregation.NONE:
            if self._distribute_strategy.num_replicas_in_sync > 1:
                raise ValueError(AGGREGATION_ERROR.format(variable_type="AggregatingVariable"))
            return update_fn(self._primary, value)

        def merge_fn(strategy, value):
            v = apply_aggregation(strategy, value, self._aggregation, self)
            return self._update_cross_replica(update_fn, v)

        return ds_context.get_replica_context().merge_call(merge_fn, args=(value,))


VARIABLE_CLASS_MAPPING = {
    VariableSynchronization.ON_WRITE: MirroredVariable,
    VariableSynchronization.ON_READ: SyncOnReadVariable,
}


def validate_synchronization(kwargs):
    sync = kwargs.get("synchronization", VariableSynchronization.AUTO)
    from simdist.framework.variables import _as_enum

    sync = _as_enum(VariableSynchronization, sync, "synchronization", kwargs.get("name"))
    if sync == VariableSynchronization.NONE:
        raise ValueError(
            "`NONE` variable synchronization mode is not supported with tf.distribute strategy. "
            f"Please change the `synchronization` for variable: {kwargs.get('name')}"
        )
    return VariableSynchronization.ON_WRITE if sync == VariableSynchronization.AUTO else sync


def validate_aggregation(kwargs):
    from simdist.framework.variables import _as_enum

    return _as_enum(VariableAggregation, kwargs.get("aggregation", VariableAggregation.NONE),
                    "aggregation", kwargs.get("name"))


# Operators go through tensor conversion (``_as_tensor``) like a plain variable's, so a
# sync-on-read variable read across replicas takes part as its aggregate, as in TF.
for _name in OPERATORS:
    setattr(DistributedVariable, _name, getattr(Variable, _name))
