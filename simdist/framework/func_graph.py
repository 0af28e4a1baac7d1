"""The graph a ``tf.function`` builds while it traces, and its symbolic tensors.

Glossary:
  FuncGraph     -- the graph being traced on this thread: ops called on symbolic tensors
                   are recorded in it instead of computing values.
  current()     -- the FuncGraph being traced on this thread, or None while executing
                   eagerly (control flow asks it whether to build ``cond``/``while_loop``).
  is_symbolic(x) -- whether ``x`` is a tensor made while tracing (it has a shape, a dtype
                   and a device, but no value).

Mirrors tensorflow/python/framework/func_graph.py.
"""

from __future__ import annotations

from simdist.framework.thread_local import ThreadLocalValue

_current = ThreadLocalValue(None)


class SymbolicTensor:
    """Marker base of the tensors a trace makes (TF's graph ``Tensor``)."""

    __slots__ = ()


def current():
    """The FuncGraph being traced on this thread, or None (eager execution)."""
    return _current.value


def is_symbolic(x) -> bool:
    """Whether ``x`` is a symbolic tensor (made while tracing, no concrete value)."""
    return isinstance(x, SymbolicTensor)
