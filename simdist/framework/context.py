"""Eager context: the device scope each thread runs ops under.

Glossary:
  device(name)     -- ``tf.device``: ops inside run on that device.
  current_device() -- the innermost ``tf.device`` of this thread, else the default device
                      (GPU:0 when the machine has GPUs, else CPU:0), as TF's eager placer does.
  requested_device() -- what a graph op built here asks for, as TF writes a graph tensor's
                      ``device``: the ``tf.device`` scopes merged, inner parts over outer
                      ones (``/job:localhost`` around ``/cpu:0`` gives
                      ``/job:localhost/device:CPU:0``); ``''`` outside every scope.
  soft placement   -- ``tf.device('GPU:0')`` on a machine with no GPU at all places the
                      block's ops on the CPU, as TF's eager placer does while soft
                      placement is on (its default); with it off
                      (``tf.config.set_soft_device_placement(False)``), or for a device
                      number the machine lacks (GPU:9 of 4), the scope raises.

Mirrors tensorflow/python/eager/context.py (device scopes are per thread).
"""

from __future__ import annotations

import contextlib
import functools

from simdist import _world
from simdist.framework.thread_local import ThreadLocalStack, ThreadLocalValue
from simdist.hardware import machine as machine_lib
from simdist.hardware.device_spec import DeviceSpec

_devices = ThreadLocalStack()
# The scopes' specs as given (merged only when a trace asks, requested_device): a name or
# DeviceSpec merges over the scopes outside it; None (``tf.device(None)``) asks for none;
# a 1-tuple fixes what the block's ops ask for (device(name, requested)).
_requested = ThreadLocalStack()


def _stack() -> list:
    return _devices.items


def default_device():
    """The device an op runs on when nothing says otherwise."""
    m = machine_lib.get_machine()
    # Found once per machine (every op outside a device scope asks); kept while the
    # machine still has that device.
    found = m.__dict__.get("_default_device")
    if found is not None and m.devices.get(found.name) is found:
        return found
    for kind in ("GPU", "TPU", "CPU"):
        devs = m.devices_of_type(kind)
        if devs:
            m._default_device = devs[0]
            return devs[0]
    return m.devices_of_type("CPU")[0]  # no devices at all: IndexError, as before


def current_device():
    """The device of the innermost ``tf.device`` scope, or the default device."""
    return explicit_device() or default_device()


def explicit_device():
    """The innermost ``tf.device`` scope's device, or None when there is none."""
    s = _stack()
    return s[-1] if s else None


def requested_device() -> str:
    """The device spec a graph op made here asks for, as TF writes it ('' for none)."""
    s = _requested.items
    return _resolved(tuple(s)) if s else ""


@functools.lru_cache(maxsize=512)
def _resolved(entries: tuple) -> str:
    """The scopes' entries (see ``_requested``) merged as TF's MergeDevice does: each
    spec's parts over the ones it leaves out, from the innermost None or fixed entry."""
    start = len(entries)
    while start and entries[start - 1] is not None and type(entries[start - 1]) is not tuple:
        start -= 1
    base = DeviceSpec()
    if start and entries[start - 1] is not None:   # a fixed entry: (requested,)
        fixed = entries[start - 1][0]
        base = DeviceSpec.from_string(fixed) if fixed else DeviceSpec()
    for spec in entries[start:]:
        spec = spec if isinstance(spec, DeviceSpec) else DeviceSpec.from_string(spec)
        base = spec.make_merged_spec(base)
    return base.to_string()


def device(name, requested=None):
    """``tf.device``: run the ops of the block on ``name``.

    As TF's eager context: ``''`` names nothing, so the enclosing device stays;
    ``None`` clears the scope, so the block runs on the default device. ``requested``:
    what the block's graph ops say as their device, when not ``name`` merged into the
    enclosing scopes (a TPU replica's: '').
    """
    return _DeviceScope(name, requested)


class _DeviceScope(contextlib.ContextDecorator):
    """``device(name)``'s block: a class, not a generator (every graph node placed by a
    ``tf.device`` enters one at each execution). As the generator's, one object serves
    one ``with`` at a time (a decorated function enters a fresh one per call); its exit
    pops the stacks its enter pushed on."""

    __slots__ = ("name", "requested", "_items")

    def __init__(self, name, requested=None):
        self.name = name
        self.requested = requested
        self._items = None

    def _recreate_cm(self):
        return _DeviceScope(self.name, self.requested)

    def __enter__(self):
        name = self.name
        if name == "":
            self._items = None
            return None
        items = _devices.items
        # None is pushed as "no explicit device" so enclosing scopes no longer apply.
        items.append(None if name is None else _find_device(name))
        r = _requested.items
        r.append(getattr(name, "name", name) if self.requested is None else (self.requested,))
        self._items = (items, r)
        return None

    def __exit__(self, *exc):
        if self._items is not None:
            for stack in self._items:
                stack.pop()
        return False


_soft_placement = [True]


@_world.register_resetter
def _reset_soft_placement() -> None:
    _soft_placement[0] = True


def set_soft_device_placement(enabled: bool) -> None:
    """``tf.config.set_soft_device_placement``: whether a scope naming a device type the
    machine lacks places its ops on the CPU (see the module glossary)."""
    _soft_placement[0] = bool(enabled)


def get_soft_device_placement() -> bool:
    """``tf.config.get_soft_device_placement``."""
    return _soft_placement[0]


def _find_device(name):
    """The device ``name`` names; under soft placement, the CPU of its task when the machine
    has no device of its type (TF's eager placer)."""
    try:
        return machine_lib.find_device(name)
    except ValueError:
        spec = DeviceSpec.from_string(getattr(name, "name", name) or "")
        kind = (spec.device_type or "").upper()
        machine = machine_lib.get_machine()
        if not (_soft_placement[0] and kind and kind != "CPU" and not any(
                d.name.rpartition("/")[2].startswith(f"device:{kind}:")
                for d in machine.devices.values())):
            raise
        return machine_lib.find_device(
            spec._replace(device_type="CPU", device_index=0).to_string())


_in_function = ThreadLocalValue(False)


def inside_function():
    """The scope of a ``tf.function`` body (where TF would be building a graph)."""
    return _in_function.scope(True)


def outside_function():
    """Leave a ``tf.function`` body for a block (``tf.init_scope``: eager again)."""
    return _in_function.scope(False)


def executing_eagerly() -> bool:
    """False inside a ``tf.function`` body, as in TF (simdist still runs it eagerly)."""
    return not _in_function.value
