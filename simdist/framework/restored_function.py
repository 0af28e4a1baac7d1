"""A tf.function loaded from a SavedModel: its saved traces, callable without the Python
that traced them.

Glossary:
  saved trace      -- one concrete function: its graph (function_serialization), the
                      parameter names of the Python function it traced (the instance's
                      left out), the defaults a call may leave out and its random state.
  matching         -- a call runs the first trace whose arguments it matches: the same
                      structure, a tensor (or a value convertible to one) of the traced
                      dtype and a compatible shape for each traced tensor, an equal value
                      for each traced Python value; else TF's ValueError listing the
                      options. No new trace is made: the Python is not saved.
  RestoredFunction -- what a loaded object's tf.function attribute is (TF's class name);
                      ``concrete_functions`` lists its traces.
  NestedCall       -- a saved graph's call op of another tf.function (TF's
                      StatefulPartitionedCall of a function in the SavedModel's library):
                      runs that function's saved trace.

Mirrors tensorflow/python/saved_model/function_deserialization.py.
"""

from __future__ import annotations

from simdist.framework import context, execute, func_graph, nest
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_spec import TensorSpec


class SavedTrace:
    """One saved concrete function (see the module glossary)."""

    def __init__(self, graph, params, randomness, defaults=None):
        self.graph = graph
        self.params = list(params)
        self.randomness = randomness
        self.defaults = dict(defaults or {})

    def specs(self):
        """(args, kwargs) of the trace: tensors as TensorSpecs named by their parameter."""
        args, kwargs = self.graph.structured_inputs
        as_spec = (lambda x: TensorSpec(x.shape, x.dtype, x.name.split(":")[0])
                   if isinstance(x, func_graph.SymbolicTensor) else x)
        return nest.map_structure(as_spec, (tuple(args), dict(kwargs)))

    def bind(self, args, kwargs):
        """The call's (args, kwargs) as the trace's, or None when they do not match."""
        t_args, t_kwargs = self.graph.structured_inputs
        given = dict(zip(self.params, args))
        if len(args) > len(self.params) or any(k in given for k in kwargs):
            return None
        given.update(kwargs)
        for name, value in self.defaults.items():
            given.setdefault(name, value)
        names = self.params[:len(t_args)]
        if set(given) != set(names) | set(t_kwargs):
            return None
        # RaggedTensors and SparseTensors match by their components
        call = func_graph.expand((tuple(given[n] for n in names),
                                  {k: given[k] for k in t_kwargs}))
        traced = func_graph.expand((tuple(t_args), dict(t_kwargs)))
        try:
            nest.assert_same_structure(call, traced)
        except (ValueError, TypeError):
            return None
        out = []
        for value, want in zip(nest.flatten(call), nest.flatten(traced)):
            if isinstance(want, func_graph.SymbolicTensor):
                try:
                    t = value if isinstance(value, Tensor) else \
                        execute.convert_to_tensor(value, dtype_hint=want.dtype)
                except (TypeError, ValueError):
                    return None
                if t.dtype != want.dtype or not want.shape.is_compatible_with(t.shape):
                    return None
                out.append(t)
            elif type(value) is type(want) and value == want:
                out.append(value)
            else:
                return None
        return func_graph.collapse(nest.pack_sequence_as(call, out))

    def run(self, call):
        """The graph's outputs for the bound call (``bind``'s)."""
        from simdist.framework import function as function_lib
        from simdist.framework.ops import random_ops

        flat = nest.flatten(func_graph.expand(call))
        with context.inside_function(), random_ops.function_scope(self.randomness):
            return function_lib._as_outputs(self.graph.execute(flat))


class RestoredFunction:
    """A loaded tf.function: runs the saved trace its arguments match."""

    def __init__(self, name, traces):
        self._name = name
        self._traces = list(traces)

    @property
    def concrete_functions(self) -> list:
        return list(self._traces)

    def __call__(self, *args, **kwargs):
        """Run the matching saved trace.

        Raises:
          ValueError: no saved trace matches (TF's text, with the options).
        """
        for trace in self._traces:
            call = trace.bind(args, kwargs)
            if call is not None:
                return trace.run(call)
        raise ValueError(_no_match_text(args, kwargs, self._traces))


class NestedCall:
    """A saved graph's call of a nested tf.function: runs the callee's saved trace (what
    function_serialization writes in place of the live function's call op)."""

    __nested_call__ = True   # runs a graph (graph_errors, tpu_replicate read it)

    def __init__(self, trace, name):
        self.trace = trace
        self.__name__ = name

    def __nested_outputs__(self):
        return self.trace.graph.outputs

    def __call__(self, *args, **kwargs):
        call = self.trace.bind(args, kwargs)
        if call is None:   # the caller's graph calls it as it was traced: not expected
            raise ValueError(_no_match_text(args, kwargs, [self.trace]))
        return self.trace.run(call)


def _arguments_text(args, kwargs, indent="  ") -> str:
    lines = [f"{indent}Positional arguments ({len(args)} total):"]
    lines += [f"{indent}  * {a!r}" for a in args]
    lines.append(f"{indent}Keyword arguments: {kwargs!r}")
    return "\n".join(lines)


def _as_given(value, name):
    """A tensor argument as TF's error shows it: the placeholder it would be."""
    if isinstance(value, Tensor):
        return _Shown(f"<tf.Tensor '{name}:0' shape={value.shape} dtype={value.dtype.name}>")
    return value


class _Shown(str):
    def __repr__(self):
        return str(self)


def _no_match_text(args, kwargs, traces) -> str:
    params = traces[0].params if traces else []
    args = [_as_given(a, params[i] if i < len(params) else f"args_{i}")
            for i, a in enumerate(args)]
    kwargs = {k: _as_given(v, k) for k, v in kwargs.items()}
    options = "\n\n".join(f"Option {i + 1}:\n{_arguments_text(*t.specs())}"
                          for i, t in enumerate(traces))
    return ("Could not find matching concrete function to call loaded from the SavedModel. "
            f"Got:\n{_arguments_text(args, kwargs)}\n\n Expected these arguments to match one "
            f"of the following {len(traces)} option(s):\n\n{options}")
