"""tf-keras's call context on an error raised inside a layer's ``call``.

Glossary:
  call context   -- the error is raised again, of its type, with the message
                    ``Exception encountered when calling layer 'm' (type M).``, a blank
                    line, the original message, a blank line, then ``Call arguments
                    received by layer 'm' (type M):`` and one ``  • name=value`` line per
                    parameter of ``call`` (a tensor as ``tf.Tensor(shape=(4, 3),
                    dtype=float32)``, other values by ``repr``, a parameter not given by
                    its default).
  innermost      -- only the innermost failing layer adds it (the error is marked
                    ``_keras_call_info_injected``; outer layers raise it as it is).
  left alone     -- an error whose type takes no message (TF: a RuntimeError instead),
                    arguments that do not bind to ``call``'s signature, and simdist's own
                    signals (NotTraceable: the function then runs eagerly).

Mirrors tf_keras/src/utils/traceback_utils.py (inject_argument_info_in_traceback,
format_argument_value) as tf_keras/src/engine/base_layer.py's ``__call__`` applies it.
"""

from __future__ import annotations

import inspect

from simdist import errors
from simdist.framework import nest
from simdist.framework.tensor import NotTraceable, Tensor


def format_argument_value(value) -> str:
    """A call argument as the message shows it."""
    if isinstance(value, Tensor) and not hasattr(value, "assign"):
        return f"tf.Tensor(shape={value.shape}, dtype={value.dtype.name})"
    return repr(value)


def with_call_info(error: Exception, fn, object_name: str, args, kwargs) -> Exception:
    """``error`` (raised by ``fn(*args, **kwargs)``, a layer's ``call``) with the call
    context (see the module docstring), or ``error`` itself where it is left alone."""
    if hasattr(error, "_keras_call_info_injected") or isinstance(error, NotTraceable):
        return error
    try:
        signature = inspect.signature(fn)
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return error
    lines = []
    for param in signature.parameters.values():
        if param.name in bound.arguments:
            value = nest.map_structure(format_argument_value, bound.arguments[param.name])
        else:
            value = param.default
        lines.append(f"  • {param.name}={value}")
    if not lines:
        return error
    if isinstance(error, errors.OpError):
        message = error.message
    else:
        message = error.args[0] if error.args else ""
    message = (f"Exception encountered when calling {object_name}.\n\n{message}\n\n"
               f"Call arguments received by {object_name}:\n" + "\n".join(lines))
    if isinstance(error, errors.OpError):
        new = type(error)(error.node_def, error.op, message)
    else:
        try:
            new = type(error)(message)
        except TypeError:   # a custom error that takes no message: TF's RuntimeError
            new = RuntimeError(message)
    new._keras_call_info_injected = True
    for attr in ("_graph_node",):   # a graph execution's marks stay with it
        if hasattr(error, attr):
            setattr(new, attr, getattr(error, attr))
    return new.with_traceback(error.__traceback__)
