"""Output of one thread held back: what a dataset function's Python prints where TF's would
print nothing (its spec probes, its eager runs per element), other threads' output untouched.

Glossary:
  held    -- ``with held():`` this thread's writes to ``sys.stdout`` / ``sys.stderr`` are
             dropped; the streams are replaced, while any thread holds, by a proxy that
             passes every other thread's writes (and every other call) to the stream it
             replaced. The last thread to leave puts the streams back (unless something else
             replaced the proxy meanwhile). Nested and concurrent holds are counted.
  passed  -- ``with passed():`` this thread's writes go through again, inside a hold: what
             TF runs per element too (a ``tf.py_function``'s body, ``tf.print``).

Not in TF (its traced function has no Python to run again); contextlib.redirect_stdout would
silence every thread.
"""

from __future__ import annotations

import contextlib
import sys
import threading

_LOCK = threading.Lock()
_STATE = threading.local()   # .depth: this thread's holds minus its passes
_installed: dict = {}        # stream name -> [proxy, holders]


class _Proxy:
    """``stream`` for every thread but a holding one (whose writes are dropped)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        if getattr(_STATE, "depth", 0) > 0:
            return len(text)
        return self._stream.write(text)

    def writelines(self, lines):
        if getattr(_STATE, "depth", 0) <= 0:
            self._stream.writelines(lines)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _install(name: str) -> None:
    entry = _installed.get(name)
    if entry is None:
        entry = _installed[name] = [_Proxy(getattr(sys, name)), 0]
        setattr(sys, name, entry[0])
    entry[1] += 1


def _uninstall(name: str) -> None:
    entry = _installed[name]
    entry[1] -= 1
    if entry[1] == 0:
        del _installed[name]
        if getattr(sys, name) is entry[0]:
            setattr(sys, name, entry[0]._stream)


@contextlib.contextmanager
def held():
    """Drop this thread's writes to sys.stdout and sys.stderr inside the block."""
    with _LOCK:
        _install("stdout")
        _install("stderr")
    _STATE.depth = getattr(_STATE, "depth", 0) + 1
    try:
        yield
    finally:
        _STATE.depth -= 1
        with _LOCK:
            _uninstall("stdout")
            _uninstall("stderr")


@contextlib.contextmanager
def passed():
    """Let this thread's writes through inside the block, even inside a hold."""
    depth = getattr(_STATE, "depth", 0)
    _STATE.depth = 0
    try:
        yield
    finally:
        _STATE.depth = depth
