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

import itertools

import numpy as np

from simdist.distribute import distribute_lib
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.values import Mirrored
from simdist.framework import context, dtypes, execute, tape, variables
from simdist.framework import tensor as tensor_lib
from simdist.framework.switch import Switch
from simdist.framework.tensor import Tensor
from simdist.framework.variables import ResourceVariable, _UnreadVariable
from simdist.hardware import array_api

_switch = Switch()
disabled = _switch.off   # every write through extended.update

def update(var, op, value):
    """``extended.update(var, update_fn, args=(value,))``'s result (see the module
    docstring), or None, having done nothing, where it does not apply. ``op``: the name
    and operator of ``update_fn``'s write (DistributedVariable's ``_assign_add`` or
    ``_assign_sub``), None for any other."""
    if op is None or not _switch.on or type(value) not in (int, float) or tape.active() or \
            tensor_lib.active[0] or execute._log_placement[0] or execute._scratch.value:
        return None
    ext = var._distribute_strategy.extended
    if type(ext).update is not distribute_lib.StrategyExtended.update or (
            ds_context.get_replica_context() is not None and ds_context.has_strategy()):
        return None   # (update's merge_call from a replica context)
    distribute_lib.require_cross_replica_or_default_context(ext)   # update's checks
    ext._validate_update_variable(var)
    copies = ext._local_results(var)
    arrays, converted = [], {}   # (the delta converted per dtype)
    for comp in copies:
        a = comp._value
        if type(comp) is not ResourceVariable or not (
                type(a) is np.ndarray or isinstance(a, np.generic)) or a.shape != () or \
                context._find_device(comp.device) is not comp._device:
            return None
        d = converted.get(a.dtype)
        if d is None:
            key = execute._scalar_key(value, dtypes.as_dtype(a.dtype), True)
            d = converted[a.dtype] = None if key is None else execute._scalars.get(key)
            if d is None:
                return None
        arrays.append(d)
    name, fn = op
    for comp, d in zip(copies, arrays):   # each copy's assign, in its scopes
        dev = comp._device
        d = Tensor(array_api.from_host(d), dev)._value   # the converted delta, dead at once
        comp._write(fn(comp._value, d), name)
    if len(copies) == 1:
        return _UnreadVariable(copies[0])
    # Each assign's unread variable, read after all the writes (update's Mirrored): the
    # reads of the copies themselves; the unread variables' numbers drawn as theirs
    next(itertools.islice(variables._uid, len(copies) - 1, None))
    return Mirrored([comp._read() for comp in copies])
