"""``Variable``: mutable state on one device, and the variable-creator hook strategies use.

Glossary:
  VariableSynchronization -- when copies of a distributed variable are synced
                             (``ON_WRITE``: every update, ``ON_READ``: when read across replicas).
  VariableAggregation     -- how replica updates/values combine (``SUM``, ``MEAN``,
                             ``ONLY_FIRST_REPLICA``, ``NONE``).
  variable_creator_scope  -- a stack of creators; ``tf.Variable(...)`` calls the innermost,
                             which is how ``strategy.scope()`` makes variables distributed.

Mirrors tensorflow/python/ops/variables.py and resource_variable_ops.py.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import itertools

import numpy as np

from simdist import warnings as teach
from simdist.framework import context, dtypes, execute, name_scope, op_recording
from simdist.framework import tape as tape_lib
from simdist.framework.tensor import (
    NotTraceable,
    Tensor,
    _ids,
    _numpy_text,
    _Reference,
    active,
    tracing,
)
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.thread_local import ThreadLocalStack, ThreadLocalValue
from simdist.hardware import array_api, backend


class VariableSynchronization(enum.Enum):
    """When a distributed variable's copies are synchronized."""

    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How replica values of a distributed variable are combined."""

    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


_creators = ThreadLocalStack()


def _creator_stack() -> list:
    return _creators.items


@contextlib.contextmanager
def variable_creator_scope(creator):
    """Make ``creator(next_creator, **kwargs)`` intercept every ``tf.Variable(...)``."""
    s = _creator_stack()
    s.append(creator)
    try:
        yield
    finally:
        s.pop()


class _VariableMeta(type):
    def __call__(cls, *args, **kwargs):
        if cls is not Variable:
            return super().__call__(*args, **kwargs)

        creator = default_variable_creator

        # The innermost scope is called first; each creator's next_creator is the one
        # around it, as in TF.
        for c in _creator_stack():
            creator = functools.partial(c, creator)
        return creator(**_bind_args(args, kwargs))


def kwargs_for_base(kw):
    allowed = {"initial_value", "trainable", "name", "dtype", "shape", "synchronization",
               "aggregation", "device", "validate_shape", "caching_device", "constraint",
               "distribute_strategy"}
    return {k: v for k, v in kw.items() if k in allowed}


_ARG_NAMES = ("initial_value", "trainable", "validate_shape", "caching_device", "name",
              "variable_def", "dtype", "import_scope", "constraint", "synchronization",
              "aggregation", "shape")


def _bind_args(args, kwargs):
    if len(args) > len(_ARG_NAMES):
        raise TypeError(f"Variable() takes at most {len(_ARG_NAMES)} positional arguments")
    bound = dict(zip(_ARG_NAMES, args))
    for k in kwargs:
        if k in bound:
            raise TypeError(f"Variable() got multiple values for argument {k!r}")
    bound.update(kwargs)
    return bound


_uid = itertools.count()
# a merge run on placeholders for its node's outputs (a merge_call in a cond branch or a
# nested function of a TPU replica function: the node merges when it runs): writes do nothing
writes_dropped = ThreadLocalValue(False)
# {id(variable): (variable, value before)} of the writes ``writes_undone`` takes back
_undone = ThreadLocalValue(None)
_created = [0]   # variables made so far (a tf.function's first run that makes some retraces)
_creation_watchers: list = []   # callables told of each variable made (function_variables)


def creation_count() -> int:
    """How many variables have been created in this process."""
    return _created[0]


def _unread_spec(graph, var, *args, read_value=True, **kwargs):
    """What an assign returns while tracing (it happens at execution): the variable."""
    return _UnreadVariable(var) if read_value else None


class Variable(metaclass=_VariableMeta):
    """A mutable tensor on one device (``tf.Variable``)."""

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, dtype=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, shape=None, device=None,
                 distribute_strategy=None, **unused):
        if initial_value is None:
            raise ValueError("The initial_value must be specified.")
        synchronization = _as_enum(VariableSynchronization, synchronization, "synchronization",
                                   name)
        aggregation = _as_enum(VariableAggregation, aggregation, "aggregation", name)
        if trainable is None:  # TF 2.21 accepts a trainable ON_READ variable when asked
            trainable = synchronization != VariableSynchronization.ON_READ
        if callable(initial_value):
            initial_value = initial_value()
        dev = context.current_device() if device is None else _find(device)
        with context.device(dev.name):
            init = execute.convert_to_tensor(initial_value, dtype=dtype)
        self._value = init._value
        self._device = dev
        self._id = next(_ids)
        nbytes = array_api.nbytes(self._value)
        dev.allocate(nbytes, what="variable", shape=self._value.shape, dtype=self._value.dtype)
        self._nbytes = nbytes  # only once accounted: __del__ frees what was allocated
        self._shape = TensorShape(shape) if shape is not None else TensorShape(self._value.shape)
        if validate_shape and not self._shape.is_compatible_with(self._value.shape):
            raise ValueError(f"Shape {self._value.shape} of initial value is not compatible "
                             f"with shape {self._shape}.")
        self._trainable = bool(trainable)
        base = name_scope.variable_name(name)
        self._name = base if base.endswith(":0") else base + ":0"
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._constraint = constraint
        # The strategy whose scope made it (TF's creator passes it); None outside any.
        self._distribute_strategy = distribute_strategy
        self._uid = next(_uid)
        _created[0] += 1
        for watch in _creation_watchers:
            watch(self)

    def __del__(self):
        # Free what __init__ allocated, read from the instance itself: a subclass that
        # allocates nothing of its own (a DistributedVariable, whose ``_device`` is its
        # component's) frees nothing here.
        device, nbytes = self.__dict__.get("_device"), self.__dict__.get("_nbytes")
        if device is None or nbytes is None:
            return
        try:
            device.free(nbytes)
        except Exception:  # interpreter shutdown: nothing left to account
            pass

    # --- properties -------------------------------------------------------------------
    # A weak reference to the DistributedVariable this is a component of, as TF's
    # distribute_utils keeps it: a strong one made a cycle, so a dropped mirrored variable's
    # memory came back only at the next garbage collection.
    _container_ref = None

    @property
    def _distributed_container(self):
        """The DistributedVariable this variable is a component of, else None."""
        ref = self._container_ref
        return None if ref is None else ref()

    name = property(lambda self: self._name)
    trainable = property(lambda self: self._trainable)
    synchronization = property(lambda self: self._synchronization)
    aggregation = property(lambda self: self._aggregation)
    constraint = property(lambda self: self._constraint)
    device = property(lambda self: self._device.name)
    dtype = property(lambda self: dtypes.as_dtype(array_api.numpy_dtype(self._value)))
    # A variable made with a partial shape (shape=(None,)) keeps it, as TF's.
    shape = property(lambda self: TensorShape(self._value.shape) if self._shape.is_fully_defined()
                     else self._shape)

    def get_shape(self):
        return self.shape

    @property
    def handle(self):
        return self

    # --- reading ----------------------------------------------------------------------
    @op_recording.recorded(name="ReadVariableOp")
    def _read(self) -> Tensor:
        if teach._ENABLED and self._distribute_strategy is None:  # the flag, not a call: hot
            teach.check_variable_read(self)
        if tape_lib.active():
            tape_lib.variable_accessed(self)
        out = Tensor(self._value, self._device)
        if tape_lib.active():
            tape_lib.record("ReadVariableOp", (self,), (out,))
        return out

    def value(self) -> Tensor:
        return self._read()

    def read_value(self) -> Tensor:
        """The current value as a Tensor. While tracing, TF reads it in a ``Read`` name
        scope and returns an ``Identity`` of the read (``Read/ReadVariableOp``,
        ``Identity``): the graph lists both, the identity costs nothing here (graph
        names only: ``FuncGraph.identity_after_read``)."""
        graph = tracing.value if active[0] else None
        if graph is None:
            return self._read()
        with graph.name_scope("Read"):
            out = self._read()
        graph.identity_after_read(out)
        return out

    def _as_tensor(self) -> Tensor:
        out = self._read()
        if active[0]:   # tracing: an op converts the variable (its name, TF's)
            graph = tracing.value
            if graph is not None:
                graph.converted_read(out)
        return out

    def numpy(self):
        if tracing.value is not None:   # inside a tf.function being traced
            op_recording._library_refuses("read a variable's value in Python")
            raise NotImplementedError("numpy() is only available when eager execution is "
                                      "enabled.")
        host = backend.to_host(self._value)
        return host[()] if host.ndim == 0 else host.copy()

    def __array__(self, dtype=None, copy=None):
        import numpy as np

        return np.asarray(self.numpy(), dtype=dtype)

    # --- writing ----------------------------------------------------------------------
    def _new_value(self, value, op: str):
        t = execute.convert_to_tensor(value, dtype=self.dtype)
        if tuple(t.shape) != tuple(self._value.shape) and op == "assign" \
                and self._shape.is_compatible_with(t.shape):
            self._resize(t._value)  # a shape with unknown dimensions: tf.Variable(shape=(None,))
        elif tuple(t.shape) != tuple(self._value.shape) and op == "assign":
            raise ValueError(   # TF 2.21's text, its missing space included
                f"Cannot assign value to variable ' {self._name}': Shape mismatch.The "
                f"variable shape {self.shape}, and the assigned value shape {t.shape} are "
                "incompatible.")
        elif tuple(t.shape) != tuple(self._value.shape):
            raise ValueError(
                f"Cannot {op} to variable '{self._name}': Shape mismatch. The variable shape "
                f"{self.shape}, and the assigned value shape {t.shape} are incompatible."
            )
        return t._value

    def _resize(self, value) -> None:
        """Account the memory of a value of another size (a variable of partial shape)."""
        self._device.free(self._nbytes)
        self._nbytes = array_api.nbytes(value)
        self._device.allocate(self._nbytes, what="variable", shape=value.shape,
                              dtype=array_api.numpy_dtype(value))

    def _write(self, new, op_name):
        if active[0] and (tracing.value is not None or op_recording._in_node.value):
            # a write outside the ops a graph records, or inside an op computing on
            # placeholders for its shapes (a layer's moving average): not at trace time
            if writes_dropped.value:
                return
            raise NotTraceable(f"a variable write ({op_name}) the graph cannot record")
        undone = _undone.value
        if undone is not None and id(self) not in undone:
            undone[id(self)] = (self, self._value)
        # A fresh array each time: tensors that read the old value keep it (immutability).
        self._value = new
        self._device.run(op_name, new.size, 2 * array_api.nbytes(new))

    @op_recording.recorded(kind="stateful", spec=_unread_spec)
    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Set the variable's value; returns it unread (see _UnreadVariable)."""
        new = self._new_value(value, "assign")
        self._write(array_api.copy(new), "AssignVariableOp")
        return _UnreadVariable(self) if read_value else None

    @op_recording.recorded(kind="stateful", spec=_unread_spec)
    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        """Add ``delta`` to the variable; returns it unread (see _UnreadVariable)."""
        d = self._new_value(delta, "assign_add")
        self._write(self._value + d, "AssignAddVariableOp")
        return _UnreadVariable(self) if read_value else None

    @op_recording.recorded(kind="stateful", spec=_unread_spec)
    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        """Subtract ``delta`` from the variable; returns it unread (see _UnreadVariable)."""
        d = self._new_value(delta, "assign_sub")
        self._write(self._value - d, "AssignSubVariableOp")
        return _UnreadVariable(self) if read_value else None

    @op_recording.recorded(kind="stateful", spec=_unread_spec)
    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Add a ``tf.IndexedSlices``' rows at their indices, a repeated index once per row
        in order (ResourceScatterAdd); returns the variable unread.

        Raises:
          TypeError: ``sparse_delta`` is not an IndexedSlices (TF's text).
          InvalidArgumentError: an index outside the variable's rows.
        """
        rows, values = self._scattered(sparse_delta, "ResourceScatterAdd")
        self._write(array_api.add_at(array_api.copy(self._value), rows, values),
                    "ResourceScatterAdd")
        return _UnreadVariable(self)

    @op_recording.recorded(kind="stateful", spec=_unread_spec)
    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """Subtract a ``tf.IndexedSlices``' rows at their indices (ResourceScatterSub)."""
        rows, values = self._scattered(sparse_delta, "ResourceScatterSub")
        self._write(array_api.add_at(array_api.copy(self._value), rows, -values),
                    "ResourceScatterSub")
        return _UnreadVariable(self)

    @op_recording.recorded(kind="stateful", spec=_unread_spec)
    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Set the rows of a ``tf.IndexedSlices`` at their indices (ResourceScatterUpdate)."""
        rows, values = self._scattered(sparse_delta, "ResourceScatterUpdate")
        new = array_api.copy(self._value)
        new[rows] = values
        self._write(new, "ResourceScatterUpdate")
        return _UnreadVariable(self)

    def _scattered(self, sparse_delta, op_name):
        """The rows (host ints) and values (of the variable's dtype) of a sparse update."""
        from simdist.framework import errors
        from simdist.framework.indexed_slices import IndexedSlices

        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("Argument `sparse_delta` must be a `tf.IndexedSlices`. Received "
                            f"arg: {sparse_delta}")
        values = execute.convert_to_tensor(sparse_delta.values, self.dtype)._value
        rows = np.asarray(backend.to_host(
            execute.convert_to_tensor(sparse_delta.indices)._value)).reshape(-1)
        n = self._value.shape[0]
        bad = np.flatnonzero((rows < 0) | (rows >= n))
        if bad.size:
            raise errors.InvalidArgumentError(
                None, None, f"indices[{bad[0]}] = {rows[bad[0]]} is not in [0, {n}) "
                            f"[Op:{op_name}]")
        return rows, values

    # --- Python protocols -------------------------------------------------------------
    def ref(self):
        return _Reference(self)

    def experimental_ref(self):
        return self.ref()

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    def __format__(self, spec):
        return format_without_spec(self, spec)

    def __bool__(self):
        return bool(self.numpy())

    def __float__(self):
        return float(self.numpy())

    def __int__(self):
        return int(self.numpy())

    def __len__(self):
        return len(self._value)

    def __iter__(self):
        return iter(self._as_tensor())

    def __repr__(self):
        if tracing.value is not None:   # TF's graph-mode repr: no value
            return f"<tf.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}>"
        return (f"<tf.Variable '{self._name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self, is_repr=True)}>")

    __str__ = __repr__


def format_without_spec(obj, spec: str) -> str:
    """``format(obj, spec)`` for a TF variable: its text, and no format spec (as in TF)."""
    if spec:
        raise TypeError(f"unsupported format string passed to {type(obj).__name__}.__format__."
                        f" Format its value instead: f'{{v.numpy():{spec}}}'.")
    return str(obj)


def _find(device):
    from simdist.hardware.machine import find_device

    return find_device(device)


def _as_enum(enum_cls, value, what, var_name=None):
    if isinstance(value, enum_cls):
        return value
    for member in enum_cls:
        if value == member.value or value == member.name:
            return member
    suffix = f" for variable: {var_name}" if var_name else ""
    raise ValueError(
        f"Invalid variable {what} mode: {value}{suffix}. Use a tf.Variable{enum_cls.__name__[8:]}"
        f" member such as tf.{enum_cls.__name__}.{list(enum_cls)[1].name}."
    )


class ResourceVariable(Variable):
    """The concrete variable ``tf.Variable(...)`` makes (TF's ResourceVariable)."""


class _UnreadVariable(ResourceVariable):
    """What ``assign*`` returns (TF's _UnreadVariable): the written variable, named
    'UnreadVariable', read only when used (so it shows the variable's value at that time).
    A new object per write: ``strategy.run`` of an assign gives a PerReplica of them."""

    def __init__(self, parent):  # no storage of its own: it is a view of ``parent``
        self._parent = parent
        self._device = parent._device
        self._nbytes = 0
        self._shape = parent._shape
        self._trainable = parent._trainable
        self._name = "UnreadVariable"
        self._synchronization = parent._synchronization
        self._aggregation = parent._aggregation
        self._constraint = parent._constraint
        self._distribute_strategy = parent._distribute_strategy
        self._uid = next(_uid)

    _value = property(lambda self: self._parent._value)

    def _read(self) -> Tensor:
        return self._parent._read()  # a read (and its gradient) is the variable's

    def _resize(self, value) -> None:
        self._parent._resize(value)

    def _write(self, new, op_name):
        self._parent._write(new, op_name)


@contextlib.contextmanager
def writes_undone():
    """Run code for what it returns only: the variables it writes get their values back
    after it (an eager dataset function run for its element spec, where TF's trace writes
    nothing); a variable of partial shape given a value of another size is accounted at
    its own size again."""
    undone: dict = {}
    try:
        with _undone.scope(undone):
            yield
    finally:
        for var, value in undone.values():
            if var._value.shape != value.shape:
                var._resize(value)
            var._value = value


def default_variable_creator(**kwargs):
    """The innermost creator: a plain ResourceVariable on the current device."""
    return type.__call__(ResourceVariable, **kwargs_for_base(kwargs))
