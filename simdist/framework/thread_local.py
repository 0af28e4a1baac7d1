"""Per-thread stacks: device scopes, tapes, strategy modes, variable creators, layer scopes.

Glossary:
  ThreadLocalStack -- ``.items`` is a list each thread sees on its own (empty at first), as
                      TF keeps these scopes per thread; replica threads start clean.
  ThreadLocalValue -- one value per thread (``default`` at first); ``scope(v)`` sets it
                      for a block and puts the old one back.
"""

from __future__ import annotations

import contextlib
import threading


class ThreadLocalStack(threading.local):
    """A list per thread."""

    def __init__(self):
        super().__init__()
        self.items: list = []


class ThreadLocalValue(threading.local):
    """A value per thread, set for a block by ``scope``."""

    def __init__(self, default=None):
        super().__init__()
        self.value = default

    @contextlib.contextmanager
    def scope(self, value):
        old, self.value = self.value, value
        try:
            yield
        finally:
            self.value = old
