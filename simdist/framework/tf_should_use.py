"""``should_use_result``: log when a returned object is dropped without being used.

Glossary:
  should_use_result -- a decorator: the function's result comes back wrapped
                       (``ShouldUseWrapper``) when TF would check it -- executing eagerly
                       only with ``warn_in_eager`` (``TensorArray.write``), never inside a
                       tf.function or a tf.data function (TF's automatic control
                       dependencies make the check moot there).
  used / sated       -- any attribute read on the wrapper (a method call, ``flow``...),
                        ``mark_used()`` too; the wrapper forwards everything to the value
                        (``isinstance`` sees the value's class through ``__class__``).
  never used         -- a wrapper deleted unused logs TF's ERROR "Object was never used
                        (type ...)" with the value's repr and where it was made (the last
                        5 frames up to the decorated call).

Mirrors tensorflow/python/util/tf_should_use.py.
"""

from __future__ import annotations

import sys

from simdist.framework import context

_RULE = "=================================="


class _TFShouldUseHelper:
    """Held by a wrapper: logs at deletion unless ``sate`` was called."""

    def __init__(self, type_, repr_, stack_frame):
        self._type, self._repr, self._stack_frame = type_, repr_, stack_frame
        self._sated = False

    def sate(self) -> None:
        self._sated = True
        self._type = self._repr = self._stack_frame = None

    def __del__(self):
        if self._sated:
            return
        try:
            import traceback

            from simdist.platform.tf_logging import get_logger

            creation_stack = "".join(
                line.rstrip() for line in traceback.format_stack(self._stack_frame, limit=5))
            get_logger().error(
                f"{_RULE}\nObject was never used (type {self._type}):\n{self._repr}\nIf you "
                f"want to mark it as used call its \"mark_used()\" method.\nIt was originally "
                f"created here:\n{creation_stack}\n{_RULE}")
        except Exception:  # noqa: BLE001, S110 - at interpreter exit logging may be gone
            pass


_OWN = ("_tf_should_use_helper", "_tf_should_use_wrapped_value")


class ShouldUseWrapper:
    """The value, wrapped: the first attribute read marks it used."""

    def __init__(self, wrapped_value, tf_should_use_helper):
        object.__setattr__(self, "_tf_should_use_helper", tf_should_use_helper)
        object.__setattr__(self, "_tf_should_use_wrapped_value", wrapped_value)

    def __getattribute__(self, key):
        if key not in _OWN:
            object.__getattribute__(self, "_tf_should_use_helper").sate()
        if key in _OWN or key in ("mark_used", "__setattr__"):
            return object.__getattribute__(self, key)
        return getattr(object.__getattribute__(self, "_tf_should_use_wrapped_value"), key)

    def __setattr__(self, key, value):
        if key in _OWN:
            return object.__setattr__(self, key, value)
        return setattr(object.__getattribute__(self, "_tf_should_use_wrapped_value"), key,
                       value)

    def mark_used(self, *args, **kwargs):
        """Mark the value used (no log when it is dropped)."""
        object.__getattribute__(self, "_tf_should_use_helper").sate()
        mark = getattr(object.__getattribute__(self, "_tf_should_use_wrapped_value"),
                       "mark_used", None)
        return None if mark is None else mark(*args, **kwargs)


def _add_should_use_warning(x, warn_in_eager: bool, depth: int):
    if x is None or not (context.executing_eagerly() and warn_in_eager):
        return x
    return ShouldUseWrapper(x, _TFShouldUseHelper(type(x), repr(x), sys._getframe(depth)))


def should_use_result(fn=None, warn_in_eager: bool = False):
    """Decorate ``fn`` so that dropping its result unused logs an error (see glossary)."""
    def decorated(f):
        def wrapped(*args, **kwargs):
            # the frame of ``wrapped``: TF's creation stack ends there
            return _add_should_use_warning(f(*args, **kwargs), warn_in_eager, 1)

        wrapped.__name__, wrapped.__qualname__ = f.__name__, f.__qualname__
        wrapped.__doc__, wrapped.__wrapped__ = f.__doc__, f
        return wrapped

    return decorated if fn is None else decorated(fn)
