"""A trace's signature as TF prints it (``print(concrete_function)``,
``Function.pretty_printed_concrete_signatures()``).

Glossary:
  parameter   -- one parameter of the Python function: its name, its kind as ``inspect``
                 names it (POSITIONAL_OR_KEYWORD, ...) and its type constraint.
  type        -- what the trace accepts for a value: ``TensorSpec(...)`` for a tensor,
                 ``Literal[2]`` for a Python value, ``VariableSpec(...)`` for a variable,
                 ``Tuple[...]`` / ``List[...]`` / ``Dict[['k', ...]]`` for nested ones,
                 ``Weakref[...]`` for another object.
  captures    -- the variables the graph reads from outside (by id, as resource specs).

Mirrors tensorflow/core/function/polymorphism/function_type.py (FunctionType.__repr__) and
core/function/trace_type/default_types.py (the types' reprs).
"""

from __future__ import annotations

import inspect
import weakref

from simdist.framework import dtypes
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec


def _is_variable(x) -> bool:
    return hasattr(x, "_as_tensor") and hasattr(x, "assign")


def _spec_text(shape, dtype) -> str:
    return repr(TensorSpec(TensorShape(shape), dtypes.as_dtype(dtype)))


def type_text(value, alias_ids=None) -> str:
    """The TF trace type of ``value`` (an argument, a placeholder or an output)."""
    if isinstance(value, TensorSpec):
        return _spec_text(value.shape, value.dtype)
    if _is_variable(value):
        aliases = {} if alias_ids is None else alias_ids
        alias = aliases.setdefault(id(value), len(aliases))
        return (f"VariableSpec(shape={TensorShape(value.shape)}, dtype={value.dtype!r}, "
                f"trainable={bool(getattr(value, 'trainable', True))}, alias_id={alias})")
    if isinstance(value, Tensor):
        return _spec_text(value.shape, value.dtype)
    from simdist.framework import composite_specs

    spec = composite_specs.spec_of(value)
    if spec is not None:   # a RaggedTensor or a SparseTensor
        return repr(spec)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        paired = ", ".join(f"[{n!r}, {type_text(v, alias_ids)}]"
                           for n, v in zip(value._fields, value))
        return f"{type(value).__name__}[{paired}]"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(type_text(v, alias_ids) for v in value)
        return f"{'Tuple' if isinstance(value, tuple) else 'List'}[{inner}]"
    if isinstance(value, dict):
        paired = ", ".join(f"[{k!r}, {type_text(v, alias_ids)}]" for k, v in value.items())
        return f"Dict[{paired}]"
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return f"Literal[{value!r}]"
    try:
        return f"Weakref[{weakref.ref(value)!r}])"   # TF's repr has the stray ')'
    except TypeError:
        return f"Literal[{value!r}]"


def parameters(python_function) -> list:
    """The function's parameters as TF's FunctionType sees them: a Keras layer (a model) is
    called through ``Layer.__call__(*args, **kwargs)``."""
    if hasattr(python_function, "call") and hasattr(python_function, "built") and \
            not inspect.isroutine(python_function):
        return [inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)]
    try:
        return list(inspect.signature(python_function).parameters.values())
    except (TypeError, ValueError):
        return []


def type_name(value) -> str:
    """TF's name of an argument's type in its binding errors."""
    return "ResourceVariable" if _is_variable(value) else type(value).__name__


def signature_text(names, values, outputs) -> str:
    """FunctionType.__str__: ``(x: TensorSpec(...), b: Literal[2]) -> TensorSpec(...)``."""
    aliases: dict = {}
    inner = ", ".join(f"{n}: {type_text(v, aliases)}" for n, v in zip(names, values))
    return f"({inner}) -> {type_text(outputs)}"


def pretty_signature(python_function, is_method, call_args, call_kwargs, outputs,
                     captures) -> str:
    """FunctionType.__repr__ for one trace: its parameters' types, output type, captures
    (a method's without ``self``)."""
    params = parameters(python_function)
    if is_method:
        params = params[1:]
    aliases: dict = {}
    lines = ["Input Parameters:"]
    for i, value in enumerate(call_args):
        if i < len(params) and params[i].kind is not inspect.Parameter.VAR_POSITIONAL:
            name, kind = params[i].name, params[i].kind.name
        else:
            name, kind = f"args_{i}", "POSITIONAL_ONLY"
        lines.append(f"  {name} ({kind}): {type_text(value, aliases)}")
    by_name = {p.name: p for p in params}
    for name, value in call_kwargs.items():
        p = by_name.get(name)
        kind = p.kind.name if p is not None else "KEYWORD_ONLY"
        lines.append(f"  {name} ({kind}): {type_text(value, aliases)}")
    lines.append("Output Type:")
    lines.append(f"  {type_text(outputs)}")
    lines.append("Captures:")
    if captures:
        lines += [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)"
                  for v in captures]
    else:
        lines.append("  None")
    return "\n".join(lines)
