"""Output of one thread held back: what a dataset function's Python prints where TF's would
print nothing (its spec probes, its eager runs per element), other threads' output untouched.

Glossary:
  held     -- ``with held():`` this thread's writes to ``sys.stdout`` / ``sys.stderr`` are
              dropped; the streams are replaced, while any thread holds, by a proxy that
              passes every other thread's writes (and every other call) to the stream it
              replaced. The last thread to leave puts the streams back (unless something
              else replaced the proxy meanwhile). Nested and concurrent holds are counted.
  passed   -- ``with passed():`` this thread's writes go through again, inside a hold: what
              TF runs per element too (a ``tf.py_function``'s body, ``tf.print``); not
              inside ``held(everything=True)`` (a spec probe: TF runs nothing for it).
  shown after -- a spec's first run of a function simdist failed to trace shows what the
              function printed after the writes the failed trace made (TF's trace printed
              all of it once): ``counted`` then ``shown_after``.
  debugger -- a thread that a debugger traces (``breakpoint()`` in a held function) is not
              held: its prompts show.

Not in TF (its traced function has no Python to run again); contextlib.redirect_stdout would
silence every thread.
"""

from __future__ import annotations

import contextlib
import sys
import threading

_LOCK = threading.Lock()
_STATE = threading.local()   # .depth: this thread's holds (0 in a pass); .whole: its probes
_installed: dict = {}        # stream name -> [proxy, holders]


class _Proxy:
    """``stream`` for every thread but a holding one (whose writes are dropped)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        if _dropped():
            return len(text)
        return self._stream.write(text)

    def writelines(self, lines):
        if not _dropped():
            self._stream.writelines(lines)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def unwrapped(stream):
    """The stream a proxy stands in for (a function traced while a proxy was installed may
    have been given it as ``sys.stdout``); any other stream as it is."""
    return stream._stream if isinstance(stream, _Proxy) else stream


def is_std_stream(stream) -> bool:
    """Whether ``stream`` is sys.stdout or sys.stderr, or a proxy of, or the stream under a
    proxy of, one of them (tf.print accepts it)."""
    stream = unwrapped(stream)
    with _LOCK:
        known = [sys.stdout, sys.stderr] + [entry[0]._stream for entry in _installed.values()]
    return any(stream is unwrapped(s) for s in known)


def op_write(stream, text: str) -> None:
    """An op's (tf.print's) write of ``text`` to ``stream``: seen in a hold (TF's op runs
    per element), not in a ``held(everything=True)`` (TF runs no op for a spec)."""
    if getattr(_STATE, "whole", 0) > 0:
        return
    stream.write(text)
    stream.flush()


def _dropped() -> bool:
    if _debugging():
        return False
    if getattr(_STATE, "whole", 0) > 0:
        skip = getattr(_STATE, "skip", None)
        if skip is None or getattr(_STATE, "op", 0) > 0:
            return True
        _STATE.skip = skip - 1   # (-1 and below: shown)
        return skip > 0
    dropped = getattr(_STATE, "depth", 0) > 0
    if not dropped and getattr(_STATE, "counted", None) is not None:
        _STATE.counted += 1
    return dropped


def _debugging() -> bool:
    """Whether a debugger (pdb's, any bdb.Bdb: ``breakpoint()`` in the function) traces
    this thread: its prompts and output are seen."""
    tracer = sys.gettrace()
    if tracer is None:
        return False
    import bdb

    return isinstance(getattr(tracer, "__self__", None), bdb.Bdb)


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
def _proxies():
    """The proxies in place of sys.stdout and sys.stderr inside the block (counted: the
    last block to leave puts the streams back)."""
    with _LOCK:
        _install("stdout")
        _install("stderr")
    try:
        yield
    finally:
        with _LOCK:
            _uninstall("stdout")
            _uninstall("stderr")


@contextlib.contextmanager
def held(everything: bool = False):
    """Drop this thread's writes to sys.stdout and sys.stderr inside the block (those in a
    ``passed`` block too when ``everything``)."""
    key = "whole" if everything else "depth"
    with _proxies():
        setattr(_STATE, key, getattr(_STATE, key, 0) + 1)
        try:
            yield
        finally:
            setattr(_STATE, key, getattr(_STATE, key) - 1)


@contextlib.contextmanager
def passed():
    """Let this thread's writes through inside the block, even inside a hold."""
    depth = getattr(_STATE, "depth", 0)
    _STATE.depth = 0
    _STATE.op = getattr(_STATE, "op", 0) + 1
    try:
        yield
    finally:
        _STATE.depth = depth
        _STATE.op -= 1


@contextlib.contextmanager
def counted():
    """Count this thread's writes inside the block (all written); yields a list whose
    item is the count after the block."""
    count = [0]
    saved = getattr(_STATE, "counted", None)
    _STATE.counted = 0
    with _proxies():
        try:
            yield count
        finally:
            count[0] = _STATE.counted
            _STATE.counted = saved


@contextlib.contextmanager
def shown_after(writes):
    """Inside ``held(everything=True)``: this thread's writes after its first ``writes``
    (not an op's) are shown; none when ``writes`` is None."""
    saved = getattr(_STATE, "skip", None)
    _STATE.skip = writes
    try:
        yield
    finally:
        _STATE.skip = saved
