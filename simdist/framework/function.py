"""``tf.function``: runs the Python body eagerly, but keeps TF's trace cache and count.

Glossary:
  trace key     -- what TF would compile a new graph for: tensors by (shape, dtype),
                   variables by (shape, dtype), Python values by value, nested lists,
                   tuples and dicts element by element; other objects by identity.
  retracing     -- a call whose key matches no earlier trace; ``experimental_get_tracing_count``
                   counts them, so lessons can show why ``f(1)``, ``f(2)`` trace twice
                   while ``f(tf.constant(1))``, ``f(tf.constant(2))`` trace once.
  input_signature -- a list of ``TensorSpec``: one trace whose ``None`` dimensions accept
                   any size; arguments that do not match raise, as in TF.
  reduce_retracing -- after a second shape, trace once with the differing dimensions
                   relaxed to ``None`` and reuse that trace for later shapes.
The body runs on every call (simdist executes eagerly), so Python side effects such as
``print`` happen every call, not only while tracing as in TF. A ``next()`` on an exhausted
iterator inside the body raises ``OutOfRangeError``, as the graph's IteratorGetNext does;
``tf.executing_eagerly()`` is False inside the body and Python results come back as Tensors.
Random ops in the body draw as a graph's would: seeds fixed by the first call of a trace
(the global seed then, and op seeds 0, 1, ... in order), one kernel per op whose state moves
on from call to call (``random_ops.FunctionRandomState``).

Mirrors tensorflow/python/eager/polymorphic_function/polymorphic_function.py.
"""

from __future__ import annotations

import functools
import inspect
import threading
import weakref

import numpy as np

from simdist.framework import context, dtypes, errors, nest, op_def
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.tensor_spec import TensorSpec


class _Spec:
    """A tensor argument in a trace key: dtype and (possibly relaxed) shape."""

    __slots__ = ("kind", "dtype", "shape")

    def __init__(self, kind, dtype, shape):
        self.kind, self.dtype, self.shape = kind, dtype, TensorShape(shape)

    def matches(self, other: _Spec) -> bool:
        return (self.kind == other.kind and self.dtype == other.dtype
                and self.shape.is_compatible_with(other.shape)
                and self.shape.rank == other.shape.rank)

    def relaxed(self, other: _Spec) -> _Spec | None:
        if self.kind != other.kind or self.dtype != other.dtype:
            return None
        shape = self.shape.most_specific_compatible_shape(other.shape)
        return None if shape.rank is None else _Spec(self.kind, self.dtype, shape)

    def __eq__(self, other):
        return (isinstance(other, _Spec) and self.kind == other.kind
                and self.dtype == other.dtype and self.shape == other.shape)

    def __hash__(self):
        return hash((self.kind, self.dtype, self.shape))

    def __repr__(self):
        return f"{self.kind}Spec(shape={self.shape}, dtype={self.dtype!r})"


def _leaf_key(x):
    if isinstance(x, Tensor):
        return _Spec("Tensor", x.dtype, x.shape)
    if isinstance(x, np.ndarray):  # TF traces a NumPy array as a tensor of its spec
        return _Spec("Tensor", dtypes.as_dtype(x.dtype), x.shape)
    if hasattr(x, "_as_tensor") and hasattr(x, "assign"):
        return _Spec("Variable", x.dtype, x.shape)
    if isinstance(x, (int, float, bool)):
        return ("literal", x)  # by value: f(1), f(1.0) and f(True) share a trace, as in TF
    if isinstance(x, (str, bytes, type(None))):
        return (type(x).__name__, x)
    try:
        hash(x)
        return ("object", x)
    except TypeError:
        return ("id", id(x))


def _key(args, kwargs):
    structure = nest.map_structure(lambda _: None, (args, kwargs))
    leaves = tuple(_leaf_key(x) for x in nest.flatten((args, kwargs)))
    return repr(structure), leaves


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


class ConcreteFunction:
    """One trace of a ``Function``: callable with arguments that match its key."""

    def __init__(self, function: Function, key):
        self._function = function
        self._key = key

    @property
    def structured_input_signature(self):
        return self._key

    def __call__(self, *args, **kwargs):
        return self._function._python_function(*args, **kwargs)


class Function:
    """A callable with TF's trace cache (what ``tf.function`` returns)."""

    def __init__(self, python_function, input_signature=None, jit_compile=None,
                 reduce_retracing=False, autograph=True, name=None, instance=None):
        self._python_function = python_function
        self._input_signature = (None if input_signature is None
                                 else [self._as_spec(s) for s in input_signature])
        # Each entry may be a structure of specs (a dataset's element_spec), as in TF.
        self._flat_signature = (None if input_signature is None
                                else nest.flatten(self._input_signature))
        self._jit_compile = jit_compile
        self._reduce_retracing = reduce_retracing
        self._autograph = autograph
        self._instance = instance
        self._traces: list = []
        self._random_states: dict = {}   # per trace: its random ops' seeds and kernels
        self._lock = threading.Lock()
        self._bound: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._bound_by_id: dict = {}
        functools.update_wrapper(self, python_function)
        self._name = name or getattr(python_function, "__name__", "function")

    @staticmethod
    def _as_spec(s):
        if not all(isinstance(leaf, TensorSpec) for leaf in nest.flatten(s)):
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
        return len(self._traces)

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The trace for these arguments (tracing it if needed)."""
        return ConcreteFunction(self, self._lookup(args, kwargs))

    def __call__(self, *args, **kwargs):
        from simdist.framework.ops import random_ops

        trace = self._lookup(args, kwargs)
        randomness = self._random_states.setdefault(id(trace),
                                                    random_ops.FunctionRandomState())
        if self._instance is not None:
            args = (self._instance,) + args
        python_function = self._python_function
        if self._autograph:  # AutoGraph's conversion (cached per function): simdist.autograph
            from simdist import autograph

            python_function = autograph.to_graph(python_function)
        with context.inside_function(), random_ops.function_scope(randomness):
            try:
                out = python_function(*args, **kwargs)
            except StopIteration:
                raise errors.OutOfRangeError(None, None, "End of sequence") from None
        # A graph's outputs are tensors: Python and NumPy values come back as Tensors.
        return nest.map_structure(
            lambda v: op_def.convert_to_tensor(v)
            if isinstance(v, (int, float, np.number, np.ndarray)) else v, out)

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

    def __repr__(self):
        return f"<simdist.function {self._name}>"

    # --- tracing ----------------------------------------------------------------------
    def _bind_arguments(self, args, kwargs):
        """The arguments by parameter, defaults filled in: h(x, 3) and h(x, y=3) are one
        call to TF's tracing."""
        try:
            fn_args = (self._instance,) + args if self._instance is not None else args
            bound = inspect.signature(self._python_function).bind(*fn_args, **kwargs)
        except (TypeError, ValueError):
            return args, kwargs
        bound.apply_defaults()
        values = tuple(bound.arguments.values())
        return (values[1:] if self._instance is not None else values), {}

    def _lookup(self, args, kwargs):
        if self._input_signature is not None:
            return self._check_signature(args, kwargs)
        key = _key(*self._bind_arguments(args, kwargs))
        with self._lock:
            for cached in self._traces:
                if _matches(cached, key):
                    return cached
            if self._reduce_retracing:
                for cached in self._traces:
                    relaxed = _relax(cached, key)
                    if relaxed is not None:
                        key = relaxed
                        break
            self._traces.append(key)
            return key

    def _check_signature(self, args, kwargs):
        flat = nest.flatten((args, kwargs))
        sig = self._flat_signature
        if len(flat) != len(sig):
            raise TypeError(
                f"{self._name}() takes {len(sig)} positional arguments as given by "
                f"input_signature, but {len(flat)} were given.")
        for i, (value, s) in enumerate(zip(flat, sig)):
            for x in getattr(value, "_values", (value,)):  # a distributed value: each component
                self._check_spec(i, x, s, args, kwargs)
        with self._lock:
            if not self._traces:
                self._traces.append(("signature", tuple(sig)))
            return self._traces[0]

    def _check_spec(self, i, x, s, args, kwargs):
        if not (hasattr(x, "dtype") and hasattr(x, "shape")):
            from simdist.framework.op_def import convert_to_tensor

            x = convert_to_tensor(x, dtype_hint=s.dtype)
        if not s.is_compatible_with(x):
            raise TypeError(
                f"Binding inputs to tf.function failed due to `Can not cast "
                f"{TensorSpec.from_tensor(x)!r} to {s!r}`. Received args: {args} and "
                f"kwargs: {kwargs} for signature: {self._flat_signature} (argument {i}).")


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None):
    """``tf.function``: decorate a function (or method) to get TF's tracing behaviour.

    Usable as ``@function``, ``@function(...)`` or ``function(f, ...)``.
    """
    relax = reduce_retracing or bool(experimental_relax_shapes)
    jit = jit_compile if jit_compile is not None else experimental_compile

    def decorate(f):
        return Function(f, input_signature, jit, relax, autograph)

    return decorate if func is None else decorate(func)
