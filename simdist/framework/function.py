"""``tf.function``: traces the Python function into a graph once per input signature, then
executes the graph.

Glossary:
  trace key     -- what TF would compile a new graph for: tensors by (shape, dtype),
                   variables by (shape, dtype), datasets and iterators by their type spec
                   (``_tracing_key``; the call's own one is the graph's input), Python
                   values by value, nested lists,
                   tuples and dicts element by element; other objects by identity.
  tracing       -- the first call with a new key runs the Python function once with
                   symbolic tensors (``func_graph``), recording its ops; that call and every
                   later call with a matching key execute the recorded graph, without the
                   Python: ``print`` and list appends happen once per trace, as in TF
                   (``tf.print`` and variable updates happen at every call).
  retracing     -- a call whose key matches no earlier trace; ``experimental_get_tracing_count``
                   counts them, so lessons can show why ``f(1)``, ``f(2)`` trace twice
                   while ``f(tf.constant(1))``, ``f(tf.constant(2))`` trace once.
  nested call   -- a tf.function called while another traces: traced apart, once per its
                   own trace key (an eager call with a matching key shares it), and
                   called by one op of the caller's graph (``StatefulPartitionedCall``),
                   which runs for the caller's shapes in a dry run (``func_graph.dry_run``)
                   and executes the inner graph at each call; so the inner Python runs
                   once per inner signature however often the caller retraces, as in TF.
  call context  -- under a strategy that retraces for each device (MirroredStrategy on
                   more than one device), the call's device and cross-replica flag are
                   part of the key: a tf.function called by a replica function traces once
                   per replica (``register_call_context``; TF's function_context.py).
  input_signature -- a list of ``TensorSpec``: one trace whose ``None`` dimensions accept
                   any size; arguments that do not match raise, as in TF.
  reduce_retracing -- after a second shape, trace once with the differing dimensions
                   relaxed to ``None`` and reuse that trace for later shapes.
  eager fallback -- a function whose body does what simdist's graphs cannot record yet
                   (simdist's own code needing a symbolic tensor's value, a dataset made
                   from a symbolic tensor) runs its
                   Python eagerly at every call, as before tracing existed; a warning names
                   the construct once per function. Its trace's printed output is dropped
                   (the eager run prints it); its other Python side effects (a list
                   append made before the construct) cannot be undone and stay, once: the
                   function then runs eagerly for every signature, without tracing again.
A ``next()`` on an exhausted iterator inside the body raises ``OutOfRangeError``, as the
graph's IteratorGetNext does; ``tf.executing_eagerly()`` is False inside the body and
Python results come back as Tensors. Random ops in the body draw as a graph's would: seeds
fixed by the first call of a trace (the global seed then, and op seeds 0, 1, ... in order),
one kernel per op whose state moves on from call to call (``random_ops.FunctionRandomState``).

Variables the body creates follow TF's first-call rule (``function_variables``).

Mirrors tensorflow/python/eager/polymorphic_function/polymorphic_function.py and
tracing_compiler.py.
"""

from __future__ import annotations

import functools
import inspect
import io
import sys
import threading
import weakref

import numpy as np

from simdist import _world
from simdist.framework import (
    composite_specs,
    context,
    dtypes,
    eager_function_run,
    errors,
    execute,
    func_graph,
    function_type,
    function_variables,
    graph_control_flow,
    graph_errors,
    held_output,
    nest,
    nested_shapes,
    summary_ops,
    variables,
)
from simdist.framework import tape as tape_lib
from simdist.framework.op_recording import (  # noqa: F401 - function.register_call_context
    _CALL_CONTEXTS,
    register_call_context,
)
from simdist.framework.tensor import NotTraceable, Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec

_SPECS = (TensorSpec, composite_specs.RaggedTensorSpec, composite_specs.SparseTensorSpec)


class _Spec:
    """A tensor argument in a trace key: dtype and (possibly relaxed) shape."""

    __slots__ = ("kind", "dtype", "shape")

    def __init__(self, kind, dtype, shape):
        # (a TensorShape is immutable: one given is kept as it is, not copied)
        self.kind, self.dtype = kind, dtype
        self.shape = shape if type(shape) is TensorShape else TensorShape(shape)

    def matches(self, other: _Spec) -> bool:
        """Whether a trace of this spec takes a call of ``other``: its shape a subtype (a
        symbolic argument of shape [None, 3] does not match a trace of [1, 3], as TF)."""
        if self.kind != other.kind or self.dtype != other.dtype:
            return False
        # (a shape is a subtype of itself: the same dimensions need no walk)
        return other.shape._dims == self.shape._dims or \
            other.shape.is_subtype_of(self.shape)

    def relaxed(self, other: _Spec) -> _Spec | None:
        """The most specific spec of both (TF relaxes to an unknown rank if need be)."""
        if self.kind != other.kind or self.dtype != other.dtype:
            return None
        return _Spec(self.kind, self.dtype,
                     self.shape.most_specific_compatible_shape(other.shape))

    def __eq__(self, other):
        return (isinstance(other, _Spec) and self.kind == other.kind
                and self.dtype == other.dtype and self.shape == other.shape)

    def __hash__(self):
        return hash((self.kind, self.dtype, self.shape))

    def __repr__(self):
        return f"{self.kind}Spec(shape={self.shape}, dtype={self.dtype!r})"


def _leaf_key(x):
    if type(x) is Tensor:   # (most arguments: the isinstance tests below in one)
        return _Spec("Tensor", x.dtype, x.shape)
    if isinstance(x, (TensorSpec, Tensor)):   # get_concrete_function(tf.TensorSpec(...))
        return _Spec("Tensor", x.dtype, x.shape)
    if isinstance(x, np.ndarray):  # TF traces a NumPy array as a tensor of its spec
        return _Spec("Tensor", dtypes.as_dtype(x.dtype), x.shape)
    if hasattr(x, "_as_tensor") and hasattr(x, "assign"):
        return _Spec("Variable", x.dtype, x.shape)
    tracing_key = getattr(type(x), "_tracing_key", None)
    if tracing_key is not None:   # a dataset or iterator: by its type spec (a graph input)
        return ("input", type(x).__name__, tracing_key(x))
    if isinstance(x, (int, float, bool)):
        return ("literal", x)  # by value: f(1), f(1.0) and f(True) share a trace, as in TF
    if isinstance(x, (str, bytes, type(None))):
        return (type(x).__name__, x)
    try:
        hash(x)
    except TypeError:   # TF's trace_type.from_value refuses what it cannot hash
        raise TypeError(f"Could not generate a generic TraceType for {x!r}.Please verify that "
                        "it is immutable/hashable. Otherwise, consider implementing the "
                        "Tracing Protocol for it.") from None
    return ("object", x)   # by its hash and equality, as TF


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _key(args, kwargs):
    given = (args, kwargs)
    expanded = func_graph.expand(given)   # a PerReplica: one leaf per replica
    if expanded is not given:   # RaggedTensors and SparseTensors: keyed by their specs
        expanded = composite_specs.keyed(expanded)
    structure = _structure_text(expanded)
    leaves = tuple(map(_leaf_key, nest.flatten(expanded)))
    extra = [c() for c in _CALL_CONTEXTS]
    if any(e is not None for e in extra):
        return structure + repr(extra), leaves
    return structure, leaves


def _structure_text(s) -> str:
    """The text of a structure's nesting, each leaf None, with each dict's keys sorted: as
    TF (nest flattens a dict in sorted key order), {'b': x, 'a': y} is the structure of
    {'a': y, 'b': x}. Another nested type (a namedtuple, an OrderedDict) is its repr with
    None leaves."""
    if type(s) is dict:
        return "{" + ", ".join(f"{k!r}: {_structure_text(s[k])}" for k in sorted(s)) + "}"
    if type(s) in (list, tuple):
        inner = ", ".join(map(_structure_text, s))
        return f"[{inner}]" if type(s) is list else f"({inner},)"
    if nest.is_nested(s):
        return repr(nest.map_structure(_none, s))
    return "None"


def _none(_):
    return None


def _matches(cached, key) -> bool:
    if cached[0] != key[0] or len(cached[1]) != len(key[1]):
        return False
    for c, k in zip(cached[1], key[1]):
        if isinstance(c, _Spec):
            if not (isinstance(k, _Spec) and c.matches(k)):
                return False
        elif c != k:
            return False
    return True


def _relax(cached, key):
    """The key with differing dimensions relaxed, or None when not only shapes differ."""
    if cached[0] != key[0] or len(cached[1]) != len(key[1]):
        return None
    out = []
    for c, k in zip(cached[1], key[1]):
        if isinstance(c, _Spec) and isinstance(k, _Spec):
            r = c.relaxed(k)
            if r is None:
                return None
            out.append(r)
        elif c == k:
            out.append(c)
        else:
            return None
    return key[0], tuple(out)


class _Trace:
    """One entry of a Function's cache: its key, and its graph once traced (or ``eager``)."""

    def __init__(self, key):
        self.key = key
        self.graph = None
        self.eager = False
        self.randomness = None
        self.executed = False
        self.lock = threading.RLock()


class ConcreteFunction:
    """One trace of a ``Function``: callable with arguments that match its key."""

    def __init__(self, function: Function, trace: _Trace):
        self._function = function
        self._trace = trace

    @property
    def structured_input_signature(self):
        """(positional, keyword) arguments of the trace: tensors as named TensorSpecs,
        Python values as themselves (TF's ``structured_input_signature``)."""
        if self._trace.graph is None:   # a function simdist runs eagerly: its trace key
            return self._trace.key
        args, kwargs = self._trace.graph.structured_inputs
        spec = (lambda x: TensorSpec(x.shape, x.dtype, x.name.split(":")[0])
                if isinstance(x, func_graph.SymbolicTensor) else
                composite_specs.spec_of(x) or x)   # a RaggedTensor's, a SparseTensor's
        return nest.map_structure(spec, (tuple(args), dict(kwargs)))

    @property
    def structured_outputs(self):
        """The graph's outputs as TF names them: each through an ``Identity`` op."""
        graph = self._trace.graph
        names = iter(graph.output_names())

        def renamed(t):
            if isinstance(t, func_graph.SymbolicTensor):
                return t._renamed(next(names))
            if func_graph.returned_variable(t):   # its read's Identity (kept as the variable)
                next(names)
            return t
        return nest.map_structure(renamed, graph.outputs)

    @property
    def graph(self):
        return self._trace.graph

    def pretty_printed_signature(self, verbose=True) -> str:
        graph = self._trace.graph
        args, kwargs = graph.structured_inputs
        return function_type.pretty_signature(
            self._function._python_function, self._function._is_method, args, kwargs,
            graph.outputs, graph.captures())

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"

    def __call__(self, *args, **kwargs):
        args, kwargs = self._bind(args, kwargs)
        try:
            return self._function._call(self._trace, args, kwargs)
        except errors.OpError as e:
            _raise_execution_error(e, self._trace)

    def _bind(self, args, kwargs):
        """The call's arguments as the trace's: by parameter, Python values the trace fixed
        left out or equal; else, as TF's fallback to the flat signature, the tensor
        parameters in order. Others, and tensors of another dtype, raise TF's errors."""
        if self._function._input_signature is not None:
            return args, kwargs
        t_args, t_kwargs = self._trace.graph.structured_inputs
        traced = list(t_args) + list(t_kwargs.values())
        try:
            params = [p.name for p in inspect.signature(
                self._function._python_function).parameters.values()]
        except (TypeError, ValueError):
            return args, kwargs
        if self._function._is_method:
            params = params[1:]
        params = params[:len(t_args)] + list(t_kwargs)
        is_input = [isinstance(w, func_graph.SymbolicTensor) or nest.is_nested(w)
                    or function_type._is_variable(w) or func_graph.is_composite(w)
                    for w in traced]
        bound, reason = self._bind_structured(params, traced, is_input, args, kwargs)
        if bound is None:   # TF's fallback: the flat signature, tensors by position
            inputs = [p for p, i in zip(params, is_input) if i]
            flat_reason = None
            if kwargs:
                flat_reason = (f"{self._function._name}({', '.join(inputs)}) got unexpected "
                               f"keyword arguments: {', '.join(kwargs)}.")
            elif len(args) != len(inputs):
                flat_reason = (f"{self._function._name}({', '.join(inputs)}) takes "
                               f"{len(inputs)} positional arguments, got {len(args)}.")
            else:
                odd = [i for i, a in enumerate(args) if type(a) is not Tensor]
                if odd:
                    flat_reason = (
                        "provided list of inputs contains objects other than 'EagerTensor'. "
                        f"Item {odd[0]} is type: {function_type.type_name(args[odd[0]])}")
            if flat_reason is not None:
                signature = function_type.signature_text(
                    params, traced, self._trace.graph.outputs)
                raise TypeError(
                    f"Binding inputs to tf.function failed due to `{reason}`. Received "
                    f"args: {args} and kwargs: {kwargs} for signature: {signature}.\n"
                    f"Fallback to flat signature also failed due to: {flat_reason}")
            given = dict(zip(inputs, args))
            bound = [given[p] if i else w for p, w, i in zip(params, traced, is_input)]
        for i, (value, want) in enumerate(zip(bound, traced)):
            self._check_dtype(i, value, want)
        return tuple(bound[:len(t_args)]), dict(zip(params[len(t_args):],
                                                     bound[len(t_args):]))

    @staticmethod
    def _bind_structured(params, traced, is_input, args, kwargs):
        """(the arguments by parameter, None) or (None, why not) as TF words it."""
        if len(args) > len(params):
            return None, "too many positional arguments"
        extra = [k for k in kwargs if k not in params]
        if extra:
            return None, f"got an unexpected keyword argument '{extra[0]}'"
        given = dict(zip(params, args))
        if any(k in given for k in kwargs):
            return None, "multiple values for argument"
        given.update(kwargs)
        bound = []
        for name, want, is_in in zip(params, traced, is_input):
            primitive = want is None or isinstance(want, (bool, int, float, str, bytes))
            if is_in or not primitive:
                if name not in given:
                    return None, f"missing a required argument: '{name}'"
                if not is_in and given[name] is not want:
                    return None, f"Can not cast {given[name]!r} to {function_type.type_text(want)}"
                bound.append(given[name])
            elif name in given and not (type(given[name]) is type(want)
                                        and given[name] == want):
                return None, f"Can not cast {given[name]!r} to {function_type.type_text(want)}"
            else:
                bound.append(want)
        return bound, None

    def _check_dtype(self, i, value, want) -> None:
        if isinstance(want, func_graph.SymbolicTensor) and isinstance(value, Tensor) and \
                value.dtype != want.dtype:
            op = f"__inference_{self._function._name}"
            raise errors.InvalidArgumentError(
                None, None, f"cannot compute {op} as input #{i}(zero-based) was expected to "
                            f"be a {want.dtype.name} tensor but is a {value.dtype.name} "
                            f"tensor [Op:{op}]")


class Function:
    """A callable with TF's trace cache (what ``tf.function`` returns)."""

    def __init__(self, python_function, input_signature=None, jit_compile=None,
                 reduce_retracing=False, autograph=True, name=None, instance=None):
        self._python_function = python_function
        self._input_signature = (None if input_signature is None
                                 else [self._as_spec(s) for s in input_signature])
        # Each entry may be a structure of specs (a dataset's element_spec), as in TF.
        # A RaggedTensorSpec or SparseTensorSpec stands for its components' specs; a
        # PerReplicaSpec for one distributed argument (checked per component), whose
        # placeholders are its value specs' (_placeholder_specs).
        self._flat_signature = (None if input_signature is None
                                else nest.flatten(composite_specs.expand_specs(
                                    self._input_signature, per_replica=False)))
        self._placeholder_specs = (None if input_signature is None
                                   else nest.flatten(composite_specs.expand_specs(
                                       self._input_signature)))
        self._jit_compile = jit_compile
        self._reduce_retracing = reduce_retracing
        self._autograph = autograph
        self._is_method = instance is not None
        # TF binds a method to its instance by weak reference (class_method_to_instance_method):
        # called on an instance that is gone (``C().f(x)``), the method gets None as self
        self._instance_ref = _weak_or_strong(instance)
        self._traces: list[_Trace] = []
        self._retracing = _detector_for(python_function)
        self._extra_traces = 0
        self._warned = False
        self._first_call_made_variables = None   # None until the first trace has run
        self._untraceable = None   # why a trace of this function failed (NotTraceable)
        self._second_trace_pending = False   # the first eager run is TF's second trace
        self._lock = threading.Lock()
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._bound_by_id: dict = {}
        functools.update_wrapper(self, python_function)
        self._name = name or getattr(python_function, "__name__", "function")

    @staticmethod
    def _as_spec(s):
        leaves = [v for leaf in nest.flatten(s)
                  for v in composite_specs.per_replica_specs(leaf) or (leaf,)]
        if not all(isinstance(leaf, _SPECS) for leaf in leaves):
            raise TypeError(f"input_signature must be a list of tf.TensorSpec, got {s!r}.")
        return s

    # --- public API -------------------------------------------------------------------
    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self) -> int:
        """How many traces this function has made (as TF counts them)."""
        return len(self._traces) + self._extra_traces

    def pretty_printed_concrete_signatures(self, verbose=True) -> str:
        """Every trace's signature, as TF prints them (function_type)."""
        return ("\n\n" if verbose else "\n").join(
            ConcreteFunction(self, t).pretty_printed_signature(verbose)
            for t in self._traces if t.graph is not None)

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The trace for these arguments (tracing it if needed); with an input_signature
        and no arguments, the signature's trace."""
        if self._input_signature is not None and not args and not kwargs:
            args = tuple(self._input_signature)
        # a RaggedTensorSpec or SparseTensorSpec: traced as its components' specs
        args, kwargs = composite_specs.spec_parts((args, kwargs))
        trace = self._lookup(args, kwargs)
        first = self._first_call_made_variables is None
        self._ensure_traced(trace, args, kwargs)
        if first and trace.graph is not None and trace.graph.created_variables:
            # TF initializes the variables the first trace made (their initial values
            # lifted out of the graph), then traces again creating none.
            function_variables.initialize_lifted(trace.graph)
            self._first_call_made_variables = True
            self._trace_again(trace, args, kwargs)
            trace.executed = True
        return ConcreteFunction(self, trace)

    def _concrete_before_execution(self, args, kwargs) -> ConcreteFunction:
        """``get_concrete_function`` completed as TF's is, before any execution (what a
        ClusterCoordinator sends to its workers): a first trace that created variables
        with Python initial values has them made, and traces again now (tracing count 2),
        not at the first call. A traced initial value still waits for the first call."""
        concrete = self.get_concrete_function(*args, **kwargs)
        trace = concrete._trace
        with trace.lock:
            if trace.executed or trace.eager or any(
                    isinstance(getattr(n, "fn", None), function_variables._InitialValue)
                    for n in trace.graph.nodes):
                return concrete
            trace.executed = True
            self._after_first_execution(trace, args, kwargs, variables.creation_count())
        return concrete

    def __call__(self, *args, **kwargs):
        if eager_function_run.RUN_FUNCTIONS_EAGERLY:   # the Python as written, each call
            if self._is_method:
                args = (self._instance,) + args
            return self._python_function(*args, **kwargs)
        canonical = self._canonical(args, kwargs)   # bound once: the key and the inputs
        trace = self._lookup(args, kwargs, canonical)
        if func_graph.current() is not None:
            return self._call_nested(trace, args, kwargs)
        traced = self._ensure_traced(trace, args, kwargs)
        self._retracing.called(traced, self._python_function)
        try:
            return self._call(trace, args, kwargs, canonical)
        except errors.OpError as e:
            _raise_execution_error(e, trace)

    def _call_nested(self, trace: _Trace, args, kwargs):
        """A call while another function traces. As TF: this function is traced into a
        graph of its own once per its own trace key (its Python runs then, not at each
        trace of the caller; an eager call with a matching key shares the trace), and the
        caller's graph records one op calling it (``StatefulPartitionedCall``), run at each
        of the caller's executions. A function simdist runs eagerly (or whose trace made
        variables) runs its Python in the caller's graph instead, once per its trace."""
        graph = func_graph.current()
        with func_graph.inlined_call():   # merge_call inside it raises TF's RuntimeError
            self._ensure_traced(trace, args, kwargs)
            if trace.eager or trace.graph.created_variables:
                if self._is_method:
                    args = (self._instance,) + args
                return self._python_function(*args, **kwargs)

        def call(*call_args, **call_kwargs):
            return self._call(trace, call_args, call_kwargs)

        call.__name__ = self._name
        call.__nested_call__ = True   # runs a graph: its nodes' replica contexts may stand in
        call.__nested_outputs__ = lambda: trace.graph.outputs   # their static shapes
        call.__nested_graph__ = lambda: trace.graph   # its FunctionDef (function_library)
        call.__saved__ = lambda: self.saved_trace(trace)   # what a SavedModel keeps of it
        return graph.record(call, "pure", None, args, kwargs, _call_op(trace.graph))

    def _call(self, trace: _Trace, args, kwargs, canonical=None):
        """Run ``trace``'s graph on the arguments (``canonical``: ``_canonical``'s binding
        of them, where the caller made it)."""
        self._ensure_traced(trace, args, kwargs)
        if trace.eager:
            return self._call_eagerly(trace, args, kwargs)
        from simdist.framework.ops import random_ops

        call_args, call_kwargs = canonical or self._canonical(args, kwargs)
        flat = func_graph.expanded_leaves((call_args, call_kwargs))
        if func_graph.recorded_op_variant() is not None:
            # The call op of a caller's trace, run for its shapes (and tapes): no effects.
            with context.inside_function(), func_graph.dry_run(), \
                    random_ops.function_scope(random_ops.FunctionRandomState()):
                try:
                    out = trace.graph.execute(flat)
                except errors.InvalidArgumentError as e:   # TF's shape inference of the call
                    raised = nested_shapes.at_call(e, trace.graph, flat)
                    if raised is None:
                        raise
                    raise raised from None
                return nest.map_structure(_call_output, _as_outputs(out))
        dev = context.current_device()
        start = dev.clock
        created = variables.creation_count()
        with context.inside_function(), random_ops.function_scope(trace.randomness):
            try:
                out = trace.graph.execute(flat)
            except StopIteration:
                raise errors.OutOfRangeError(None, None, "End of sequence") from None
        _event(dev, f"{self._name} (graph)", start, dev.clock, nodes=len(trace.graph.nodes))
        summary_ops.collect(trace.graph)   # tf.summary.trace_on's graphs
        if not trace.executed:
            trace.executed = True
            self._after_first_execution(trace, args, kwargs, created)
        return _as_outputs(out)

    def _after_first_execution(self, trace: _Trace, args, kwargs, created: int) -> None:
        """TF's rules for variables a trace made (function_variables): the first call's
        trace made some => trace again, refusing new ones; a later trace made some after a
        first call that made none => TF's ValueError once the call ran."""
        made_in_trace = bool(trace.graph.created_variables)
        first = self._first_call_made_variables is None
        if first:
            self._first_call_made_variables = made_in_trace
        elif made_in_trace or variables.creation_count() != created:
            # a later trace's execution made variables (another optimizer's slots): TF's
            # ValueError, the trace dropped
            with self._lock:
                if trace in self._traces:
                    self._traces.remove(trace)
            raise ValueError(function_variables.NON_FIRST_CALL_ERROR)
        if made_in_trace or variables.creation_count() != created:
            self._trace_again(trace, args, kwargs)

    def _trace_again(self, trace: _Trace, args, kwargs) -> None:
        """TF traces a function twice when its first trace creates variables (optimizer
        slots, a layer's weights): once creating them, once more without. simdist makes them
        at the first execution, then traces again: the Python runs twice on that first call
        and the tracing count says 2, as in TF."""
        with trace.lock:
            self._extra_traces += 1
            try:
                trace.graph = self._trace_graph(trace, args, kwargs, function_variables.REFUSE)
            except NotTraceable as e:
                trace.eager = True
                self._untraceable = str(e)
                self._warn_eager(str(e))
            except Exception:
                # The second trace failed (TF's singleton ValueError: the body makes a
                # variable at every call). TF 2.21 counts the first trace only, and traces
                # again (refusing variables) at every later call: the trace is dropped.
                trace.graph = None
                with self._lock:
                    if trace in self._traces:
                        self._traces.remove(trace)
                raise

    def _call_eagerly(self, trace: _Trace, args, kwargs):
        from simdist.framework.ops import random_ops

        if self._is_method:
            args = (self._instance,) + args
        # AutoGraph's conversion (cached per function): simdist.autograph
        python_function = self._converted()[0] if self._autograph else self._python_function
        with context.inside_function(), random_ops.function_scope(trace.randomness), \
                function_variables.eager_rule(self._first_call_made_variables) as made:
            try:
                out = python_function(*args, **kwargs)
            except StopIteration:
                raise errors.OutOfRangeError(None, None, "End of sequence") from None
            finally:
                if self._first_call_made_variables is None:
                    self._first_call_made_variables = bool(made)
                second, self._second_trace_pending = self._second_trace_pending, False
        self._extra_traces += second
        return _as_outputs(out)

    @property
    def _instance(self):
        """The instance a method is bound to (None once it is gone, or for a function)."""
        return self._instance_ref()

    def __get__(self, instance, owner=None):
        # As a method decorator: each instance gets its own Function (and its own traces).
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:
            bound = self._bound_by_id.get(id(instance))
        if bound is None:
            bound = Function(self._python_function, self._input_signature, self._jit_compile,
                             self._reduce_retracing, self._autograph, self._name, instance)
            try:
                self._bound[instance] = bound
            except TypeError:
                self._bound_by_id[id(instance)] = bound
        return bound

    def _clone(self, python_function) -> Function:
        """A Function of ``python_function`` with this one's options (TF's ``_clone``)."""
        return Function(python_function, self._input_signature, self._jit_compile,
                        self._reduce_retracing, self._autograph, self._name)

    def _python_function_as_traced(self):
        """The Python a trace runs: converted by AutoGraph (unless autograph=False), bound
        to the instance of a method."""
        python_function = self._converted()[0] if self._autograph else self._python_function
        if self._is_method:
            return functools.partial(python_function, self._instance)
        return python_function

    # --- tracing ----------------------------------------------------------------------
    def _ensure_traced(self, trace: _Trace, args, kwargs) -> bool:
        """Trace ``trace`` if it has no graph yet; whether this call traced."""
        from simdist.framework.ops import random_ops

        with trace.lock:
            if trace.randomness is None:
                trace.randomness = random_ops.FunctionRandomState()
            if trace.graph is not None or trace.eager:
                return False
            n = len(self._traces)
            dev = context.current_device()
            _event(dev, f"{'retrace' if n > 1 else 'trace'} {self._name}", dev.clock,
                   dev.clock, tracing_count=n)
            # A function whose trace failed once runs eagerly for every signature: a failed
            # trace's Python side effects cannot be undone, so there is at most one.
            reason = self._untraceable or func_graph.eager_reason()
            if reason is None:
                stacks: list = []
                try:
                    created = variables.creation_count()
                    with function_variables.creation_stacks(
                            Function._trace_graph.__code__) as stacks:
                        trace.graph = self._trace_graph(trace, args, kwargs)
                    if variables.creation_count() != created and \
                            not trace.graph.created_variables and \
                            self._first_call_made_variables is not None:
                        # A later trace made variables (an optimizer's slots for another
                        # optimizer): TF's ValueError; the trace is dropped.
                        trace.graph = None
                        with self._lock:
                            self._traces.remove(trace)
                        raise ValueError(function_variables.NON_FIRST_CALL_ERROR)
                    if variables.creation_count() != created and \
                            not trace.graph.created_variables:
                        # The trace made variables in init_scope (an optimizer's slots, a
                        # layer's weights; the body's own tf.Variables are function_variables'
                        # business): TF traces once more, creating none (tracing count 2).
                        self._extra_traces += 1
                        trace.graph = self._trace_graph(trace, args, kwargs)
                    return True
                except NotTraceable as e:
                    reason = self._untraceable = str(e)
                    if self._first_call_made_variables is None and \
                            function_variables.kept_creations(
                                stacks, e.__traceback__, Function._trace_graph.__code__):
                        # The failed trace made variables, as TF's first trace of the first
                        # call: the first eager run is TF's second trace, which may make none
                        # (counted if it runs through, as TF counts a trace that did).
                        self._first_call_made_variables = True
                        self._second_trace_pending = True
                except Exception:
                    # A trace that raised is not kept: TF's tracing count leaves it out
                    # (recorded: tests/distribute/ps_programs/scenarios.py, tracing).
                    with self._lock:
                        if trace in self._traces:
                            self._traces.remove(trace)
                    raise
            trace.eager = True
            self._warn_eager(reason)
            return True

    def _warn_eager(self, reason: str) -> None:
        if self._warned:
            return
        self._warned = True
        _tf_logger().warning(
            "simdist could not trace tf.function %r into a graph: %s. It runs its Python "
            "eagerly at every call instead (so Python side effects such as print happen "
            "at every call, not once per trace as in TensorFlow).", self._name, reason)

    def _trace_graph(self, trace: _Trace, args, kwargs, variable_policy=None):
        """Run the Python function on symbolic inputs, recording a FuncGraph; the variables
        it may create follow ``variable_policy`` (function_variables; by default TF's for
        the first call / a later one)."""
        from simdist.framework.ops import random_ops

        if variable_policy is None:
            made = self._first_call_made_variables
            variable_policy = (function_variables.ALLOW if made is None else
                               function_variables.REFUSE if made else
                               function_variables.ALLOW_THEN_FAIL)
        graph = func_graph.FuncGraph(self._name)
        graph.autograph = bool(self._autograph)
        python_function, graph.autograph_pending = (
            self._converted() if self._autograph else (self._python_function, False))
        call_args, call_kwargs = self._canonical(args, kwargs)
        expanded = func_graph.expand((call_args, call_kwargs))
        flat = nest.flatten(expanded)
        specs = self._input_shapes(trace, flat)
        names = graph.argument_names = self._argument_names(call_args, call_kwargs)
        symbolic = list(flat)
        for i, (x, shape) in enumerate(zip(flat, specs)):
            if isinstance(shape, TensorSpec):
                ph = graph.symbolic_like(shape.shape, shape.dtype, context.current_device(),
                                         names[i])
            elif isinstance(x, TensorSpec):
                ph = graph.symbolic_like(shape, x.dtype, context.current_device(), names[i])
            elif shape is not None:
                ph = graph.placeholder(x, names[i], shape)
            else:
                if (hasattr(x, "assign") and hasattr(x, "_as_tensor")) or \
                        hasattr(type(x), "_tracing_key"):   # a variable, dataset or iterator
                    graph.substitutes[id(x)] = -(i + 1)
                    graph.inputs.append((i, -(i + 1), None))
                continue
            ph._requested = ""   # TF: an argument's placeholder asks for no device
            graph.inputs.append((i, ph._id, ph.dtype))
            symbolic[i] = ph
        s_args, s_kwargs = func_graph.collapse(nest.pack_sequence_as(expanded, symbolic))
        graph.structured_inputs = (s_args, s_kwargs)
        if self._is_method:
            s_args = (self._instance,) + tuple(s_args)
        printed = io.StringIO()
        saved_tapes = list(tape_lib.stack())
        tape_lib.stack().clear()   # tapes of the caller see the execution, not the trace
        ok = False
        try:
            with context.inside_function(), func_graph.building(graph), \
                    random_ops.function_scope(random_ops.FunctionRandomState()), \
                    variables.variable_creator_scope(
                        function_variables.creator_for(graph, variable_policy)), \
                    held_output.collected(printed):
                graph._base_device = context.explicit_device()
                graph.stdout = sys.stdout
                out = python_function(*s_args, **s_kwargs)
            ok = True
        except NotTraceable:
            raise
        except StopIteration:
            ok = True
            raise errors.OutOfRangeError(None, None, "End of sequence") from None
        except Exception as e:
            if not self._autograph:
                raise
            from simdist.autograph.impl import error_utils

            wrapped = error_utils.in_user_code(e)   # TF's "in user code:" text
            if wrapped is None:
                raise
            raise wrapped from None
        finally:
            tape_lib.stack()[:] = saved_tapes
            if ok or not isinstance(sys.exc_info()[1], NotTraceable) or \
                    graph.created_variables:
                # What the trace printed, once. A trace that fell back after making
                # variables was TF's first trace (the eager run is its second): it prints.
                sys.stdout.write(printed.getvalue())
        _check_outputs(out, self._python_function)
        for leaf in nest.flatten(out):   # a branch's or loop body's tensor returned
            if func_graph.is_symbolic(leaf) and leaf._id in graph.closed:
                raise graph.inaccessible(leaf)
        graph.outputs = graph_control_flow.to_flows(out)   # a TensorArray: its variant, as TF
        graph.finalize()
        return graph

    def _converted(self):
        """(the function as AutoGraph converts it, whether conversion is still pending):
        ``simdist.autograph.to_graph`` converts it; while simdist has no AutoGraph, Python
        control flow on tensors makes the function run eagerly instead of raising. A function
        AutoGraph cannot convert runs as-is, with TF's warning."""
        try:
            from simdist import autograph
        except ImportError:
            return self._python_function, True
        to_graph = getattr(autograph, "to_graph", None)
        if to_graph is None:
            return self._python_function, True
        try:
            return to_graph(self._python_function), False
        except Exception as e:  # noqa: BLE001 - TF runs the function unconverted then
            _tf_logger().warning(
                "AutoGraph could not transform %r and will run it as-is. Cause: %s",
                self._python_function, e)
            return self._python_function, False

    def _input_shapes(self, trace: _Trace, flat):
        """Per flat argument: the placeholder's shape (None dims relaxed), or None."""
        out = []
        if self._input_signature is not None:   # (a RaggedTensor's uniform lengths: None)
            return [s if isinstance(s, TensorSpec) else None for s in self._placeholder_specs]
        key_leaves = trace.key[1]
        for x, k in zip(flat, key_leaves):
            out.append(k.shape if isinstance(k, _Spec) and k.kind == "Tensor"
                       and (_is_tensor_like(x) or isinstance(x, TensorSpec)) else None)
        return out

    def _argument_names(self, call_args, call_kwargs) -> list:
        try:
            params = list(inspect.signature(self._python_function).parameters)
        except (TypeError, ValueError):
            params = []
        if self._is_method:
            params = params[1:]
        names = []
        for i, a in enumerate(call_args):
            base = params[i] if i < len(params) else f"args_{i}"
            names += [base] * len(nest.flatten(func_graph.expand(a)))
        for k in sorted(call_kwargs):
            names += [k] * len(nest.flatten(func_graph.expand(call_kwargs[k])))
        return names

    def saved_trace(self, trace):
        """``trace`` as a SavedModel keeps it (restored_function.SavedTrace): its graph, the
        Python function's parameter names (the instance's left out), their defaults and the
        trace's random state; not the Python."""
        from simdist.framework.restored_function import SavedTrace

        params = list(inspect.signature(self._python_function).parameters.values())
        params = params[1:] if self._is_method else params
        defaults = {p.name: p.default for p in params   # those a call may leave out
                    if p.default is None or type(p.default) in _SAVED_DEFAULTS}
        return SavedTrace(trace.graph, [p.name for p in params], trace.randomness, defaults)

    def _canonical(self, args, kwargs):
        """The arguments by parameter, defaults filled in: h(x, 3) and h(x, y=3) are one
        call to TF's tracing (and one flattening for the graph's inputs)."""
        if self._input_signature is not None:
            return args, kwargs
        try:
            fn_args = (self._instance,) + args if self._is_method else args
            sig = self._signature()
            if not kwargs and self._kept_signature[2] == len(fn_args):
                return tuple(args), {}   # every parameter given by position: bind's binding
            bound = sig.bind(*fn_args, **kwargs)
        except (TypeError, ValueError):
            return args, kwargs
        bound.apply_defaults()
        b_args = bound.args[1:] if self._is_method else bound.args
        return tuple(b_args), dict(bound.kwargs)

    def _signature(self) -> inspect.Signature:
        """``inspect.signature`` of the Python function, kept while its defaults and
        ``__signature__`` are the same objects (every call binds its arguments to it).

        Raises:
          ValueError, TypeError: as inspect.signature, for a callable without one.
        """
        fn = self._python_function
        state = (getattr(fn, "__defaults__", None), getattr(fn, "__kwdefaults__", None),
                 getattr(fn, "__signature__", None))
        kept = getattr(self, "_kept_signature", None)
        if kept is not None and all(a is b for a, b in zip(kept[0], state)):
            return kept[1]
        sig = inspect.signature(fn)
        # (how many positional parameters it has when it has no other kind: a call giving
        # each by position binds to its arguments as they are)
        kinds = [p.kind for p in sig.parameters.values()]
        plain = len(kinds) if all(k in _POSITIONAL for k in kinds) else None
        self._kept_signature = (state, sig, plain)
        return sig

    def _lookup(self, args, kwargs, canonical=None) -> _Trace:
        if self._input_signature is not None:
            return self._check_signature(args, kwargs)
        key = _key(*(canonical or self._canonical(args, kwargs)))
        with self._lock:
            for cached in self._traces:
                if _matches(cached.key, key):
                    return cached
            if self._reduce_retracing:
                for cached in self._traces:
                    relaxed = _relax(cached.key, key)
                    if relaxed is not None:
                        key = relaxed
                        break
            trace = _Trace(key)
            self._traces.append(trace)
            return trace

    def _check_signature(self, args, kwargs):
        # a distributed value stays one argument, each component checked against its spec
        flat = composite_specs.component_leaves(nest.flatten((args, kwargs)))
        sig = self._flat_signature
        if len(flat) != len(sig):
            raise TypeError(
                f"{self._name}() takes {len(sig)} positional arguments as given by "
                f"input_signature, but {len(flat)} were given.")
        for i, (value, s) in enumerate(zip(flat, sig)):
            per_replica = composite_specs.per_replica_specs(s)
            if per_replica is not None:
                self._check_per_replica(i, value, per_replica, args, kwargs)
                continue
            if not isinstance(s, TensorSpec):   # a RaggedTensor's uniform row length
                continue
            for x in getattr(value, "_values", (value,)):  # a distributed value: each component
                self._check_spec(i, x, s, args, kwargs)
        with self._lock:
            if not self._traces:
                self._traces.append(_Trace(("signature", tuple(sig))))
            return self._traces[0]

    def _check_per_replica(self, i, value, specs, args, kwargs):
        """A distributed argument for a PerReplicaSpec: one component per spec, each
        compatible with its spec."""
        values = getattr(value, "_values", None)
        if values is None or len(values) != len(specs):
            got = "a value" if values is None else f"{len(values)} components"
            raise TypeError(
                f"Binding inputs to tf.function failed: input {i} must be a PerReplica of "
                f"{len(specs)} components (input_signature {self._signature_text()}), "
                f"got {got}: {value!r:.200}.")
        for x, s in zip(values, specs):
            self._check_spec(i, x, s, args, kwargs)

    def _check_spec(self, i, x, s, args, kwargs):
        if not (hasattr(x, "dtype") and hasattr(x, "shape")):
            from simdist.framework.execute import convert_to_tensor

            x = convert_to_tensor(x, dtype_hint=s.dtype)
        if not s.is_compatible_with(x):
            raise TypeError(
                f"Binding inputs to tf.function failed due to `Can not cast "
                f"{TensorSpec.from_tensor(x)!r} to {s!r}`. Received args: {args} and "
                f"kwargs: {kwargs} for signature: {self._signature_text()}.")

    def _signature_text(self) -> str:
        """The input_signature as TF's FunctionType prints it: ``(x: TensorSpec(...))``."""
        try:
            names = list(inspect.signature(self._python_function).parameters)
        except (TypeError, ValueError):
            names = []
        names = names[1:] if self._is_method else names
        names += [f"args_{i}" for i in range(len(names), len(self._input_signature))]
        return "(" + ", ".join(f"{n}: {s!r}" for n, s in
                               zip(names, self._input_signature)) + ")"


def _raise_execution_error(error, trace: _Trace):
    """Raise ``error`` (from the outermost call of a traced function) with TF's "Graph
    execution error:" text when a node's kernel raised it (graph_errors)."""
    graph = trace.graph
    out = error if graph is None else graph_errors.execution_error(
        error, graph.inference_name, cancelled=_replica_zero_failed(error, graph))
    if out is error:
        raise error
    raise out from None


def _replica_zero_failed(error, graph) -> bool:
    """Whether a replica step's node failed in replica 0 (where replica 1's twin runs on
    another device): TF lists the other devices' part as cancelled (graph_errors.
    root_errors; recorded where replica 0's device is the function's: a strategy over
    the CPUs of a machine with GPUs is taken to fail the same way)."""
    marked = getattr(error, "_graph_node", None)
    if marked is None or "/" in marked[0]:
        return False
    nodes = {n.name: n for n in func_graph._walk(graph.nodes)}
    node, twin = nodes.get(marked[0]), nodes.get(f"replica_1/{marked[0]}")
    return node is not None and twin is not None and node.device != twin.device


# The parameter defaults a SavedModel keeps (TF's FunctionSpec keeps Python values).
_SAVED_DEFAULTS = (bool, int, float, str, bytes)


def _call_op(graph) -> str:
    """TF's op calling a nested function: ``StatefulPartitionedCall`` when the function has
    stateful ops (a variable read or update, a print, a tape), else ``PartitionedCall``."""
    returned = nest.flatten(graph.outputs)
    stateful = bool(graph.captures()) or bool(graph.substitutes) or any(
        hasattr(t, "assign") and hasattr(t, "read_value") for t in returned) or any(
        func_graph.is_stateful(graph, n) or n.fn.__name__ in ("gradient", "read_value",
                                                              "value")
        or _calls_stateful(n) for n in func_graph._walk(graph.nodes))
    return "StatefulPartitionedCall" if stateful else "PartitionedCall"


def _calls_stateful(node) -> bool:
    """Whether ``node`` calls a nested function whose call op is stateful (one that reads
    a variable makes its callers' calls stateful too)."""
    nested = getattr(node.fn, "__nested_graph__", None)
    return nested is not None and _call_op(nested()) == "StatefulPartitionedCall"


def _event(dev, name, start, end, **args) -> None:
    """A "function" event in the trace: a (re)trace, or one execution of a graph."""
    if dev.trace.enabled:
        dev.trace.record(name, "function", dev.name, start, end, **args)


_DETECTORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


@_world.register_resetter
def _forget_detectors() -> None:
    _DETECTORS.clear()


def _detector_for(python_function) -> _FrequentTracingDetector:
    """The retracing detector of ``python_function``'s code, shared by every Function made
    from it (TF's _key_for_call_stats): a tf.function re-created in a loop warns."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    key = getattr(target, "__code__", target)
    try:
        return _DETECTORS.setdefault(key, _FrequentTracingDetector())
    except TypeError:   # not weakly referenceable (a callable instance's class says no)
        return _FrequentTracingDetector()


class _FrequentTracingDetector:
    """TF's warning when most recent calls retraced: 5 traces within the last 10 calls
    (at most 2 warnings per code object), as polymorphic_function.py's detector counts
    them."""

    THRESHOLD, HISTORY, MAX_WARNINGS = 5, 10, 2

    def __init__(self):
        self._calls_per_tracing: list[int] = []
        self._calls = 0
        self._warnings = 0
        self._lock = threading.Lock()

    def called(self, traced: bool, python_function) -> None:
        with self._lock:
            self._calls += 1
            if not traced:
                if not self._calls_per_tracing:
                    self._calls_per_tracing = [0]
                self._calls_per_tracing[-1] += 1
                return
            self._calls_per_tracing.append(1)
            while self._calls_per_tracing and \
                    self._calls - self._calls_per_tracing[0] > self.HISTORY:
                self._calls -= self._calls_per_tracing.pop(0)
            if (self._warnings >= self.MAX_WARNINGS
                    or len(self._calls_per_tracing) < self.THRESHOLD):
                return
            self._warnings += 1
            n, calls = len(self._calls_per_tracing), self._calls
        _tf_logger().warning(
            f"{n} out of the last {calls} calls to {python_function!r} triggered tf.function "
            "retracing. Tracing is expensive and the excessive number of tracings could be "
            "due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with "
            "different shapes, (3) passing Python objects instead of tensors. For (1), please "
            "define your @tf.function outside of the loop. For (2), @tf.function has "
            "reduce_retracing=True option that can avoid unnecessary retracing. For (3), "
            "please refer to https://www.tensorflow.org/guide/function#controlling_retracing"
            " and https://www.tensorflow.org/api_docs/python/tf/function for  more details.")


def _is_tensor_like(x) -> bool:
    return isinstance(x, (Tensor, np.ndarray))


_NOT_AN_OUTPUT = ("To be compatible with tf.function, Python functions must return zero or "
                  "more Tensors or ExtensionTypes or None values; in compilation of {fn}, "
                  "found return value of type {type}, which is not a Tensor or ExtensionType.")


def _check_outputs(out, python_function) -> None:
    """TF's func_graph converts every output of a trace to a tensor (None stays None): a
    Python value no tensor can hold (an object, a class, an int beyond int64) is TF's
    TypeError, raised by the trace. simdist's own objects (distributed values, composites,
    datasets) are outputs as they are."""
    for leaf in nest.flatten(out):
        if leaf is None or isinstance(leaf, (Tensor, np.ndarray, np.generic)) or \
                type(leaf).__module__.startswith("simdist."):
            continue
        try:
            dtypes.infer_dtype(leaf)
        except (TypeError, ValueError):
            raise TypeError(_NOT_AN_OUTPUT.format(fn=python_function,
                                                  type=type(leaf).__name__)) from None


def _call_output(v):
    """An output of a nested function's call op, run for its caller's shapes: an argument
    passed back comes out as a new tensor of the call (TF: ``PartitionedCall:0``), not as the
    caller's tensor."""
    if isinstance(v, func_graph.SymbolicTensor):
        return Tensor(v._value, v._device)
    return v


def _as_outputs(out):
    """A graph's outputs are tensors: Python and NumPy values (strings too) come back as
    Tensors, a variable (an eager ``assign_add``'s result) read, as the graph returns it."""
    def output(v):
        if isinstance(v, (int, float, str, bytes, np.number, np.ndarray)):
            return execute.convert_to_tensor(v)
        if hasattr(v, "assign") and hasattr(v, "read_value"):
            return v.read_value()
        return v

    return nest.map_structure(output, out)


_TF_FUNCTION_MODULE = "tensorflow.python.eager.polymorphic_function.polymorphic_function"


def _in_graph_mode() -> bool:
    """TF's ``is_in_graph_mode`` (when its deprecated_args log): inside a graph, or before
    the eager context exists (here: before the devices are initialized)."""
    from simdist.hardware import machine

    return not machine.get_machine().initialized or not context.executing_eagerly()


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """``tf.function``: decorate a function (or method) to get TF's tracing behaviour.

    Usable as ``@function``, ``@function(...)`` or ``function(f, ...)``.
    """
    for arg, value, use in (("experimental_compile", experimental_compile, "jit_compile"),
                            ("experimental_relax_shapes", experimental_relax_shapes,
                             "reduce_retracing")):
        if value is not None and _in_graph_mode():   # TF's deprecated_args: it logs once
            from simdist.platform.deprecation import deprecated_arg

            deprecated_arg("function", _TF_FUNCTION_MODULE, arg,
                           f"{arg} is deprecated, use {use} instead")
    relax = reduce_retracing or bool(experimental_relax_shapes)
    jit = jit_compile if jit_compile is not None else experimental_compile

    def decorate(f):
        return Function(f, input_signature, jit, relax, autograph)

    return decorate if func is None else decorate(func)


def _tf_logger():
    """TF's "tensorflow" logger (``import logging`` waits for the first warning)."""
    from simdist.platform.tf_logging import get_logger

    return get_logger()


def _weak_or_strong(instance):
    """A callable giving ``instance``: a weak reference where it takes one."""
    try:
        return weakref.ref(instance)
    except TypeError:
        return lambda: instance

