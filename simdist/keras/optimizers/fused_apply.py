"""One step's fused updates of every variable copy, with the per-copy lookups hoisted.

``Optimizer._distributed_apply_gradients_fn`` runs ``extended.update(var, update_step)``
per variable; each update enters a device scope and an update context per copy, picks the
copy's gradient, looks up the step's scalars and the copy's slots, and checks that the
fused kernel applies -- Python that costs several times the copy's own arithmetic. Where
every copy's update would take the fused path (fused.py), this runs the same updates in
the same order with those checks made once per step: the same arrays, the same device
charges (the same clocks and trace events), the same tensors made and freed (memory in
use and peak), the step's scalars made at the same point (the first copy on a device).

Glossary:
  copy entry -- one variable copy's update: its replica index, gradient tensor, slot
                copies, device and dtype, all found before any update runs.
  applies    -- what ``extended.update`` + ``update_step`` + ``fused.start`` would find:
                cross-replica context of a strategy whose ``update`` is the base class's,
                no tape, trace, shape inference or placement log, an optimizer whose class
                gives ``_fused_slots`` and ``_fused_arrays`` and does not override
                ``update_step``, and every copy plain, dense and of its gradient's shape
                and dtype. Anything else (or any lookup that would raise) runs the
                per-variable path, which then does what it always did (errors included).
  skeleton   -- what the step's variables decide (their copies, slot copies, devices,
                dtypes), kept per optimizer for the next step with the same variables;
                while its copies hold the arrays they held when they last fitted (the flat
                update's results), only the gradients are checked.
  scalars    -- the step's coefficients per device, made without entering the copy's
                device scope and update context where the optimizer can
                (``_fused_prepare_at`` on the first device, ``_fused_local_like`` on the
                others), else inside them.
  enabled    -- ``disabled()`` turns it off (tests compare both paths).

Mirrors keras/src/optimizers/optimizer.py (``_distributed_apply_gradients_fn``: one
``extended.update`` per variable) as TF's graph runs it (every copy's update op prepared
once per function, then executed).
"""

from __future__ import annotations

import operator
import weakref

import numpy as np

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.update_context import UpdateContext
from simdist.framework import context
from simdist.framework.switch import Switch
from simdist.hardware import machine as machine_lib
from simdist.keras.optimizers import fused, fused_flat

_switch = Switch()
disabled = _switch.off   # every update through ``extended.update`` (the per-variable path)


def apply(optimizer, distribution, grads_and_vars) -> bool:
    """Update every copy of every variable (see the module docstring); False, having done
    nothing, where the per-variable path must run instead."""
    found = _entries(optimizer, distribution, grads_and_vars)
    if found is None:
        return False
    entries, skeleton = found
    outer = np.geterr()

    def coefficients(entry):   # the step's scalars, made where update_step makes them
        i, _, comp, _, dev, dtype = entry
        key = (dev, dtype)
        c = state.get(key)
        if c is None:
            first = firsts.get(dtype)
            if first is not None and like is not None:   # another device's copy
                c = like(first, dtype, (i, dev))   # (no scope needed: none entered)
            elif first is None and prepare_at is not None:   # the step's first device
                c = prepare_at(dtype, (i, dev))
            if c is None:
                with np.errstate(**outer), context.device(comp.device), UpdateContext(i):
                    if first is not None and like is not None:
                        c = like(first, dtype)
                    if c is None:
                        c = optimizer._prepare_local(dtype)
            state[key] = c
            if first is None:
                firsts[dtype] = c
        return c

    state = optimizer._apply_state
    firsts: dict = {}   # dtype -> the scalars of the step's first device
    like = getattr(optimizer, "_fused_local_like", None)
    prepare_at = getattr(optimizer, "_fused_prepare_at", None)
    with np.errstate(all="ignore"):   # the fused arithmetic's own state, once for all
        if fused_flat.apply(optimizer, entries, coefficients, skeleton):
            # Every copy holds its part of the flat results (of its shape and dtype): the
            # next step's copies fit while they hold these arrays.
            layout = skeleton.layout
            skeleton.fitted = None if layout is None or layout.views is None else \
                list(map(_VALUE, skeleton.owners))
            return True
        kernels: dict = {}
        for entry in entries:
            c = coefficients(entry)
            dev = entry[4]
            k = kernels.get(dev)
            if k is None:
                k = kernels[dev] = fused.Kernel(dev)
            optimizer._fused_arrays(k, entry[1]._value, entry[2], entry[3], c)
    return True


def _entries(optimizer, distribution, grads_and_vars):
    """(the copy entries in update order, the variables' _Skeleton), or None where the
    fused apply does not apply."""
    distribute_lib, DistributedVariable, DistributedValues = fused.distribute_names()
    owner = _owner(type(optimizer))
    ext = distribution.extended
    if not _switch.on or owner is None or optimizer._apply_state is None or \
            type(ext).update is not distribute_lib.StrategyExtended.update or \
            ds_context.get_replica_context() is not None or not fused.plain_eager(False):
        return None
    try:
        distribute_lib.require_cross_replica_or_default_context(ext)
    except Exception:  # noqa: BLE001 - the per-variable path raises it
        return None
    skeleton = _skeleton(optimizer, ext, [var for _, var in grads_and_vars])
    if skeleton is None:
        return None
    # The copies still hold the arrays that fitted at the last step (nothing wrote them
    # since): their slots need no new check.
    values = list(map(_VALUE, skeleton.owners))
    fitted = skeleton.fitted is not None and all(map(operator.is_, values, skeleton.fitted))
    entries = []
    for (grad, _), copies in zip(grads_and_vars, skeleton.copies):
        shared = not isinstance(grad, DistributedValues) or isinstance(grad, DistributedVariable)
        picked = None if shared else grad.values
        for i, comp, slots, dev, dtype in copies:
            g = grad if shared else picked[i]
            if not fused.arrays_fit(g, comp, *(() if fitted else slots)):
                return None
            entries.append((i, g, comp, slots, dev, dtype))
    skeleton.fitted = values
    return entries, skeleton


_VALUE = fused_flat._VALUE


class _Skeleton:
    """What ``_entries`` finds of a step's variables that their identities decide (their
    copies, slot copies, devices and dtypes), kept per optimizer for the next step with
    the same variables, strategy, machine and slot index."""

    __slots__ = ("ext", "machine", "index", "size", "variables", "copies", "owners",
                 "fitted", "layout")

    def __init__(self, ext, machine, index, variables, copies):
        self.ext, self.machine, self.index, self.size = ext, weakref.ref(machine), index, \
            len(index)
        self.variables, self.copies = variables, copies
        self.owners = [o for found in copies for _, comp, slots, _, _ in found
                       for o in (comp, *slots)]
        self.fitted = None   # the owners' arrays when every copy last fitted (_entries)
        self.layout = None   # fused_flat's Layout of the copies

    def fits(self, ext, machine, index, variables) -> bool:
        return self.ext is ext and self.machine() is machine and self.index is index and \
            self.size == len(index) and len(self.variables) == len(variables) and \
            all(a is b for a, b in zip(self.variables, variables))


_skeletons: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # optimizer -> _Skeleton


def _skeleton(optimizer, ext, variables):
    """The variables' _Skeleton (kept, or found now), or None where one does not apply."""
    machine, index = machine_lib.get_machine(), getattr(optimizer, "_index_dict", None)
    kept = _skeletons.get(optimizer)
    if kept is not None and index is not None and kept.fits(ext, machine, index, variables):
        return kept
    copies = []
    for var in variables:
        found = _copies(optimizer, ext, var)
        if found is None:
            return None
        copies.append(found)
    skeleton = _Skeleton(ext, machine, index, list(variables), copies)
    if index is not None:
        _skeletons[optimizer] = skeleton
    return skeleton


def _copies(optimizer, ext, var):
    """[(replica index, copy, slot copies, device, dtype)] of ``var``, or None."""
    _, DistributedVariable, DistributedValues = fused.distribute_names()
    try:
        ext._validate_update_variable(var)
        index = optimizer._index_dict[optimizer._var_key(var)]
    except Exception:  # noqa: BLE001 - the per-variable path raises it
        return None
    slots = optimizer._fused_slots(index)
    if slots is None:
        return None
    comps = var.values if isinstance(var, DistributedValues) else (var,)
    out = []
    for i, comp in enumerate(comps):
        if optimizer._var_key(comp) != optimizer._var_key(var):
            return None
        copies = []
        for s in slots:
            if isinstance(s, DistributedVariable):
                if i >= len(s._values):
                    return None
                s = s._values[i]   # what _get picks inside UpdateContext(i)
            elif hasattr(s, "_get"):
                return None
            copies.append(s)
        dev = machine_lib.find_device(comp.device)   # what tf.device(comp.device) places
        out.append((i, comp, copies, dev, comp.dtype))
    return out


def _owner(cls):
    """The class that gives the fused arrays, where ``update_step`` is its own."""
    for klass in cls.__mro__:
        if "_fused_slots" in klass.__dict__:
            return klass if cls.update_step is klass.update_step else None
    return None
