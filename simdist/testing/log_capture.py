"""Collecting what simdist logs on TF's "tensorflow" logger (fallback and retracing warnings).

Glossary:
  LogCapture       -- a ``logging.Handler`` (WARNING and above) keeping each message in
                      ``messages``; with ``contains``, only the messages holding that text.
  tf_logs          -- a context manager attaching a ``LogCapture`` to the "tensorflow"
                      logger for the length of a block, and removing it after.
Used by the tests (an eager fallback is a failure there) and the app's tf.function page.
"""

from __future__ import annotations

import contextlib
import logging


class LogCapture(logging.Handler):
    """Keeps the messages of the records it sees (those holding ``contains``, if given)."""

    def __init__(self, contains: str | None = None):
        super().__init__(logging.WARNING)
        self.contains = contains
        self.messages: list[str] = []

    def emit(self, record):
        message = record.getMessage()
        if self.contains is None or self.contains in message:
            self.messages.append(message)


@contextlib.contextmanager
def tf_logs(contains: str | None = None):
    """Yield a ``LogCapture`` attached to the "tensorflow" logger while the block runs."""
    handler = LogCapture(contains)
    logger = logging.getLogger("tensorflow")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
