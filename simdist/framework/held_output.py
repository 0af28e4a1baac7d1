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
  collected -- ``with collected(buffer):`` this thread's writes to ``sys.stdout`` go to
              ``buffer`` (a tf.function's trace: what it printed is written once, after it,
              or dropped with a trace that falls back); other threads' are written, but
              for the replica threads of a strategy.run in the trace (``collecting``: they
              trace into the caller's graph), which collect into it too.
  debugger -- a thread that a debugger traces (``breakpoint()`` in a held function) is not
              held: its prompts show.

Each thread's state is its own (thread_local.ThreadLocalValue: a pooled replica thread's task
starts with none, as on a new thread). Not in TF (its traced function has no Python to run
again); contextlib.redirect_stdout would silence (or collect) every thread.
"""

from __future__ import annotations

import contextlib
import sys
import threading

from simdist.framework.thread_local import ThreadLocalValue

_LOCK = threading.Lock()
_installed: dict = {}        # stream name -> [proxy, holders]
# this thread's:
_DEPTH = ThreadLocalValue(0)        # holds (0 in a pass)
_WHOLE = ThreadLocalValue(0)        # held(everything=True) blocks (spec probes)
_OP = ThreadLocalValue(0)           # passes (an op's writes)
_SKIP = ThreadLocalValue(None)      # shown_after's writes still dropped
_COUNTED = ThreadLocalValue(None)   # counted's writes so far
_COLLECT = ThreadLocalValue(None)   # collected's buffer


class _Proxy:
    """``stream`` for every thread but a holding one (whose writes are dropped) or a
    collecting one (whose writes to sys.stdout go to its buffer)."""

    def __init__(self, stream, name: str):
        self._stream = stream
        self._name = name

    def write(self, text):
        target = self._target()
        return len(text) if target is None else target.write(text)

    def writelines(self, lines):
        target = self._target()
        if target is not None:
            target.writelines(lines)

    def _target(self):
        """Where this thread's write goes: its trace's buffer, the stream, or nowhere."""
        if _COLLECT.value is not None and self._name == "stdout" and not _debugging():
            return _COLLECT.value
        return None if _dropped() else self._stream

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
    if _WHOLE.value > 0:
        return
    stream.write(text)
    stream.flush()


def _dropped() -> bool:
    if _debugging():
        return False
    if _WHOLE.value > 0:
        skip = _SKIP.value
        if skip is None or _OP.value > 0:
            return True
        _SKIP.value = skip - 1   # (-1 and below: shown)
        return skip > 0
    dropped = _DEPTH.value > 0
    if not dropped and _COUNTED.value is not None:
        _COUNTED.value += 1
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
        entry = _installed[name] = [_Proxy(getattr(sys, name), name), 0]
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
    holds = _WHOLE if everything else _DEPTH
    with _proxies(), holds.scope(holds.value + 1):
        yield


@contextlib.contextmanager
def passed():
    """Let this thread's writes through inside the block, even inside a hold."""
    with _DEPTH.scope(0), _OP.scope(_OP.value + 1):
        yield


@contextlib.contextmanager
def counted():
    """Count this thread's writes inside the block (all written); yields a list whose
    item is the count after the block."""
    count = [0]
    with _proxies(), _COUNTED.scope(0):
        try:
            yield count
        finally:
            count[0] = _COUNTED.value


@contextlib.contextmanager
def shown_after(writes):
    """Inside ``held(everything=True)``: this thread's writes after its first ``writes``
    (not an op's) are shown; none when ``writes`` is None."""
    with _SKIP.scope(writes):
        yield


def collecting():
    """The buffer this thread's ``collected`` block writes to (None outside one)."""
    return _COLLECT.value


@contextlib.contextmanager
def collected(buffer):
    """This thread's writes to sys.stdout inside the block go to ``buffer`` (before any
    hold: what a trace printed is written, once, after it); other threads' are written.
    None: nothing changes."""
    if buffer is None:
        yield
        return
    with _proxies(), _COLLECT.scope(buffer):
        yield
