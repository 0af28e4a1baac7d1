"""Fused per-variable updates: one variable copy's optimizer update computed on its arrays
in one go, charged to the simulated device op by op as the eager ops would be.

Adam, SGD (with momentum or Nesterov), RMSprop (centered, with momentum) and Adagrad
update dense copies this way. The eager update of one Adam copy is about sixteen ops,
each wrapping its result as a Tensor, converting and checking its operands and asking for
tapes; the arithmetic itself is a few NumPy calls on arrays of the variable's size. A
fused update runs that arithmetic directly, with the same NumPy operations in the same
order (so the values are bit-identical), and charges the device each op's simulated cost
in the same order (so the clock and the trace are the same). Only its temporaries are
not accounted as live tensors.

Glossary:
  Kernel     -- the arrays of one update and the device clock it charges: ``op`` charges
                one element-wise op (as framework/execute.py's execute would), ``write`` replaces a
                variable's value (as ``assign_add`` / ``assign_sub`` would).
  scalar_kernel -- the same for a step's scalar hyper-parameters (Adam's bias-corrected
                step size): ``binary`` / ``unary`` give the values ``math_ops`` gives.
  shared_scalars -- those scalars computed once for every device whose inputs have the
                same bits (a step's copies on each replica's device), their ops listed
                (``Charges``) and charged to each device as its own computation would;
                the ops (of operands of the same dtypes and shapes) listed once for the
                steps that follow (``compute``'s ops depend on its inputs' kinds alone).
  scalars_like -- the step's scalar dict on every device but the first made from the
                first's (Adam: ``_fused_local_like``, called by fused_apply): where each
                copy of the learning rate and the step counter holds the first's bits, the
                same allocations in the same order and the same charges, without the
                reads', constants' and checks' Python (``first_scalars`` keeps what it
                needs).
  hold       -- tensors a step's scalars make, accounted instead of made: their memory
                (in use and peak), ids and read-only arrays as making them would give,
                freed by ``release`` (the dropped ones) or by an ``Accounted`` dict's death
                (another device's scalars, holding the first's tensors: the same bits).
  applicable -- the fused path runs only where the eager ops would do nothing else:
                no tape recording, no shape inference, no placement logging, dense
                gradients of the variable's shape and dtype, plain variable copies.
"""

from __future__ import annotations

import itertools
import weakref

import numpy as np

from simdist import warnings as teach
from simdist.framework import context, execute, tape
from simdist.framework import tensor as tensor_lib
from simdist.framework.ops import array_ops
from simdist.framework.tensor import Tensor
from simdist.framework.variables import ResourceVariable, Variable
from simdist.hardware import backend, bounded_memo

_PLAIN = (Variable, ResourceVariable)  # a copy's own storage (not a view, not distributed)


class Kernel:
    """Charges one fused update's ops to the device that runs them."""

    def __init__(self, device):
        self.device = device
        self.charged = not (execute._scratch.value or (
            not device.trace.enabled and device.spec.launch_s == 0))

    def op(self, op_type, inputs, out):
        """Charge an element-wise op producing ``out`` from ``inputs`` (arrays)."""
        if self.charged:
            nbytes = out.nbytes
            for a in inputs:
                nbytes += a.nbytes
            self.device.run_op(op_type, out.size, nbytes, execute.low_precision(out.dtype))
        return out

    @staticmethod
    def write(variable, new, op_name):
        """Give ``variable`` its new value, charged as its assign op."""
        variable._write(new, op_name)


def plain_eager(scoped=True) -> bool:
    """No tape, shape inference, trace or placement log to feed, and a device scope that
    places every op (as inside ``extended.update``; not asked where ``scoped`` is False:
    a caller that places its tensors itself), where eager reads would not warn."""
    if tape.active() or execute._scratch.value or execute._log_placement[0] or (
            scoped and context.explicit_device() is None) or (
                tensor_lib.active[0] and tensor_lib.tracing.value is not None):
        return False
    return not (teach._ENABLED and teach.replicas_here() > 1)  # the eager reads may warn


def scalar_kernel(*tensors):
    """A Kernel for fused arithmetic on the plain eager NumPy ``tensors`` (a step's
    hyper-parameters: ``Optimizer._prepare_local``), or None where the eager ops must run."""
    if not plain_eager():
        return None
    if not all(type(t) is Tensor and (type(t._value) is np.ndarray or isinstance(
            t._value, np.generic)) for t in tensors):  # a variable may hold a NumPy scalar
        return None
    return Kernel(context.explicit_device())


class Charges:
    """A Kernel that charges nothing: it lists the ops it is given (``charges``, as
    ``Device.run_ops`` takes them: Kernel.op's charge of each, in order)."""

    def __init__(self):
        self.charges: list = []

    def op(self, op_type, inputs, out):
        nbytes = out.nbytes
        for a in inputs:
            nbytes += a.nbytes
        self.charges.append((op_type, out.size, nbytes, execute.low_precision(out.dtype)))
        return out


def shared_scalars(owner, compute, inputs, quiet=None):
    """(``compute(kernel, *inputs)``, its charges, their Device.run_ops memo), computed
    once for inputs of the same dtypes, shapes and bits as the last ones ``owner`` gave
    (every device's copy of a step's scalars: the value is computed once and each device
    is charged the ops as its own computation would charge them). ``quiet(*inputs)``:
    the same value without a kernel, or None where it does not apply (for inputs of the
    kept kinds, whose charges are known)."""
    kept = _shared.get(owner)
    if kept is None or len(kept[0]) != len(inputs) or not all(
            a is b and not a.flags.writeable or type(a) is type(b) and a.dtype == b.dtype
            and a.shape == b.shape and a.tobytes() == b.tobytes()
            for a, b in zip(inputs, kept[0])):
        # (the kept inputs are held: a read-only array is itself, by id)
        if kept is not None and len(kept[0]) == len(inputs) and all(
                type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
                for a, b in zip(inputs, kept[0])):
            # Inputs of the kept kinds, other bits (a new step's): the same ops on operands
            # of the same dtypes and shapes, so the kept charges and their memo are these
            value = None if quiet is None else quiet(*inputs)
            if value is None:
                value = compute(_Silent, *inputs)
            charges, memo = kept[2], kept[3]
        else:
            k = Charges()
            value = compute(k, *inputs)
            charges, memo = k.charges, []
        kept = _shared[owner] = (tuple(inputs), value, charges, memo)
    return kept[1], kept[2], kept[3]


class _Silent:
    """A Kernel that neither charges nor lists (shared_scalars' computation of a value
    whose charges are known)."""

    @staticmethod
    def op(op_type, inputs, out):
        return out


_shared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # owner -> the last


def first_scalars(owner, c, step, transients, charges, memo) -> None:
    """Keep what ``owner``'s fused ``_prepare_local`` made ``c`` from on a step's first
    device (the step's array, the arrays of the constants that died with the call, the
    charges of the scalars' ops and their memo, and ``_Shared``: what every other
    device's ``scalars_like`` takes of them), for ``kept_first``. ``c`` itself is known
    by a weak reference to its ``alpha`` (its tensors must die with the step)."""
    _firsts[owner] = (weakref.ref(c["alpha"]), step, transients, charges, memo,
                      _Shared(c, transients))


class _Shared:
    """What every other device's scalar dict of a step shares with the first's (read once
    per step, not per device): the first's values but the learning rate (``values``), and
    the bytes of those and of the ``transients`` (``values_bytes``, ``transients_bytes``;
    None where an array is not a read-only NumPy array: ``scalars_like`` then accounts
    each pair)."""

    __slots__ = ("values", "values_bytes", "transients_bytes")

    def __init__(self, c, transients):
        self.values = [(name, t._value) for name, t in c.items() if name != "lr"]
        self.values_bytes = _frozen_bytes([a for _, a in self.values])
        self.transients_bytes = _frozen_bytes(transients)


def _frozen_bytes(arrays):
    """The bytes of ``arrays`` where each is a read-only NumPy array, else None."""
    n = 0
    for a in arrays:
        if type(a) is not np.ndarray or a.flags.writeable:
            return None
        n += a.nbytes
    return n


def kept_first(owner, c, at=None):
    """``first_scalars``' record of ``c`` (step, transients, charges, memo, _Shared), or
    None where ``c`` is not the last dict kept or the fused path does not apply here
    (``at``: see ``local_copy``)."""
    kept, alpha = _firsts.get(owner), c.get("alpha")
    if kept is None or alpha is None or kept[0]() is not alpha or not plain_eager(at is None):
        return None
    return kept[1:]


_firsts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # owner -> its last


def distribute_names() -> tuple:
    """(distribute_lib, DistributedVariable, DistributedValues), imported at the first
    call (a fused update's, every step: the distribute package loads with a strategy, not
    with the optimizers)."""
    if not _DISTRIBUTE:
        from simdist.distribute import distribute_lib
        from simdist.distribute.distributed_variable import DistributedVariable
        from simdist.distribute.values import DistributedValues

        _DISTRIBUTE.extend((distribute_lib, DistributedVariable, DistributedValues))
    return tuple(_DISTRIBUTE)


_DISTRIBUTE: list = []


def local_copy(variable, like, at=None):
    """The plain variable a read of ``variable`` reads here (a distributed variable's local
    copy, as ``_read_local`` picks it), where it holds ``like``'s bits (type, dtype and
    shape too; any value where ``like`` is None) and its read would do nothing but make the
    tensor (no teaching check); else None. ``at``: (replica index, device) of a copy's
    update whose scopes the caller has not entered (``DistributedVariable._update_read``
    picks the copy read there)."""
    if isinstance(variable, distribute_names()[1]):
        variable = variable._read_local() if at is None else variable._update_read(*at)
    if type(variable) is not ResourceVariable or (
            teach._ENABLED and variable._distribute_strategy is None):
        return None
    a = variable._value
    if like is None or a is like and type(a) is np.ndarray:
        return variable
    if type(a) is not type(like) or a.dtype != like.dtype or a.shape != like.shape or \
            a.tobytes() != like.tobytes():
        return None
    return variable


def scalars_like(first, lr, step, transients, charges, memo, shared, dev=None) -> dict:
    """A fused ``_prepare_local``'s dict on the current device (or ``dev``) made from
    ``first`` (the step's first device's, see ``first_scalars``; ``shared``: its
    ``_Shared``), from the reads of ``lr`` and ``step`` (plain variables holding the first
    device's bits, as ``local_copy`` found them): the same allocations, tensor ids and
    charges as the call (the reads, the ``transients``, the charges, then ``first``'s
    values in its order). Its tensors are accounted, not made, where they fit
    (``Accounted``: ``first``'s tensors, the same bits, stand in for them); else made
    (``scalars_made``)."""
    if dev is None:
        dev = context.explicit_device()
    values = shared.values
    sizes = _like_sizes(lr, step, transients, shared, dev)
    if sizes is None:
        live = [(lr._value, lr._device)] + [(a, dev) for _, a in values]
        dropped = [(step._value, step._device)] + [(a, dev) for a in transients]
        held = hold(live[:1] + dropped + live[1:])   # (in the order the call makes them)
        sizes = None if held is None else (_sizes(live), _sizes(dropped))
    else:   # (the first's arrays are read-only already: only the reads' are made so)
        held = _hold((lr._value, step._value), 2 + len(values) + len(transients),
                     _merged(*sizes))
    if held is None:
        return scalars_made(lr, step, transients, charges, memo, dev, values)
    if Kernel(dev).charged:
        dev.run_ops(charges, memo)
    release(sizes[1])
    return Accounted(first, sizes[0])


def _like_sizes(lr, step, transients, shared, dev):
    """(``_sizes`` of the live tensors, of the dropped ones) of ``scalars_like``'s call
    from ``shared``'s bytes, or None where it must account each pair (``hold``)."""
    a, b = lr._value, step._value
    if shared.values_bytes is None or shared.transients_bytes is None or not (
            _numpy(a) and _numpy(b) and shared.values):
        return None
    live = _merged([(lr._device, a.nbytes)], [(dev, shared.values_bytes)])
    dropped = [(step._device, b.nbytes)]
    if transients:
        dropped = _merged(dropped, [(dev, shared.transients_bytes)])
    return live, dropped


class Accounted(dict):
    """A step's scalar dict on a device other than the first, whose tensors ``hold``
    accounted instead of making them (``scalars_like``): it holds the first device's
    tensors under the same names (the same bits: a fused update reads their arrays
    alone), and its death frees what its own tensors' deaths would (``release``)."""

    __slots__ = ("_held",)

    def __init__(self, first, held):
        super().__init__(first)
        self._held = held

    def __del__(self):
        try:
            release(self._held)
        except Exception:  # noqa: BLE001 - interpreter shutdown: nothing left to account
            pass


def scalars_made(lr, step, transients, charges, memo, dev, values) -> dict:
    """A fused ``_prepare_local``'s dict on ``dev``: the reads of ``lr`` and ``step``
    (plain variables), tensors of the ``transients``' arrays (they die at the return, as
    the call's locals: accounted by ``hold`` where they fit), the ``charges``, then a
    tensor of each ``(name, array)`` of ``values``, in order. The same tensors,
    allocations and charges as the call."""
    c = {"lr": Tensor(lr._value, lr._device)}
    dropped = [(step._value, step._device)] + [(a, dev) for a in transients]
    held = hold(dropped)
    made = None if held is not None else [Tensor(a, d) for a, d in dropped]
    if Kernel(dev).charged:
        dev.run_ops(charges, memo)
    for name, a in values:
        c[name] = Tensor(a, dev)
    if held is not None:
        release(held)
    del made
    return c


def hold(made):
    """Account the ``(array, device)`` pairs of ``made`` (tensors a call makes, in order)
    as making those tensors would, for as long as the caller holds them: the arrays made
    read-only, the tensors' ids drawn, each device's bytes allocated at once (the same
    memory in use and peak as one at a time); ``release`` frees them (or a part:
    ``_sizes`` of those that die first). None, having done nothing, where the tensors
    must be made (an allocation that would not fit fails there, as it does; a value that
    is not NumPy's)."""
    if backend.placer is not None:
        return None
    return _hold([a for a, _ in made], len(made), _sizes(made))


def _hold(arrays, count, held):
    """``hold`` of ``count`` tensors of ``held`` bytes per device (``_sizes``), made of
    ``arrays`` (those not read-only already, at least)."""
    if held is None or backend.placer is not None:
        return None
    for dev, n in held:
        if dev.memory_in_use + n > dev.memory_limit:
            return None
    for a in arrays:
        if type(a) is np.ndarray:
            a.setflags(write=False)
    next(itertools.islice(tensor_lib._ids, count - 1, None))   # their ids
    for dev, n in held:
        dev.allocate(n)
    return held


def _numpy(a) -> bool:
    """Whether ``a`` is a NumPy array or scalar (a variable may hold a NumPy scalar)."""
    return type(a) is np.ndarray or isinstance(a, np.generic)


def _sizes(pairs):
    """[(device, bytes of the ``(array, device)`` pairs on it)], devices in order; None
    where an array is not NumPy's."""
    sizes: dict = {}
    for a, dev in pairs:
        if not _numpy(a):
            return None
        sizes[dev] = sizes.get(dev, 0) + a.nbytes
    return list(sizes.items())


def _merged(*sizes) -> list:
    """The ``_sizes`` of several lists of pairs joined (each device's bytes added)."""
    total: dict = {}
    for part in sizes:
        for dev, n in part:
            total[dev] = total.get(dev, 0) + n
    return list(total.items())


def release(held) -> None:
    """Free what ``hold`` accounted (the tensors' deaths)."""
    for dev, n in held:
        dev.free(n)


def constants(owner, specs) -> list:
    """``tf.constant(value, dtype)`` of each ``(value, dtype)`` of ``specs`` on the current
    device, in order (a step's hyper-parameters, made on every device at every step). The
    first call for ``owner`` and ``specs`` converts them; later ones give the same
    read-only arrays to new tensors (as ``execute.constant_value`` shares its converted
    scalars): the same tensors, allocations and ids, without the conversion's dispatch.
    Only for plain eager calls on NumPy arrays (``fused.plain_eager``: no trace, tape or
    placement log to feed)."""
    key = _constants_key(specs)
    arrays = kept_constants(owner, specs, key)
    if arrays is not None:
        dev = context.current_device()
        return [Tensor(array, dev) for array in arrays]
    made = [array_ops.constant(value, dtype=dtype) for value, dtype in specs]
    if None not in key and all(type(t._value) is np.ndarray and not t._value.flags.writeable
                               for t in made):
        # at 8, hyper-parameters that change: converted afresh
        bounded_memo.keep(_constants.setdefault(owner, {}), key, [t._value for t in made], 8)
    return made


def kept_constants(owner, specs, key=None):
    """The read-only arrays an earlier ``constants(owner, specs)`` converted ``specs`` to
    (what its tensors hold now), or None."""
    if key is None:
        key = _constants_key(specs)
    kept = _constants.get(owner)
    arrays = None if kept is None or None in key else kept.get(key)
    return arrays if backend.xp is np else None


def _constants_key(specs) -> tuple:
    return tuple(execute._scalar_key(value, dtype, True) for value, dtype in specs)


_constants: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # owner -> key -> arrays


def binary(k, op_type, fn, x, y):
    """``math_ops._binary``'s value of ``fn(x, y)`` on arrays of one dtype (a NumPy scalar
    result made an array, as ``execute`` makes it), charged as ``op_type``."""
    value = fn(x, y)
    if value.dtype != x.dtype:
        value = value.astype(x.dtype, copy=False)
    return k.op(op_type, (x, y), np.asarray(value))


def unary(k, op_type, fn, x):
    """``math_ops._unary``'s value of ``fn(x)``, charged as ``op_type``."""
    value = fn(x)
    if value.dtype != x.dtype:
        value = value.astype(x.dtype, copy=False)
    return k.op(op_type, (x,), np.asarray(value))


def applicable(gradient, *variables) -> bool:
    """Whether a fused update may replace the eager ops for these operands (inside
    ``extended.update``: a device scope places every op of the update)."""
    if not plain_eager():
        return False
    return arrays_fit(gradient, *variables)


def arrays_fit(gradient, *variables) -> bool:
    """``applicable``'s operand conditions: a dense NumPy gradient, plain variable copies
    of its shape and dtype, floating point."""
    if type(gradient) is not Tensor or type(gradient._value) is not np.ndarray:
        return False
    shape, dtype = gradient._value.shape, gradient._value.dtype
    for v in variables:   # a plain loop: every copy of every step comes here
        if type(v) not in _PLAIN:
            return False
        value = v._value
        if type(value) is not np.ndarray or value.shape != shape or value.dtype != dtype:
            return False
    return variables[0]._value.dtype.kind == "f"


def start(gradient, variable, *slots):
    """``(Kernel, the slots' copies)`` for a fused update of ``variable`` inside
    ``extended.update``, or None where the eager ops must run instead."""
    slots = [component(s) for s in slots]
    if not applicable(gradient, variable, *slots):
        return None
    return Kernel(context.explicit_device()), slots


def component(variable):
    """The copy of a (possibly distributed) variable that the current update writes."""
    get = getattr(variable, "_get", None)
    return get() if get is not None else variable
