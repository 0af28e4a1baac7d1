"""Per-thread stacks: device scopes, tapes, strategy modes, variable creators, layer scopes.

Glossary:
  ThreadLocalStack -- ``.items`` is a list each thread sees on its own (empty at first), as
                      TF keeps these scopes per thread; replica threads start clean.
"""

from __future__ import annotations

import threading


class ThreadLocalStack(threading.local):
    """A list per thread."""

    def __init__(self):
        super().__init__()
        self.items: list = []
