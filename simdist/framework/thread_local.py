"""Per-thread stacks: device scopes, tapes, strategy modes, variable creators, layer scopes.

Glossary:
  ThreadLocalStack -- ``.items`` is a list each thread sees on its own (empty at first), as
                      TF keeps these scopes per thread; replica threads start clean.
  ThreadLocalValue -- one value per thread (``default`` at first); ``scope(v)`` sets it
                      for a block and puts the old one back.
  ThreadLocalNamespace -- a plain ``threading.local`` (attributes set per thread) that
                      ``fresh_thread`` also clears.
  fresh_thread     -- give the calling thread every per-thread state above as a new thread
                      would first see it; a pooled replica thread calls it before each
                      replica task, so a task starts as clean as on a thread of its own.
"""

from __future__ import annotations

import contextlib
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

    @contextlib.contextmanager
    def scope(self, value):
        old, self.value = self.value, value
        try:
            yield
        finally:
            self.value = old


class ThreadLocalNamespace(threading.local):
    """Attributes per thread (``getattr(ns, name, default)`` reads one not set yet)."""

    def __init__(self):
        super().__init__()
        _register(self, None)
