"""TF's "tensorflow" logger, set up as TF sets it up (``tf.get_logger``).

Glossary:
  get_logger  -- the "tensorflow" logger. The first call gives it TF's handler: a stream
                 handler with ``logging.BASIC_FORMAT``, so a warning reads
                 ``WARNING:tensorflow:<message>`` on stderr (stdout, and INFO and above, in
                 an interactive shell). When the root logger already has handlers it adds
                 none (its records reach them), as TF avoids logging twice.
Every warning and error simdist logs goes through it. ``logging`` is imported on the first
call: ``import simdist`` leaves it unloaded (test_lazy_import). TF calls get_logger while
``import tensorflow`` runs, so a root logger configured after the import but before the
first message logs TF's messages twice there, once here.

Mirrors tensorflow/python/platform/tf_logging.py (get_logger).
"""

from __future__ import annotations

import threading

_logger = None
_logger_lock = threading.Lock()


def get_logger():
    """The "tensorflow" logger, with TF's handler the first time (``tf.get_logger``)."""
    global _logger
    if _logger is not None:
        return _logger
    with _logger_lock:
        if _logger is None:
            _logger = _configured()
    return _logger


def _configured():
    """The "tensorflow" logger, given TF's stream handler unless root logging is set up."""
    import logging
    import sys

    logger = logging.getLogger("tensorflow")
    if not logging.getLogger().handlers:
        interactive = hasattr(sys, "ps1") or bool(sys.flags.interactive)
        if interactive:          # TF: a shell or notebook logs INFO and up, to stdout
            logger.setLevel(logging.INFO)
        handler = logging.StreamHandler(sys.stdout if interactive else sys.stderr)
        handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    return logger
