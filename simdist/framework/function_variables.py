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
            graph.record(_InitialValue(v._value), "stateful", None, (v, traced), {}, "Assign")
        return v

    return capturing


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

    def __init__(self, zeros):
        self.zeros = zeros   # the array the variable was made with

    def __call__(self, variable, value):
        if self.zeros is not None and variable._value is self.zeros:
            variable.assign(value)
        self.zeros = None
