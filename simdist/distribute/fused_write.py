"""A cross-replica ``assign_add`` / ``assign_sub`` of a Python number to every copy of a
distributed variable, without ``extended.update``'s per-copy scopes.

``DistributedVariable._update_cross_replica`` runs ``extended.update(var, fn, (value,))``:
per copy a device scope, an update context and the copy's ``assign_add``, which converts
the number to a tensor on the copy's device, writes the sum (charged as its op) and gives
an unread variable, read after all copies for the ``Mirrored`` result. An optimizer's step
counter (``iterations.assign_add(1)``) does this at every step; the Python around it costs
many times the writes. Where every copy's write would do only that, ``update`` here does
the same per copy with the scopes' work done once: the same tensors made and freed, the
same charges in the same order, the same unread variables and reads.

Glossary:
  applies -- a plain eager call (no tape, trace, placement log) in cross-replica (or the
             default) context of a strategy whose ``update`` is the base class's, a
             Python int or float whose conversion to the variable's dtype is kept
             (``execute._scalars``: it was converted once before), and plain copies on
             their own devices holding NumPy values of no shape (a number adds to a
             scalar without broadcasting).
             Anything else returns None: the caller runs ``extended.update``.
  enabled -- ``disabled()`` turns it off (tests compare both paths).

Mirrors tensorflow/python/distribute/values_util.py (``on_write_assign_add``: the
cross-replica update of every component) as distribute_lib's ``update`` runs it.
"""

from __future__ import annotations

import operator

import numpy as np

from simdist.distribute import distribute_lib
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import context, dtypes, execute, tape
from simdist.framework import tensor as tensor_lib
from simdist.framework.switch import Switch
from simdist.framework.tensor import Tensor
from simdist.framework.variables import ResourceVariable, _UnreadVariable
from simdist.hardware import array_api

_switch = Switch()
disabled = _switch.off   # every write through extended.update

_OPS = {"_assign_add": ("AssignAddVariableOp", operator.add),   # Variable.assign_add's +
        "_assign_sub": ("AssignSubVariableOp", operator.sub)}


def update(var, update_fn, value):
    """``extended.update(var, update_fn, args=(value,))``'s result (see the module
    docstring), or None, having done nothing, where it does not apply."""
    op = _OPS.get(getattr(update_fn, "__name__", None))
    if op is None or not _switch.on or type(value) not in (int, float) or tape.active() or \
            tensor_lib.active[0] or execute._log_placement[0] or execute._scratch.value:
        return None
    ext = var._distribute_strategy.extended
    if type(ext).update is not distribute_lib.StrategyExtended.update or (
            ds_context.get_replica_context() is not None and ds_context.has_strategy()):
        return None   # (update's merge_call from a replica context)
    from simdist.distribute.distributed_variable import _assign_add, _assign_sub

    if update_fn is not _assign_add and update_fn is not _assign_sub:
        return None
    distribute_lib.require_cross_replica_or_default_context(ext)   # update's checks
    ext._validate_update_variable(var)
    copies = ext._local_results(var)
    arrays = []
    for comp in copies:
        a = comp._value
        if type(comp) is not ResourceVariable or not (
                type(a) is np.ndarray or isinstance(a, np.generic)) or a.shape != () or \
                context._find_device(comp.device) is not comp._device:
            return None
        key = execute._scalar_key(value, dtypes.as_dtype(a.dtype), True)
        arrays.append(None if key is None else execute._scalars.get(key))
    if any(d is None for d in arrays):
        return None
    name, fn = op
    unread = []
    for comp, d in zip(copies, arrays):   # each copy's assign, in its scopes
        dev = comp._device
        d = Tensor(array_api.from_host(d), dev)._value   # the converted delta, dead at once
        comp._write(fn(comp._value, d), name)
        unread.append(_UnreadVariable(comp))
    from simdist.distribute.values import Mirrored

    if len(unread) == 1:
        return unread[0]
    return Mirrored([u.read_value() for u in unread])
