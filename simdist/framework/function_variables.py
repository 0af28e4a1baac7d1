"""``tf.Variable`` created while a ``tf.function`` traces: TF lifts it out of the graph, and
allows it on the function's first call only.

Glossary:
  capturing scope -- while tracing, ``tf.Function`` puts a variable creator (``creator_for``)
                     around the Python function, as TF's ``variable_capturing_scope``: a
                     variable made by the traced code itself is a real variable made outside
                     the graph (TF's ``init_scope``); its initial value is a Python value, a
                     callable called there, or a value from ops under ``tf.init_scope``.
  traced initial value -- an initial value computed by the trace (``tf.Variable(x * 2.0)``):
                     the variable starts with zeros of its shape and a node of the trace
                     assigns the value at that trace's first execution (TF's
                     UnliftedInitializerVariable runs its initializer with the first call's
                     arguments).
  eager rule      -- the same first-call rule for a function that runs eagerly (its trace
                     failed): ``eager_rule``.
  kept creation   -- a variable a failed trace made counts as made by TF's first trace only
                     if every call between the traced body and its creation had returned
                     when the trace failed (``creation_stacks``, ``kept_creations``): a
                     helper that the failure cut short (a build that makes variables, then
                     meets what simdist cannot trace) never stored them, and TF's trace,
                     which would not have failed, would have; its eager rerun makes them
                     again as TF's first trace, not as a singleton violation.
  policy          -- what a trace may do: ALLOW (the first call's trace), REFUSE (the second
                     trace of the first call, which TF makes when the first one created
                     variables, and every later trace after such a first call: TF's
                     "singleton" ValueError, from the Variable call in the user's code),
                     ALLOW_THEN_FAIL (a later trace after a first call that made none: TF
                     runs the call, then raises "Creating variables on a non-first call").
Variables made inside a recorded op's own computation (a Keras layer built at execution) are
left to the caller (``function._call`` traces again after them).

Mirrors tensorflow/python/eager/polymorphic_function/polymorphic_function.py
(variable_capturing_scope, invalid_creator_scope, _call) and the lifting in
tensorflow/python/ops/resource_variable_ops.py (UninitializedVariable).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading

import numpy as np

from simdist.framework import context, dtypes
from simdist.framework.tensor import tracing

ALLOW, REFUSE, ALLOW_THEN_FAIL = "allow", "refuse", "allow_then_fail"

SINGLETON_ERROR = (
    "tf.function only supports singleton tf.Variables created on the first call. Make sure "
    "the tf.Variable is only created once or created outside tf.function. See "
    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
NON_FIRST_CALL_ERROR = ("Creating variables on a non-first call to a function decorated "
                        "with tf.function.")


@contextlib.contextmanager
def lifted():
    """Leave the graph being traced for a block (TF's ``init_scope`` inside a tf.function):
    ops run eagerly there and their values are concrete."""
    with tracing.scope(None), context.outside_function():
        yield


def creator_for(graph, policy: str):
    """The variable creator a trace of ``graph`` runs under (see the glossary); the
    variables it makes are appended to ``graph.created_variables``."""
    from simdist.framework import func_graph

    def capturing(next_creator, **kwargs):
        if tracing.value is not graph:   # inside a recorded op, or lifted already
            return next_creator(**kwargs)
        if policy == REFUSE:
            raise ValueError(SINGLETON_ERROR)
        initial = kwargs.get("initial_value")
        traced = initial if func_graph.is_symbolic(initial) else None
        if traced is not None:
            kwargs["initial_value"] = _zeros_like_spec(traced, kwargs.get("dtype"))
        with lifted():
            v = next_creator(**kwargs)
        graph.created_variables.append(v)
        if traced is not None:
            graph.record(_InitialValue(_arrays(v), repr(traced)), "stateful", None,
                         (v, traced), {}, "Assign")
        return v

    capturing.follows_replicas = True   # replica threads of the trace run under it too
    return capturing


@contextlib.contextmanager
def eager_rule(made_before):
    """TF's first-call rule for a function that runs its Python eagerly (it could not be
    traced): ``made_before`` is what its first call made (None: this is the first call).
    Yields a list that holds the variables this call makes. A later call that makes one
    raises TF's singleton ValueError if the first call made some (TF raises it at the first
    call already, from its second trace: a fallback cannot run the Python twice), else
    TF's non-first-call ValueError after the call. Variables made in ``init_scope`` (a
    Keras layer's weights) are the caller's, as in a trace."""
    made: list = []

    def capturing(next_creator, **kwargs):
        if context.executing_eagerly():   # lifted (init_scope)
            return next_creator(**kwargs)
        if made_before:
            raise ValueError(SINGLETON_ERROR)
        v = next_creator(**kwargs)
        made.append(v)
        return v

    capturing.follows_replicas = True
    from simdist.framework import variables

    with variables.variable_creator_scope(capturing):
        yield made
    if made and made_before is not None:
        raise ValueError(NON_FIRST_CALL_ERROR)


def _zeros_like_spec(t, dtype):
    shape = t.shape
    if not shape.is_fully_defined():
        raise ValueError(f"Initial value of a tf.Variable created in a tf.function must have "
                         f"a fully defined shape, got {shape}.")
    return np.zeros(shape.as_list(), dtype=dtypes.as_dtype(dtype or t.dtype).as_numpy_dtype)


class _InitialValue:
    """The node that gives a variable its traced initial value, once, unless something
    wrote it since it was made (a checkpoint restored on creation: TF restores instead of
    initializing)."""

    __name__ = "initial_value"

    def __init__(self, zeros, traced_repr=""):
        self.zeros = zeros   # the arrays the variable (its components) was made with
        self.traced_repr = traced_repr   # the traced initial value, for UnliftableError

    def __call__(self, variable, value):
        if self.zeros is not None and all(a is b for a, b in zip(_arrays(variable),
                                                                 self.zeros)):
            variable.assign(value)
        self.zeros = None


def _arrays(variable) -> tuple:
    """The arrays a variable holds: its own, or each component's of a distributed one."""
    components = getattr(variable, "_values", None)
    return tuple(c._value for c in components) if components else (variable._value,)


class UnliftableError(Exception):
    """An initial value that ``get_concrete_function`` cannot compute outside the graph: it
    depends on the function's arguments (TF's op_selector.UnliftableError)."""


def initialize_lifted(graph) -> None:
    """What TF's ``get_concrete_function`` does for the variables its first trace made
    (``_initialize_uninitialized_variables``): each traced initial value is computed now,
    from the graph's ops alone (lifted out of it), and assigned.

    Raises:
      UnliftableError: an initial value depends on an argument of the function.
    """
    producers = {}
    for node in graph.nodes:
        for _, sid in getattr(node, "out_slots", ()):
            producers[sid] = node
    inputs = {sid for _, sid, _ in graph.inputs}
    order = {id(node): i for i, node in enumerate(graph.nodes)}
    for node in graph.nodes:
        init = getattr(node, "fn", None)
        if not isinstance(init, _InitialValue):
            continue
        needed = _producers_of(node, producers, inputs, graph, init.traced_repr)
        env: dict = {"stdout": sys.stdout}
        for n in sorted(needed, key=lambda n: order[id(n)]):
            n.run(env)
        node.run(env)


def _producers_of(node, producers, inputs, graph, traced_repr) -> list:
    """The nodes that compute ``node``'s symbolic arguments (transitively)."""
    seen: dict = {}
    todo = [sid for _, sid in node.slots]
    while todo:
        sid = todo.pop()
        if sid in inputs:
            name = graph.made_names.get(sid, "input:0").rsplit(":", 1)[0]
            raise UnliftableError(
                f"Unable to lift tensor {traced_repr} because it depends transitively on "
                f"placeholder <tf.Operation '{name}' type=Placeholder> via at least one path"
                f"\nget_concrete_function initializes the variables the function creates "
                f"outside the graph, so their initial values cannot use its arguments: "
                f"compute it from constants, or call the function instead.")
        producer = producers.get(sid)
        if producer is None or id(producer) in seen:
            continue
        seen[id(producer)] = producer
        todo.extend(s for _, s in getattr(producer, "slots", ()))
    return list(seen.values())


@contextlib.contextmanager
def creation_stacks(trace_code):
    """Yield a list that gets, for each variable this thread makes in the block, the calls
    it was made from, innermost first, up to the frame that runs ``trace_code``: each as
    (frame id, code), so no frame (nor its locals) is kept alive. A frame id can be reused
    by a later call once its frame is gone: a later call of the same code at the same place
    may then pass for the earlier one (a rare miscount, of no other consequence)."""
    from simdist.framework import variables

    stacks: list = []
    thread = threading.get_ident()

    def watch(variable):
        if threading.get_ident() == thread:
            calls, f = [], sys._getframe(1)
            while f is not None and f.f_code is not trace_code:
                calls.append((id(f), f.f_code))
                f = f.f_back
            stacks.append(calls if f is not None else [])
            del f

    variables._creation_watchers.append(watch)
    try:
        yield stacks
    finally:
        variables._creation_watchers.remove(watch)


_AUTOGRAPH = os.path.join("simdist", "autograph") + os.sep


def kept_creations(stacks, traceback, trace_code) -> int:
    """How many of the creations in ``stacks`` count as TF's first trace's, for a trace that
    failed with ``traceback`` (see the glossary): those whose calls below the traced body
    (the frame ``trace_code``, FuncGraph tracing's, called) had all returned, AutoGraph's
    operators and the closures the body defines (its converted if/loop bodies) aside. A
    creation whose stack does not reach the body (another thread's) counts."""
    raised, body = set(), None
    while traceback is not None:
        frame = traceback.tb_frame
        raised.add((id(frame), frame.f_code))
        if body is None and frame.f_back is not None and frame.f_back.f_code is trace_code:
            body = (id(frame), frame.f_code)
        traceback = traceback.tb_next
    if body is None:
        return len(stacks)
    inner = body[1].co_qualname + ".<locals>."
    kept = 0
    for calls in stacks:
        if body not in calls:
            kept += 1
            continue
        below = calls[:calls.index(body)]
        if not any(call in raised and _AUTOGRAPH not in call[1].co_filename
                   and not call[1].co_qualname.startswith(inner) for call in below):
            kept += 1
    return kept
