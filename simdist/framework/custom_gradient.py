"""``tf.custom_gradient``: a function that gives its own gradient.

Glossary:
  f            -- the decorated function: ``y, grad_fn = f(*args)``; ``grad_fn(*dys)`` gives
                  the gradients of its tensor arguments (one per argument, in order), and
                  with ``variables=`` the gradients of the variables ``f`` read that are
                  not arguments: ``(argument gradients, variable gradients)``.
  custom op    -- a tape records one op from ``f``'s arguments (and those variables) to its
                  outputs, copies of ``y`` (TF's identities), whose gradient rule calls
                  ``grad_fn``; the ops inside ``f`` are on no path from those copies, so only
                  ``grad_fn`` gives the gradient.
  variable watcher -- the variables ``f`` reads, found by a tape of its own that watches
                  accessed variables while ``f`` runs (TF's VariableWatcher).
  in a trace   -- TF's graph mode: the arguments converted to tensors (a Python value's
                  Const, a variable's read), ``f`` traced once (its ops are the graph's),
                  an unused ``Identity`` of each output (TF's search for the variables
                  between the arguments and the outputs), then one ``IdentityN`` node of
                  the outputs, the arguments and the variables ``f`` read (each read
                  again after it, unused), whose outputs the caller gets: at each
                  execution it records the custom op on the execution's tapes, and its
                  ``grad_fn`` (trace-time Python) runs on that execution's tensors
                  (``func_graph.bound_captures``). Keyword arguments: TF's ValueError.

Mirrors tensorflow/python/ops/custom_gradient.py (custom_gradient, _eager_mode_decorator,
_graph_mode_decorator).
"""

from __future__ import annotations

import contextlib
import functools
import inspect

from simdist.framework import execute, func_graph, function_library, nest
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor, tracing

_OP_TYPE = "CustomGradient"


def custom_gradient(f=None):
    """Decorate ``f`` to use the gradient function it returns (``tf.custom_gradient``)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        if tracing.value is None:
            return _eager_mode_decorator(f, args, kwargs)
        return _graph_mode_decorator(f, args, kwargs)

    decorated.__ag_do_not_convert__ = True   # AutoGraph calls it as it is (as before)
    return decorated


def _accepts_variables(grad_fn) -> bool:
    spec = inspect.getfullargspec(grad_fn)
    return "variables" in spec.args or "variables" in spec.kwonlyargs or bool(spec.varkw)


def _watch_variables(f, args, kwargs):
    """``(f(*args, **kwargs), the trainable variables it read)``."""
    watcher = tape_lib.Tape(persistent=True, watch_accessed_variables=True)
    tape_lib.stack().append(watcher)
    try:
        result = f(*args, **kwargs)
    finally:
        tape_lib.stack().remove(watcher)
    return result, list(watcher.variables.values())


def _call(f, args, kwargs):
    """Run ``f``: ``(result, grad_fn, its tensor arguments, the variables it read that are
    not arguments)``.

    Raises:
      TypeError: ``f`` read variables and ``grad_fn`` takes no ``variables`` argument.
    """
    (result, grad_fn), watched = _watch_variables(f, args, kwargs)
    flat_args = [a for a in nest.flatten((args, kwargs)) if _is_tensor_like(a)]
    variables = [v for v in watched if all(v is not a for a in flat_args)]
    if variables and not _accepts_variables(grad_fn):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                        f"'variables', since function uses variables: {variables}")
    return result, grad_fn, flat_args, variables


def _record(outputs, flat_args, variables, grad_fn, bound=None) -> None:
    """Record the custom op (see the glossary) on the active tapes; ``bound``: the graph
    execution's tensors ``grad_fn`` reads.

    The gradient rule raises ValueError when ``grad_fn`` gives another number of
    gradients than there are arguments (or variables)."""
    arg_count = len(flat_args)

    def actual_grad_fn(op, *result_grads):
        with func_graph.bound_captures(bound) if bound else contextlib.nullcontext():
            if variables:
                input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
                if len(variable_grads) != len(variables):
                    raise ValueError("Must return gradient for each variable from "
                                     "@custom_gradient grad_fn.")
            else:
                input_grads, variable_grads = grad_fn(*result_grads), []
        flat_grads = nest.flatten(input_grads)
        if len(flat_grads) != arg_count:
            raise ValueError(f"custom_gradient function expected to return {arg_count} "
                             f"gradients, but returned {len(flat_grads)} instead.")
        return list(flat_grads) + list(variable_grads)

    if tape_lib.active():
        inputs = [a if isinstance(a, Tensor) else execute.convert_to_tensor(a)
                  for a in flat_args] + variables
        tape_lib.record(_OP_TYPE, inputs, outputs, {"grad_fn": actual_grad_fn})


def _eager_mode_decorator(f, args, kwargs):
    """Run ``f``; record the custom op on the tapes; the copies of its outputs."""
    result, grad_fn, flat_args, variables = _call(f, args, kwargs)
    flat_result = [execute.convert_to_tensor(r) for r in nest.flatten(result)]
    copies = [Tensor(r._value, r._device) for r in flat_result]   # TF's identities
    _record(copies, flat_args, variables, grad_fn)
    return nest.pack_sequence_as(result, copies)


def _graph_mode_decorator(f, args, kwargs):
    """``f`` traced into the graph, then its IdentityN node (see ``in a trace``).

    Raises:
      ValueError: keyword arguments (TF's graph mode takes positional ones only).
    """
    from simdist.framework.ops import array_ops

    if kwargs:
        raise ValueError("The custom_gradient decorator currently supports keywords "
                         "arguments only when eager execution is enabled.")
    args = nest.map_structure(_converted, args)
    result, grad_fn, flat_args, variables = _call(f, args, {})
    flat_result = [array_ops.convert_to_tensor(r) for r in nest.flatten(result)]
    for r in flat_result:
        array_ops.identity(r)   # (unused, as TF's: see the glossary)
    outputs = _identity_n(*flat_result, *flat_args, *variables, results=len(flat_result),
                          arguments=len(flat_args), grad_fn=grad_fn,
                          gradient_op_type=f"{_OP_TYPE}-{function_library.uid()}")
    for v in variables:
        v._read()   # (unused, as TF's: it converts the IdentityN's inputs again)
    return nest.pack_sequence_as(result, list(outputs))


def _converted(x):
    """An argument as TF's graph mode converts it: a variable read, a value a Const."""
    from simdist.framework.ops import array_ops

    if hasattr(x, "assign") and hasattr(x, "_as_tensor"):
        return x._read()
    return x if isinstance(x, Tensor) else array_ops.convert_to_tensor(x)


@func_graph.recorded(name="IdentityN")
def _identity_n(*inputs, results, arguments, grad_fn, gradient_op_type=None):
    """The outputs' copies (``inputs``: the outputs, the arguments, the variables); the
    custom op recorded on the tapes (at an execution, its grad_fn reading that
    execution's tensors). ``gradient_op_type``: the gradient override TF's graph names
    (its NodeDef's ``_gradient_op_type``, ``CustomGradient-<uid>``)."""
    copies = [Tensor(t._value, t._device) for t in inputs[:results]]
    end = results + arguments
    _record(copies, list(inputs[results:end]), list(inputs[end:]), grad_fn,
            func_graph.execution_values())
    return tuple(copies)


def _is_tensor_like(x) -> bool:
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


@execute.RegisterGradient(_OP_TYPE)
def _custom_gradient_grad(op, *grads):
    return op.attrs["grad_fn"](op, *grads)
