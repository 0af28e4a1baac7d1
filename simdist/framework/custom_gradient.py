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
  in a trace   -- the call is one recorded node: at execution it runs eagerly as above, so
                  the execution's tapes record the custom op.

Mirrors tensorflow/python/ops/custom_gradient.py (custom_gradient, _eager_mode_decorator).
"""

from __future__ import annotations

import functools
import inspect

from simdist.framework import execute, func_graph, nest
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import Tensor

_OP_TYPE = "CustomGradient"


def custom_gradient(f=None):
    """Decorate ``f`` to use the gradient function it returns (``tf.custom_gradient``)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _eager_mode_decorator(f, args, kwargs)

    return func_graph.recorded(decorated, name=getattr(f, "__name__", _OP_TYPE))


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


def _eager_mode_decorator(f, args, kwargs):
    """Run ``f``; record the custom op on the tapes; the copies of its outputs.

    Raises:
      TypeError: ``f`` read variables and ``grad_fn`` takes no ``variables`` argument.
      ValueError: ``grad_fn`` gave another number of gradients than there are arguments
        (or variables).
    """
    (result, grad_fn), watched = _watch_variables(f, args, kwargs)
    flat_args = [a for a in nest.flatten((args, kwargs)) if _is_tensor_like(a)]
    variables = [v for v in watched if all(v is not a for a in flat_args)]
    if variables and not _accepts_variables(grad_fn):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                        f"'variables', since function uses variables: {variables}")
    flat_result = [execute.convert_to_tensor(r) for r in nest.flatten(result)]
    copies = [Tensor(r._value, r._device) for r in flat_result]   # TF's identities
    arg_count = len(flat_args)

    def actual_grad_fn(op, *result_grads):
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
        tape_lib.record(_OP_TYPE, inputs, copies, {"grad_fn": actual_grad_fn})
    return nest.pack_sequence_as(result, copies)


def _is_tensor_like(x) -> bool:
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


@execute.RegisterGradient(_OP_TYPE)
def _custom_gradient_grad(op, *grads):
    return op.attrs["grad_fn"](op, *grads)
