"""TF's "tensorflow" logger, set up as TF sets it up (``tf.get_logger``).

Glossary:
  get_logger  -- the "tensorflow" logger. The first call gives it TF's handler: a stream
                 handler with ``logging.BASIC_FORMAT``, so a warning reads
                 ``WARNING:tensorflow:<message>`` on stderr (stdout, and INFO and above, in
                 an interactive shell). When the root logger already has handlers it adds
                 none (its records reach them), as TF avoids logging twice.
  log_first_n -- log a message at most ``n`` times from one call site (TF's
                 ``logging.log_first_n``: the count is kept per file and line of the caller).
Every warning and error simdist logs goes through it. ``logging`` is imported on the first
call: ``import simdist`` leaves it unloaded (test_lazy_import). TF calls get_logger while
``import tensorflow`` runs, so a root logger configured after the import but before the
first message logs TF's messages twice there, once here.

Mirrors tensorflow/python/platform/tf_logging.py (get_logger, log_first_n).
"""

from __future__ import annotations

import threading

_logger = None
_logger_lock = threading.Lock()
_counts: dict = {}   # (file, line) of a log_first_n call -> how many times it logged


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


def log_first_n(level, msg, n, *args) -> None:
    """Log ``msg % args`` at ``level`` only the first ``n`` times this call site logs."""
    import sys

    caller = sys._getframe(1)
    site = (caller.f_code.co_filename, caller.f_lineno)
    with _logger_lock:
        count = _counts.get(site, 0)
        _counts[site] = count + 1
    if count < n:
        get_logger().log(level, msg, *args)
