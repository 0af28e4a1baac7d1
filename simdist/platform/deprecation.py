"""TF's deprecation warning for an endpoint kept for old code (``tf.data.experimental.scan``).

Glossary:
  deprecated  -- a decorator: the first call of the function logs, through TF's logger,
                 ``From <caller file>:<line>: <name> (from <TF module>) is deprecated and
                 will be removed in a future version.`` then ``Instructions for updating:``
                 and what to use instead; later calls log nothing (TF's warn_once).
  tf_module   -- the module TF names: TF's own, so the text reads as TF prints it.

Mirrors tensorflow/python/util/deprecation.py (deprecated, _call_location).
"""

from __future__ import annotations

import functools
import sys

from simdist.platform import tf_logging

_PRINTED_WARNING: set = set()


def deprecated(tf_module: str, instructions: str, name: str | None = None):
    """Log TF's deprecation text at the first call of the decorated function."""

    def decorate(fn):
        shown = name or fn.__name__

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if wrapper not in _PRINTED_WARNING:
                _PRINTED_WARNING.add(wrapper)
                caller = sys._getframe(1)
                tf_logging.get_logger().warning(
                    "From %s:%d: %s (from %s) is deprecated and will be removed in a future "
                    "version.\nInstructions for updating:\n%s", caller.f_code.co_filename,
                    caller.f_lineno, shown, tf_module, instructions)
            return fn(*args, **kwargs)

        return wrapper

    return decorate
