"""An on/off switch for an optional fast path, turned off for a block (tests compare the
paths).

Glossary:
  Switch.on   -- whether the path is taken (True unless inside ``off()``).
  Switch.off  -- a context manager: off inside the block, as it was after it (nests).
"""

from __future__ import annotations

import contextlib


class Switch:
    """A flag that starts on and that ``off()`` turns off for a block."""

    def __init__(self):
        self.on = True

    @contextlib.contextmanager
    def off(self):
        """Off inside the block; restored after it."""
        saved = self.on
        self.on = False
        try:
            yield
        finally:
            self.on = saved
