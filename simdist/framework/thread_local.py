"""Per-thread stacks: device scopes, tapes, strategy modes, variable creators, layer scopes.

Glossary:
  ThreadLocalStack -- ``.items`` is a list each thread sees on its own (empty at first), as
                      TF keeps these scopes per thread; replica threads start clean.
  ThreadLocalValue -- one value per thread (``default`` at first); ``scope(v)`` sets it
                      for a block and puts the old one back (a plain class, ``Scope``:
                      cheaper to enter than a generator's context manager, and a trace
                      enters scopes for every op it runs).
  ThreadLocalNamespace -- a plain ``threading.local`` (attributes set per thread) that
                      ``fresh_thread`` also clears.
  fresh_thread     -- give the calling thread every per-thread state above as a new thread
                      would first see it; a pooled replica thread calls it before each
                      replica task, so a task starts as clean as on a thread of its own.
"""

from __future__ import annotations

import threading
import weakref

# Every per-thread state object -> how a thread's first use initialises it (None: empty).
_LOCALS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _register(local, init) -> None:
    with _lock:
        if local not in _LOCALS:
            _LOCALS[local] = init


def fresh_thread() -> None:
    """Reset this thread's view of every per-thread state to its first-use value."""
    with _lock:
        states = list(_LOCALS.items())
    for local, init in states:
        local.__dict__.clear()
        if init is not None:
            init(local)


def _init_stack(local) -> None:
    local.items = []


class ThreadLocalStack(threading.local):
    """A list per thread."""

    def __init__(self):
        super().__init__()
        self.items: list = []
        _register(self, _init_stack)


class ThreadLocalValue(threading.local):
    """A value per thread, set for a block by ``scope``."""

    def __init__(self, default=None):
        super().__init__()
        self.value = default
        _register(self, lambda local: setattr(local, "value", default))

    def scope(self, value) -> Scope:
        """A context manager: ``value`` for its block, the value before it after."""
        return Scope(self, value)


class Scope:
    """``ThreadLocalValue.scope``: sets the value on entering (in the entering thread), puts
    the old one back on leaving, however the block ends."""

    __slots__ = ("_local", "_value", "_old")

    def __init__(self, local: ThreadLocalValue, value):
        self._local = local
        self._value = value

    def __enter__(self) -> None:
        local = self._local
        self._old = local.value
        local.value = self._value

    def __exit__(self, *exc_info) -> None:
        self._local.value = self._old


class ThreadLocalNamespace(threading.local):
    """Attributes per thread (``getattr(ns, name, default)`` reads one not set yet)."""

    def __init__(self):
        super().__init__()
        _register(self, None)
