"""``tf.autograph``'s public functions.

Glossary:
  to_graph        -- the converted function (the Python function whose ``if`` / ``while`` /
                     ``for`` run tf.cond / tf.while_loop for tensors); tf.function calls it
                     when ``autograph=True``.
  to_code         -- the converted source, as text.
  do_not_convert  -- marks a function to run unconverted (to_graph returns it unchanged);
                     while it runs AutoGraph is disabled on its thread (``disabled()``, TF's
                     ControlStatusCtx): a tf.data iterator then counts its traced next()s.
  set_verbosity   -- how much AutoGraph logs (kept; simdist logs only its warnings).

Mirrors tensorflow/python/autograph/impl/api.py.
"""

from __future__ import annotations

import functools
import os
import sys

from simdist.autograph.impl import conversion
from simdist.framework.thread_local import ThreadLocalValue

_disabled = ThreadLocalValue(False)   # inside a do_not_convert function


def disabled() -> bool:
    """Whether AutoGraph is disabled here: code run by a do_not_convert function."""
    return _disabled.value


_verbosity = {"level": int(os.environ.get("AUTOGRAPH_VERBOSITY", 0)), "stdout": False}


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """``entity`` converted by AutoGraph (functions and methods; anything else unchanged)."""
    del recursive, experimental_optional_features
    if not callable(entity):
        raise ValueError(f"Expected a Python function or method, got {entity!r}")
    return conversion.convert(entity)


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The source of ``entity`` as AutoGraph converts it."""
    del recursive, experimental_optional_features
    return conversion.converted_source(entity) + "\n"


def do_not_convert(func=None):
    """Mark ``func`` to run as it is, never converted (also a decorator)."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with _disabled.scope(True):
            return func(*args, **kwargs)

    setattr(wrapper, conversion.DO_NOT_CONVERT, True)
    return wrapper


def set_verbosity(level, alsologtostdout=False):
    """How much AutoGraph logs (``tf.autograph.set_verbosity``)."""
    _verbosity["level"], _verbosity["stdout"] = int(level), bool(alsologtostdout)


def get_verbosity() -> int:
    return _verbosity["level"]


def trace(*args):
    """Print ``args`` when the code runs (``tf.autograph.trace``)."""
    print(*args, file=sys.stdout)
