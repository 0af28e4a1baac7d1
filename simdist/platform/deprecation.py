"""TF's deprecation warnings for endpoints and arguments kept for old code
(``tf.data.experimental.scan``, ``tf.function(experimental_relax_shapes=...)``).

Glossary:
  deprecated  -- a decorator: the first call of the function logs, through TF's logger,
                 ``From <caller file>:<line>: <name> (from <TF module>) is deprecated and
                 will be removed in a future version.`` then ``Instructions for updating:``
                 and what to use instead; later calls log nothing (TF's warn_once).
  deprecated_arg -- the first call passing a deprecated argument logs ``From <caller
                 file>:<line>: calling <name> (from <TF module>) with <argument> is
                 deprecated and will be removed in a future version.`` then the
                 instructions (TF's deprecated_args, once per function and argument).
  tf_module   -- the module TF names: TF's own, so the text reads as TF prints it.

Mirrors tensorflow/python/util/deprecation.py (deprecated, deprecated_args, _call_location).
"""

from __future__ import annotations

import functools
import sys

from simdist import _world
from simdist.platform import tf_logging

_PRINTED_WARNING: set = set()   # what warned already: TF's warn_once (a new world forgets)


@_world.register_resetter
def _forget_printed() -> None:
    _PRINTED_WARNING.clear()


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


def deprecated_arg(name: str, tf_module: str, arg: str, instructions: str,
                   depth: int = 2) -> None:
    """Log TF's text for a deprecated argument ``arg`` of ``name``, the first time only;
    the location is the frame ``depth`` levels above this call (the caller's caller)."""
    if (name, arg) in _PRINTED_WARNING:
        return
    _PRINTED_WARNING.add((name, arg))
    caller = sys._getframe(depth)
    tf_logging.get_logger().warning(
        "From %s:%d: calling %s (from %s) with %s is deprecated and will be removed in a "
        "future version.\nInstructions for updating:\n%s", caller.f_code.co_filename,
        caller.f_lineno, name, tf_module, arg, instructions)
