"""Name scopes: the ``a/b/`` prefix of the names variables get (``tf.name_scope``).

Glossary:
  scope name  -- the current prefix, ``""`` or ``"outer/inner/"``, kept per thread (replica
                 threads start with none, as TF's per-thread context does).
  name_scope  -- ``with tf.name_scope("inner")`` appends ``inner/``; a name ending in ``/``
                 is absolute (it replaces the prefix), ``""`` clears it. Eager scopes are
                 not uniquified ("dense" twice is "dense/" twice). While a tf.function
                 traces, it also opens the graph's scope (``func_graph.graph_name_scope``:
                 made unique, ``s/`` then ``s_1/``), which names the ops recorded inside;
                 ``as scope`` is then that scope, and the variables made in it are named
                 under it (TF's ops.name_scope_v2 in a graph: Graph.name_scope).
  init_scope  -- ``tf.init_scope``: eagerly it keeps the name scope and pauses every
                 gradient tape for the block.
  outside_name_scopes -- leave every open scope for a block (how Keras builds a
                 Sequential's layers: 'dense/kernel', not 'sequential/dense/kernel').
  absolute    -- a variable name ending in ``/`` is used as it is, without the prefix
                 (TF's convention; MirroredStrategy names replica copies so).

Mirrors the eager half of tensorflow/python/framework/ops.py (name_scope_v2, init_scope).
"""

from __future__ import annotations

import contextlib

from simdist.framework import tape
from simdist.framework.tensor import active
from simdist.framework.thread_local import ThreadLocalStack

_scopes = ThreadLocalStack()


def current_scope() -> str:
    """The current scope name, ``""`` or ending in ``/``."""
    return _scopes.items[-1] if _scopes.items else ""


class name_scope:  # noqa: N801 - TF's name
    """A context manager that adds ``name/`` to the current scope (``tf.name_scope``)."""

    def __init__(self, name, graph=True):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._graph = graph   # False: variable names only (a Keras layer's own scope)
        self._graph_scope = None

    name = property(lambda self: self._name)

    def __enter__(self) -> str:
        name = self._name
        if not name or name.endswith("/"):
            scope = name
        else:
            scope = current_scope() + name + "/"
        if self._graph and active[0]:   # tracing: the graph's scope names its ops
            from simdist.framework import func_graph

            self._graph_scope = func_graph.graph_name_scope(name)
            unique = self._graph_scope.__enter__()
            if unique is not None:   # TF's scope is the graph's, made unique ('x_1/')
                scope = unique
        _scopes.items.append(scope)
        return scope

    def __exit__(self, *exc):
        _scopes.items.pop()
        if self._graph_scope is not None:
            graph_scope, self._graph_scope = self._graph_scope, None
            graph_scope.__exit__(*exc)
        return False


def op_scope(eager_scope: str) -> str:
    """The scope an op named ``name=scope`` takes (``with name_scope(...) as scope``):
    while tracing the graph's own, made unique (``AssignMovingAvg_1/``), else the eager
    one."""
    from simdist.framework import func_graph

    g = func_graph.current()
    return g.scope if g is not None and func_graph.recorded_op_variant() is None \
        else eager_scope


@contextlib.contextmanager
def outside_name_scopes():
    """Leave every open name scope for a block."""
    saved, _scopes.items = _scopes.items, []
    try:
        yield
    finally:
        _scopes.items = saved


@contextlib.contextmanager
def init_scope():
    """Pause every gradient tape for a block; names keep their scope (``tf.init_scope``).
    Inside a tf.function being traced, the block leaves the graph: its ops run eagerly, and
    its random ops draw eager op seeds (a layer built in a traced step: its initializer)."""
    from simdist.framework import function_variables
    from simdist.framework.ops import random_ops

    tapes = tape.stack()
    saved = [t.recording for t in tapes]
    for t in tapes:
        t.recording = False
    try:
        with function_variables.lifted(), random_ops.eager_scope():
            yield
    finally:
        for t, recording in zip(tapes, saved):
            t.recording = recording


def variable_name(name) -> str:
    """The full name of a variable asked to be called ``name`` here (see glossary)."""
    base = name if name is not None else "Variable"
    if base.endswith("/"):
        return base[:-1]
    return current_scope() + base
