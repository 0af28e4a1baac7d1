"""The graph a ``tf.function`` builds while it traces, its symbolic tensors, and its replay.

Glossary:
  FuncGraph      -- the graph being traced: the ops the Python function called, in order,
                    as nodes; ``execute`` replays them on real tensors without the Python.
  current()      -- the FuncGraph this thread is tracing (outside any recorded op), or None
                    while executing eagerly; control flow asks it to build cond/while_loop.
  SymbolicTensor -- a tensor made while tracing: static shape (``None`` where unknown),
                    dtype, device, TF's name (``add:0``) and no value: ``.numpy()``, ``bool()``
                    and iteration raise TF's errors.
  node           -- one recorded call of a public op (the outermost one: ops an op calls
                    inside are not recorded apart): the callable, its arguments with the
                    symbolic tensors replaced by references, the explicit ``tf.device`` to
                    restore, and its symbolic outputs.
  placeholders   -- while tracing, an op runs for its shapes on placeholder values (zeros,
                    then ones with unknown dimensions of another size: a dimension that
                    differs is unknown, ``None``), under ``execute.shape_inference`` (no
                    device time, no trace events), as Keras's symbolic calls do.
  stateful node  -- a variable update, ``tf.print``, an iterator's ``get_next``: nothing
                    happens while tracing (its outputs come from its spec); it happens at
                    each execution.
  captures       -- variables and tensors from outside are used by reference (a variable's
                    reads at execution see its current value); a variable passed as an
                    argument is replaced by the variable of each call.
  composite      -- a value registered with ``register_composite`` (a PerReplica, a
                    Mirrored): recorded as its components, as TF's nest does with
                    ``expand_composites=True``, so each component is a tensor of the graph.
  captured by use -- a tf.data function (a map) made while tracing that reads a tensor of
                    the trace: listed while the pipeline traces it (``captured_by_use``), fed
                    that execution's value when it runs (``bound_captures``). A tf.data
                    function traced into a graph of its own (simdist.data.
                    structured_function) takes them as inputs (``outer_captures``).
  deferred shape -- an op whose kernel fails only on the placeholders' made-up sizes, where
                    TF's shape function accepts the static shapes, is traced with TF's
                    output shape (shape_errors.deferred); the kernel checks at execution,
                    and its error names the node (graph_errors.at_node).
  op names       -- TF's: the op's own name (its TF op type, ``_OP_NAMES``, or the Python
                    name TF's wrapper scopes it under: ``add``, ``truediv``), or its
                    ``name=`` argument, made unique as TF's ``Graph.unique_name`` does
                    (``x``, ``x_1``; asking for ``x_1`` then gives ``x_1_1``), under the
                    graph's name scope: a user's ``tf.name_scope`` (made unique: ``s/``,
                    ``s_1/``), a Keras layer's call scope (``sequential/dense/``:
                    ``graph_name_scope``), a library function's ``op_name_scope`` (a
                    TensorArray's ``TensorArrayV2Write/``). A node recorded whole is named
                    after the op whose output it gives (a loss: ``mean_squared_error/
                    weighted_loss/value``; a nested function: ``StatefulPartitionedCall``).
  dry run        -- a nested function's graph executed by its caller's call op while the
                    caller traces (``dry_run``): on the caller's placeholders, its stateful
                    nodes doing nothing (their outputs read as their placeholders), so the
                    caller gets shapes and its tape the ops, with no side effect.
  NotTraceable   -- raised while tracing by code the graph cannot record (a concrete tensor
                    or a variable write made outside any recorded op, a library reading a
                    symbolic value in Python, strategy.run): ``tf.function`` then runs that
                    function eagerly at every call and logs once which construct it was.

Why record at the boundary of the public op calls: simdist's ops compute their NumPy value
before they wrap it (``execute.execute``), so the op call itself is the smallest unit that
can be run again with other inputs; composite ops (a loss, a layer's kernel) become one
node, and replay runs op code only -- no user Python, no Keras layer logic.

Mirrors tensorflow/python/framework/func_graph.py (graph building) and
python/eager/polymorphic_function/concrete_function.py (execution).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import operator
import sys
import threading

import numpy as np

from simdist.framework import (
    context,
    dtypes,
    errors,
    execute,
    graph_errors,
    graph_plan,
    nest,
    nested_shapes,
    shape_errors,
)
from simdist.framework import tape as tape_lib
from simdist.framework.op_recording import (  # noqa: F401 - func_graph.recorded ... as before
    _COMPOSITES,
    _MODE_HOOKS,
    _OP_NAMES,
    _REPLICA_GROUP_HOOK,
    LISTINGS,
    PARTS,
    RESERVED_WHEN_TRACED,
    _execution,
    _in_node,
    _inlined,
    _library_refuses,
    current,
    execution_values,
    inlined_calls,
    record_methods,
    record_module_ops,
    recorded,
    register_composite,
    register_inline_condition,
    register_mode_hooks,
    register_replica_group,
    relink_reexports,
)
from simdist.framework.tensor import NotTraceable, Tensor, _ids, active, tracing  # noqa: F401
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.thread_local import ThreadLocalValue
from simdist.hardware import array_api

_variant = ThreadLocalValue(0)     # which placeholder ops read: 0 (zeros) or 1 (ones)
_merges_in_node = ThreadLocalValue(0)  # merge_calls made inside recorded ops (this thread)
_uses = ThreadLocalValue(None)     # (graph, [tensors]) while a tf.data function traces
_uses_variant = ThreadLocalValue(0)  # which placeholders those captures read: 0 or 1
_bound = ThreadLocalValue(None)    # {tensor id: value} while a tf.data function executes
_dry = ThreadLocalValue(False)     # a nested function's graph runs for its caller's shapes

_GRAPH_ERROR_HELP = (
    "You can attempt the following resolutions to the problem: If you are running in "
    "Graph mode, use Eager execution mode or decorate this function with @tf.function. "
    "If you are using AutoGraph, you can try decorating this function with @tf.function. "
    "If that does not work, then you may be using an unsupported feature or your source "
    "code may not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/"
    "blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
    "#access-to-source-code for more information.")


_active_lock = threading.Lock()


@contextlib.contextmanager
def building(graph):
    """Trace into ``graph`` on this thread (``current()`` is it inside)."""
    with _active_lock:
        active[0] += 1
    try:
        with tracing.scope(graph):
            yield graph
    finally:
        with _active_lock:
            active[0] -= 1


@contextlib.contextmanager
def inlined_call():
    """A tf.function called while another traces: traced into a FuncGraph of its own (or,
    where simdist cannot, its Python run in the caller's graph): what needs to know that it
    is in a nested function (merge_call) asks ``inlined_calls``."""
    _inlined.value += 1
    try:
        yield
    finally:
        _inlined.value -= 1


def dry_run():
    """Execute a graph for the shapes (and the tape) of the trace that calls it: a nested
    function's call op runs its graph on its caller's placeholders; its stateful nodes
    (prints, variable updates, an iterator's ``get_next``) do nothing then, their outputs
    read as their own placeholders, and a loop runs its body at most once."""
    return _dry.scope(True)


def in_dry_run() -> bool:
    """Whether graphs execute in ``dry_run`` on this thread."""
    return _dry.value


@contextlib.contextmanager
def captured_by_use(graph):
    """Run a tf.data function (a dataset's ``map``) made while ``graph`` traces: the symbolic
    tensors of ``graph`` it reads are listed (they read as their placeholders' zeros), as
    TF's dataset function captures the tensors of the enclosing trace it uses."""
    found: list = []
    with _uses.scope(None if graph is None else (graph, found)):
        yield found


def captured_now() -> list:
    """The list ``captured_by_use`` is filling now (a new empty one outside it)."""
    uses = _uses.value
    return [] if uses is None else uses[1]


def captures_read_as(variant: int):
    """Trace a tf.data function again with its captures reading their placeholders
    ``variant`` (1: ones), so what depends on their values (``tf.fill([k], x)``) shows as
    unknown in the relaxed element spec, as TF's symbolic trace has it."""
    return _uses_variant.scope(variant)


def bound_captures(values: dict):
    """Run a tf.data function at an execution: the captured symbolic tensors (by id) read
    as ``values`` (that execution's tensors), over those bound already (a traced dataset
    function's datasets iterated inside a pipeline that binds the enclosing trace's)."""
    outer = _bound.value
    return _bound.scope({**outer, **values} if outer and values else values or outer)


def bound_values() -> dict:
    """``{tensor id: tensor}`` of the tensors of the trace bound now (``bound_captures``)."""
    return _bound.value or {}


def is_symbolic(x) -> bool:
    """Whether ``x`` is a symbolic tensor (made while tracing, no concrete value)."""
    return isinstance(x, SymbolicTensor)


def taped_on_placeholders(x, *arguments) -> bool:
    """Whether a "spec" op runs on placeholders after all: while a tape records, when its
    input ``x``'s shape is fully known and its other ``arguments`` are not symbolic, so the
    placeholders give its shapes and the tape records the op (a spec's outputs alone leave
    the trace's tape without it: a gradient through it would be None)."""
    return tape_lib.active() and x.shape.is_fully_defined() and \
        not any(is_symbolic(a) for a in arguments)


_EAGER_CONDITIONS: list = []


def register_eager_condition(fn):
    """Register ``fn() -> reason or None``: where a reason is given, a tf.function called
    now runs eagerly (e.g. under a distribution strategy, which graphs do not record yet)."""
    _EAGER_CONDITIONS.append(fn)
    return fn


def eager_reason():
    """Why a tf.function called now cannot be traced, or None."""
    for fn in _EAGER_CONDITIONS:
        reason = fn()
        if reason:
            return reason
    return None


def _converted_by_autograph(t, what: str) -> None:
    """Python control flow on a tensor that AutoGraph converts in TF (``if t:``, ``for x
    in t``, ``len(t)``): while simdist's function did not convert it, it runs eagerly."""
    if t._graph.autograph_pending:
        raise NotTraceable(f"Python {what} on a tensor, which TF's AutoGraph converts to "
                           "graph control flow")


# --- composite values (TF's CompositeTensor + nest's expand_composites) -------------------
def __getattr__(name):
    """A composite's parts type by its name (``_PerReplicaParts``): saved graphs pickle
    them as attributes of this module (op_recording.register_composite makes them)."""
    if name in PARTS:
        return PARTS[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def returned_variable(x) -> bool:
    """Whether ``x``, returned by a traced function, is a plain variable TF reads."""
    return hasattr(x, "assign") and hasattr(x, "_as_tensor") and \
        not hasattr(x, "_read_local") and not isinstance(x, SymbolicTensor)


def is_composite(x) -> bool:
    """Whether ``x`` is a registered composite value (a PerReplica, a Mirrored)."""
    return type(x) in _COMPOSITES


def expand(structure):
    """``structure`` with each composite replaced by its parts (a tuple nest flattens)."""
    kind = type(structure)
    entry = _COMPOSITES.get(kind)
    if entry is not None:
        return entry[1](expand(c) for c in entry[0](structure))
    if isinstance(structure, (list, tuple)):   # (only sequences are asked for _fields:
        named = hasattr(structure, "_fields")  # a distributed value's __getattr__ is slow)
        if not structure or named and not isinstance(structure, tuple):
            return structure
        items = [expand(x) for x in structure]
        if all(a is b for a, b in zip(items, structure)):
            return structure
        if named:
            return kind(*items)
        return kind(items) if kind in (list, tuple) or kind.__name__.endswith("Parts") \
            else items
    if isinstance(structure, dict):
        items = {k: expand(v) for k, v in structure.items()}
        if all(items[k] is structure[k] for k in structure):
            return structure
        return kind(items) if kind is dict else items
    return structure


def _expanded_leaves(structure):
    """(``expand(structure)``, its leaves): without a composite among the leaves, expand
    gives the structure itself, and the leaves are walked once."""
    leaves = nest.flatten(structure)
    if _COMPOSITES:
        for leaf in leaves:
            if type(leaf) in _COMPOSITES:
                structure = expand(structure)
                return structure, nest.flatten(structure)
    return structure, leaves


def expanded_leaves(structure) -> list:
    """``nest.flatten(expand(structure))`` in one walk: each composite's components in its
    place, dicts by sorted key, without building the parts tuples (a composite node's
    outputs and a call's arguments, at every run)."""
    out: list = []
    _leaves_into(structure, out)
    return out


def _leaves_into(x, out: list) -> None:
    entry = _COMPOSITES.get(type(x))
    if entry is not None:
        _items_into(entry[0](x), out)
    elif isinstance(x, dict):
        for k in sorted(x):
            _leaves_into(x[k], out)
    elif isinstance(x, (list, tuple)):
        _items_into(x, out)
    else:
        out.append(x)


def _items_into(items, out: list) -> None:
    """``_leaves_into`` of each of ``items`` in turn; a plain Tensor (no composite, dict,
    list or tuple: a leaf) is appended without the call (a Mirrored's components, a list
    of tensors)."""
    for c in items:
        if type(c) is Tensor:
            out.append(c)
        else:
            _leaves_into(c, out)


def collapse(structure):
    """The inverse of ``expand``: each parts tuple rebuilt into its composite."""
    rebuild = getattr(type(structure), "rebuild", None)
    if rebuild is not None and isinstance(structure, tuple):
        return rebuild([collapse(c) for c in structure])
    if isinstance(structure, (list, tuple)):
        if not structure:
            return structure
        items = [collapse(x) for x in structure]
        if all(a is b for a, b in zip(items, structure)):
            return structure
        if hasattr(structure, "_fields"):
            return type(structure)(*items)
        return type(structure)(items)
    if isinstance(structure, dict):
        items = {k: collapse(v) for k, v in structure.items()}
        if all(items[k] is structure[k] for k in structure):
            return structure
        return type(structure)(items)
    return structure


def packer(structure):
    """A function ``leaves -> collapse(nest.pack_sequence_as(structure, leaves))``, made once
    for a fixed structure (a composite node's arguments): the same values, without walking
    the structure, counting its leaves and testing each part's type at every run."""
    position = [0]

    def build(s):
        if not nest.is_nested(s):
            i = position[0]
            position[0] += 1
            return operator.itemgetter(i)
        kind = type(s)
        if isinstance(s, dict):   # leaves in sorted key order, the dict in its own order
            parts = {k: build(s[k]) for k in sorted(s)}
            order = list(s)
            return lambda leaves: kind((k, parts[k](leaves)) for k in order)
        parts = [build(c) for c in s]
        rebuild = getattr(kind, "rebuild", None)
        if rebuild is not None and isinstance(s, tuple):   # a composite's parts
            return lambda leaves: rebuild([p(leaves) for p in parts])
        if nest._is_namedtuple(s):
            return lambda leaves: kind(*[p(leaves) for p in parts])
        return lambda leaves: kind([p(leaves) for p in parts])

    return build(structure)


def _concrete_when_captured(method):
    """``method`` of a symbolic tensor that a tf.data function captured (read while it traces
    or runs: ``SymbolicTensor._captured_value``) works as the concrete Tensor's does, as the
    function's own elements do (``tf.fill([k], x)`` reads ``int(k)``). The wrapper is one
    more frame between the method and its caller (``_library_refuses``'s depth)."""
    concrete = getattr(Tensor, method.__name__)

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        if (_bound.value is not None or _uses.value is not None) and \
                self._captured_value() is not None:
            return concrete(self, *args, **kwargs)
        return method(self, *args, **kwargs)

    return wrapper


class SymbolicTensor(Tensor):
    """A tensor of the graph being traced: shape, dtype, device and name; no value."""

    __slots__ = ("_graph", "_name", "_static_shape", "_dtype", "_placeholders", "_requested")

    def __init__(self, graph, name, shape, dtype, device, placeholders, tensor_id=None,
                 requested=None):
        self._graph = graph
        self._name = name
        self._static_shape = shape if type(shape) is TensorShape else TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._device = device   # where simdist runs it (placement)
        # what ``device`` says: the tf.device scopes the op was made under, as TF's graph
        # tensors do ('' outside every scope, and for a function's arguments)
        self._requested = context.requested_device() if requested is None else requested
        self._placeholders = placeholders
        self._id = next(_ids) if tensor_id is None else tensor_id
        self._nbytes = 0

    def __del__(self):
        pass

    def _renamed(self, name: str) -> SymbolicTensor:
        """The same tensor under another name (an output's ``Identity``)."""
        return SymbolicTensor(self._graph, name, self._static_shape, self._dtype,
                              self._device, self._placeholders, self._id, self._requested)

    @property
    def _value(self):
        if _in_node.value:
            return self._placeholders[_variant.value]
        captured = self._captured_value()
        if captured is not None:
            return captured
        if tracing.value is not self._graph:   # kept past its trace (TF's text)
            raise TypeError(
                f"{self!r} is out of scope and cannot be used here. Use return values, "
                "explicit Python locals or TensorFlow collections to access it.\nPlease see "
                "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must"
                "_be_return_values for more information.")
        raise NotTraceable(f"code that read the value of the symbolic tensor {self._name}")

    def _captured_value(self):
        """The value a tf.data function reads for this tensor of the trace it captured:
        the execution's (``bound_captures``), a placeholder's while it traces
        (``captured_by_use``); None elsewhere."""
        if _bound.value is not None and self._id in _bound.value:
            return _bound.value[self._id]._value
        uses = _uses.value
        if uses is not None and uses[0] is self._graph:
            if all(t is not self for t in uses[1]):
                uses[1].append(self)
            return self._placeholders[_uses_variant.value]
        return None

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self) -> str:
        return self._requested

    @property
    def shape(self) -> TensorShape:
        if _in_node.value:   # an op computing on the placeholder sees its shape
            return TensorShape(self._placeholders[_variant.value].shape)
        return self._static_shape

    @property
    def ndim(self) -> int:
        if _in_node.value:
            return self._placeholders[_variant.value].ndim
        return self._static_shape.rank

    def set_shape(self, shape) -> None:
        """Refine the static shape with ``shape`` (TF's graph ``set_shape``: the two
        merged; the placeholders remade to fit).

        Raises:
          ValueError: TF's Merge text: other ranks, or a known dimension that differs.
        """
        given = TensorShape(shape)
        old = self._static_shape
        if given.rank is None:
            return
        if old.rank is not None and old.rank != given.rank:
            raise ValueError(f"Shapes must be equal rank, but are {old.rank} and {given.rank}")
        dims, problem = shape_errors._merge(old.dims if old.rank is not None else given.dims,
                                            given.dims)
        if problem is not None:
            raise ValueError(problem)
        self._static_shape = TensorShape(dims)
        dt = self._dtype.as_numpy_dtype
        self._placeholders = (_fill(self._static_shape, 0, dt), _fill(self._static_shape, 1, dt))

    @property
    def name(self) -> str:
        return self._name

    @property
    def graph(self):
        return self._graph

    @property
    def op(self):
        """The Operation that makes this tensor (graph_operations), as TF's ``Tensor.op``."""
        return self._graph.get_tensor_by_name(self._name).op

    @property
    def value_index(self) -> int:
        return int(self._name.rpartition(":")[2] or 0)

    @property
    def numpy(self):
        _library_refuses("asked a symbolic tensor for numpy()")
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    @_concrete_when_captured
    def __array__(self, dtype=None, copy=None):
        _library_refuses("converted a symbolic tensor to a NumPy array", depth=3)
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self._name}) to a numpy array. This "
            "error may indicate that you're trying to pass a Tensor to a NumPy call, which "
            "is not supported.")

    @_concrete_when_captured
    def __bool__(self):
        _library_refuses("used a symbolic tensor as a Python bool", depth=3)
        _converted_by_autograph(self, "if/while")
        raise errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. "
            + _GRAPH_ERROR_HELP)

    @_concrete_when_captured
    def __iter__(self):
        _library_refuses("iterated over a symbolic tensor", depth=3)
        _converted_by_autograph(self, "for loop")
        raise errors.OperatorNotAllowedInGraphError(
            "Iterating over a symbolic `tf.Tensor` is not allowed. " + _GRAPH_ERROR_HELP)

    @_concrete_when_captured
    def __len__(self):
        _library_refuses("took len() of a symbolic tensor", depth=3)
        _converted_by_autograph(self, "len()")
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self._name}). "
                        "Please call `x.shape` rather than `len(x)` for shape information.")

    def _python_number(self, kind):
        _library_refuses(f"converted a symbolic tensor with {kind}()", depth=4)
        _converted_by_autograph(self, f"{kind}()")
        raise TypeError(f"{kind}() argument must be a string or a real number, not "
                        "'SymbolicTensor'")

    @_concrete_when_captured
    def __float__(self):
        return self._python_number("float")

    @_concrete_when_captured
    def __int__(self):
        return self._python_number("int")

    @_concrete_when_captured
    def __index__(self):
        _library_refuses("used a symbolic tensor as an index", depth=3)
        raise TypeError("list indices must be integers or slices, not SymbolicTensor")

    def __format__(self, spec: str) -> str:
        if spec:
            raise TypeError("unsupported format string passed to SymbolicTensor.__format__")
        return str(self)

    def __str__(self) -> str:
        return f'Tensor("{self._name}", shape={self._static_shape}, dtype={self._dtype.name})'

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self._name}' shape={self._static_shape} dtype={self._dtype.name}>"


# An op's conversion hands a symbolic tensor back as it is, as a Tensor (the placeholder
# runs of every recorded op convert their inputs).
execute.AS_IS.add(SymbolicTensor)


class Node:
    """One recorded op call (see the module docstring)."""

    __slots__ = ("fn", "structure", "leaves", "slots", "out_slots", "device", "name",
                 "composite", "mode", "layout", "packer", "dry", "frames", "graph_text")

    def __init__(self, fn, structure, leaves, slots, device, name, composite=False):
        self.fn = fn
        self.structure = structure
        self.leaves = leaves
        self.slots = slots          # [(leaf position, tensor id)] filled at execution
        self.out_slots = ()         # [(output leaf position, tensor id)]
        self.device = device
        self.name = name
        self.composite = composite  # arguments or outputs hold composites (expanded)
        self.mode = None            # the distribution mode it was recorded in (if not default)
        self.layout = _flat_layout(structure, composite)   # fast unpacking, or None
        self.packer = None   # a composite node's packer(structure), made at its first run
        self.dry = None   # a stateful node's symbolic outputs (what a dry run reads)
        self.frames = ()  # the user's frames where it was recorded (graph_errors)
        self.graph_text = None   # TF's graph kernel's error text, where not the eager one

    def run(self, env: dict) -> None:
        if self.dry is not None and _dry.value:   # a stateful node in a dry run: no effect
            for sid, t in self.dry:
                env[sid] = Tensor(t._placeholders[_variant.value], t._device)
            return
        leaves = self.filled(env)
        if self.layout is not None:   # (args, kwargs) of leaves: no nest.pack needed
            n, keys = self.layout
            args = leaves[:n]
            kwargs = dict(zip(keys, leaves[n:])) if keys else {}
        elif self.composite:   # composites rebuilt as they are packed
            pack = getattr(self, "packer", None)   # (unset in a graph saved without it)
            if pack is None:
                pack = self.packer = packer(self.structure)
            args, kwargs = pack(leaves)
        else:
            args, kwargs = nest.pack_sequence_as(self.structure, leaves)
        if self.mode is not None:
            _MODE_HOOKS[1](self.mode)
        try:
            if self.device is None:
                out = self.fn(*args, **kwargs)
            else:
                with context.device(self.device):
                    out = self.fn(*args, **kwargs)
        except errors.OpError as e:   # TF's error names the innermost node that failed
            if _dry.value:
                nested_shapes.note(e, self, args, kwargs,
                                   {id(leaves[pos]): sid for pos, sid in self.slots})
                raise
            raise graph_errors.at_node(e, self) from None
        except StopIteration:   # a graph's next() past the end
            if _dry.value:
                raise
            raise graph_errors.end_of_sequence(self) from None
        finally:
            if self.mode is not None:
                _MODE_HOOKS[2]()
        if self.out_slots:
            flat = expanded_leaves(out) if self.composite else nest.flatten(out)
            for pos, sid in self.out_slots:
                env[sid] = flat[pos]

    def filled(self, env: dict) -> list:
        """The node's leaves with this execution's tensors (``env``) in its slots."""
        leaves = list(self.leaves)
        for pos, sid in self.slots:
            leaves[pos] = env[sid]
        return leaves

    def __repr__(self):
        return f"<Node {self.name}>"


def _flat_layout(structure, composite):
    """(number of positional arguments, sorted keyword names) when every argument is a
    leaf (the leaves are then the arguments in that order), else None."""
    if composite or type(structure) is not tuple or len(structure) != 2:
        return None
    args, kwargs = structure
    if type(args) is not tuple or type(kwargs) is not dict:
        return None
    for x in args:   # (plain loops: every recorded op comes here)
        if isinstance(x, nest.NESTED):
            return None
    for x in kwargs.values():
        if isinstance(x, nest.NESTED):
            return None
    return len(args), tuple(sorted(kwargs))


_ONE_PASS = (zip, map, filter, type(x for x in ()))


def _walk(nodes):
    """The recorded op nodes, those of a cond's branches and a loop's body included."""
    for node in nodes:
        if isinstance(node, Node):
            yield node
        for branch_nodes, _ in getattr(node, "branches", ()):
            yield from _walk(branch_nodes)
        for part in ("cond", "body"):
            inner = getattr(node, part, None)
            if isinstance(inner, list):
                yield from _walk(inner)


def walk_called(nodes):
    """The recorded op nodes (``_walk``), those of the functions they call (a nested
    tf.function's graph, ``__nested_graph__``) included."""
    for node in _walk(nodes):
        yield node
        nested = getattr(node.fn, "__nested_graph__", None)
        if nested is not None:
            yield from walk_called(nested().nodes)


def is_stateful(graph, node) -> bool:
    """Whether ``node`` of ``graph`` is a stateful op in TF: recorded as one (``dry``), or
    listed as TF's ops of which one is (``node_listings``: a collective's
    CollectiveReduceV2 or CrossReplicaSum), which makes a cond, loop or call around it
    stateful too; a listing that says ``stateful`` decides (a node simdist alone has)."""
    stateful = getattr(graph.node_listings.get(id(node)), "stateful", None)
    return node.dry is not None if stateful is None else stateful


_REDUCTIONS = frozenset({"reduce_sum", "reduce_mean", "reduce_max", "reduce_min",
                         "reduce_prod", "reduce_any", "reduce_all"})


class FuncGraph:
    """The graph one trace of a ``tf.function`` records (TF's FuncGraph)."""

    def __init__(self, name: str):
        self.name = name
        self.nodes: list[Node] = []
        self.inputs: list = []          # [(flat argument position, tensor id, dtype)]
        self.outputs = None             # the structure the function returned
        self.substitutes: dict = {}     # id(variable argument) -> its slot id
        self.stdout = None              # sys.stdout while tracing (its output is held)
        self.created_variables: list = []   # tf.Variables the traced code made (lifted)
        # node ranges get_operations lists as TF's ops instead (data.traced_reduce.Listing)
        self.listed_ranges: list = []
        self.requested_devices: dict = {}   # id(node) -> its tf.device scopes' spec
        self.node_listings: dict = {}   # id(node) -> what lists it as TF's ops instead
        # autograph=True but the function was not converted: Python control flow on a
        # tensor makes the function run eagerly rather than raise (AutoGraph would convert)
        self.autograph_pending = False
        self.autograph = True           # False: tf.function(autograph=False) traces it
        self.constant_folding = True    # Grappler folds x / c (not tf.data's functions)
        self._names: dict = {}
        self._scopes: dict = {}         # thread id -> the name scope ops record in ("a/b/")
        self.made_names: dict = {}      # id -> name of the inputs (and stateful outputs)
        self._base_device = None
        self._plans: dict = {}          # graph_plan.Plan per tf.device scope of the calls
        self.structured_inputs = ((), {})   # the arguments, tensors as placeholders
        self._spec_op = None            # (node, next output index) a spec's outputs name
        self.outer_captures = None      # a tf.data function's: tensors of the trace around
        self.tensor_specs: dict = {}    # tensor id -> (name, dtype, static shape)
        self._pending_reads: dict = {}  # a converted variable's read not yet consumed
        self.reads_before: dict = {}    # op name -> its variable operand's read (v * 2.0)
        self.reduction_axes: dict = {}  # a reduction's name -> its default axes' names
        self.read_identities: dict = {}   # read_value()'s tensor id -> (read, Identity name)
        self._output_names = None       # the outputs' Identity names, made once
        self.output_reads: dict = {}    # a returned variable's id -> its read's name
        self.argument_names: list = []  # the flat arguments' names (function._trace_graph)
        self.inference_name = graph_errors.inference_name(name)   # __inference_f_23
        # the tensors of cond branches and loop bodies traced already (tensor id -> that
        # body's name, id and the node that made it), which no later op may take; the
        # bodies being traced now (name, id)
        self.closed: dict = {}
        self.open_bodies: list = []

    def inaccessible(self, t):
        """TF's InaccessibleTensorError for ``t``, a tensor of a cond branch or loop body
        already traced, taken by an op (or returned) outside it (func_graph's
        _validate_in_scope)."""
        from simdist.errors import InaccessibleTensorError

        body, body_id, frames = self.closed[t._id]
        here, here_id = self.open_bodies[-1] if self.open_bodies else (self.name, id(self))
        return InaccessibleTensorError(
            f"{t!r} is out of scope and cannot be used here. Use return values, explicit "
            "Python locals or TensorFlow collections to access it.\nPlease see "
            "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_"
            "return_values for more information.\n\n"
            f"{t!r} was defined here:\n{_defined_here(frames)}\n\nThe tensor {t!r} cannot be "
            f"accessed from FuncGraph(name={here}, id={here_id}), because it was defined in "
            f"FuncGraph(name={body}, id={body_id}), which is out of scope.")

    @property
    def scope(self) -> str:
        """The name scope this thread's ops are recorded in (``"a/b/"``): per thread, as
        TF's graph keeps it, since replica threads trace into one graph."""
        return self._scopes.get(threading.get_ident(), "")

    @scope.setter
    def scope(self, value: str) -> None:
        self._scopes[threading.get_ident()] = value

    def as_graph_def(self):
        """TF's GraphDef of this graph (graph_def)."""
        from simdist.framework import graph_def

        return graph_def.as_graph_def(self)

    def get_operations(self) -> list:
        """TF's ``Graph.get_operations()``: the graph's ops in order (graph_operations),
        their outputs' dtypes and static shapes as TF lists them (operation_outputs)."""
        from simdist.framework import graph_operations, operation_outputs

        return operation_outputs.complete(graph_operations.operations(self))

    def get_operation_by_name(self, name: str):
        for op in self.get_operations():
            if op.name == name:
                return op
        raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")

    def get_tensor_by_name(self, name: str):
        op_name, _, index = name.rpartition(":")
        if not op_name or not index.isdigit():
            raise ValueError(f"The name {name!r} looks a like an Operation name, not a "
                             "Tensor. Tensor names must be of the form "
                             "\"<op_name>:<output_index>\".")
        op = self.get_operation_by_name(op_name)
        if int(index) >= len(op.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. "
                           f"The operation, {op_name!r}, exists but only has "
                           f"{len(op.outputs)} outputs.")
        return op.outputs[int(index)]

    def output_leaves(self) -> list:
        """The outputs TF makes an Identity of: symbolic tensors (a PerReplica's parts too)
        and plain variables (read when the trace ends: func_graph's
        convert_variables_to_tensors)."""
        return [t for t in nest.flatten(expand(self.outputs))
                if isinstance(t, SymbolicTensor) or returned_variable(t)]

    def output_names(self) -> list:
        """TF's names of the outputs: each goes through an Identity op, named after the
        graph's other ops (``Identity_2`` where the function made two); a returned
        variable's read (``ReadVariableOp``, in ``output_reads``) is named before them."""
        leaves = self.output_leaves()
        if self._output_names is None or len(self._output_names) != len(leaves):
            self.output_reads = {id(t): self.unique_name("ReadVariableOp") for t in leaves
                                 if returned_variable(t)}
            self._output_names = [self.unique_name("Identity") + ":0" for _ in leaves]
        return self._output_names

    def captured_tensor_ids(self) -> frozenset:
        """The ids of the concrete tensors its nodes (and the functions they call) capture
        (not variables), found once."""
        ids = getattr(self, "_captured_ids", None)   # (unset in a graph saved without it)
        if ids is None:
            found = set()
            for node in _walk(self.nodes):
                nested = getattr(node.fn, "__nested_graph__", None)
                if nested is not None:
                    found |= nested().captured_tensor_ids()
                found.update(leaf._id for leaf in node.leaves if isinstance(leaf, Tensor)
                             and not isinstance(leaf, SymbolicTensor))
            ids = self._captured_ids = frozenset(found)
        return ids

    def captures(self) -> list:
        """The variables from outside that the graph's nodes use, in first-use order."""
        seen, out = set(), []
        made = {id(v) for v in self.created_variables}
        for node in _walk(self.nodes):
            for leaf in node.leaves:
                if hasattr(leaf, "_as_tensor") and hasattr(leaf, "assign") and \
                        id(leaf) not in seen and id(leaf) not in self.substitutes and \
                        id(leaf) not in made:
                    seen.add(id(leaf))
                    out.append(leaf)
        return out

    # --- building -----------------------------------------------------------------------
    def unique_name(self, name: str) -> str:
        """TF's ``Graph.unique_name``: ``add``, ``add_1``, ... (case-insensitively unique;
        a composed name is marked used too, so asking for ``x_1`` after ``x`` was made
        unique as ``x_1`` gives ``x_1_1``)."""
        key = name.lower()
        n = self._names.get(key, 0)
        self._names[key] = n + 1
        if n == 0:
            return name
        base = key
        while key in self._names:
            key = f"{base}_{n}"
            n += 1
        self._names[key] = 1
        return f"{name}_{n - 1}"

    def scope_name(self, name: str) -> str:
        """TF's ``Graph.name_scope`` name for ``name`` here: relative ones made unique
        under the current scope (``s/``, then ``s_1/``); one ending in ``/`` as it is."""
        if not name or name.endswith("/"):
            return name
        return self.unique_name(self.scope + name) + "/"

    @contextlib.contextmanager
    def name_scope(self, name: str):
        """TF's graph name scope: ops recorded inside are named ``<scope>/<op>``; the scope
        is made unique as op names are (``a``, ``a_1``); a name ending in ``/`` is used as
        it is, ``""`` is the top."""
        old = self.scope
        self.scope = self.scope_name(name)
        try:
            yield self.scope
        finally:
            self.scope = old

    def placeholder(self, value, name: str, shape=None) -> SymbolicTensor:
        """The symbolic input standing for argument ``value`` (a Tensor or an array)."""
        t = value if isinstance(value, Tensor) else execute.convert_to_tensor(value)
        ph = self.symbolic_like(t.shape if shape is None else shape, t.dtype, t._device,
                                name, example=t.shape)
        tag = getattr(t, "_teach_tag", None)   # simdist.warnings: what made the argument
        if tag is not None:
            ph._teach_tag = tag
        return ph

    def symbolic_like(self, shape, dtype, device, name: str, example=None) -> SymbolicTensor:
        """A symbolic tensor of ``shape`` (an input, or a stateful node's output); an
        unknown rank takes the rank of ``example`` (else 1) for its placeholders."""
        shape = TensorShape(shape)
        dt = dtypes.as_dtype(dtype).as_numpy_dtype
        if example is not None and TensorShape(example).rank is None:
            example = None   # an argument of unknown rank itself (a caller's placeholder)
        known = shape if shape.rank is not None else TensorShape(
            [None] * (1 if example is None else len(example)))
        # an unknown rank: the ones have one more dimension, so an op's output whose rank
        # follows its input's is of unknown rank too (as TF's shape inference gives)
        other = known if shape.rank is not None else TensorShape([None] * (known.rank + 1))
        if self._spec_op is not None:   # the recording op's outputs: op:0, op:1, ...
            op, index = self._spec_op
            self._spec_op = (op, index + 1)
        else:
            op, index = self.unique_name(self.scope + name), 0
        t = SymbolicTensor(self, f"{op}:{index}", shape, dtype, device,
                           (_fill(known, 0, dt), _fill(other, 1, dt)))
        self.made_names[t._id] = t._name
        return t

    def _capture(self, t) -> bool:
        """A tensor of an enclosing trace used by this graph's op: a tf.data function's
        graph (``outer_captures`` a list) takes it as an input of its own, as TF's dataset
        functions capture; other graphs do not (False)."""
        if self.outer_captures is None:
            return False
        if t._graph is not None and t._graph.outer_captures is not None:
            # another tf.data function's tensor: only one that binds what the datasets it
            # returns read lends it (simdist.data.structured_function, ``lent_captures``)
            lent = getattr(t._graph, "lent_captures", None)
            if lent is None:
                return False
            lent.append(t)
        if all(t is not u for u in self.outer_captures):
            self.outer_captures.append(t)
        return True

    def record(self, fn, kind: str, spec, args, kwargs, name: str):
        """Record ``fn(*args, **kwargs)`` as a node; its symbolic outputs.

        ``kind``: "pure" (run on placeholders for shapes), "once" (run once, e.g. a
        tape's gradient, which uses the tape up), "stateful" (not run: ``spec(graph,
        *args, **kwargs)`` gives its outputs), "spec" (pure, but its output shape depends
        on input values, so ``spec`` gives its outputs too: ``tf.range(n)``).
        """
        if kind == "stateful":   # zip(grads, vars): taken once, kept for every execution
            args = tuple(list(a) if isinstance(a, _ONE_PASS) else a for a in args)
        given = (args, kwargs)
        structure, leaves = _expanded_leaves(given)
        composite = structure is not given
        slots = []
        symbolic = False
        for i, leaf in enumerate(leaves):
            if isinstance(leaf, SymbolicTensor):
                if leaf._graph is not self and not self._capture(leaf):
                    raise NotTraceable("a symbolic tensor of another trace")
                if leaf._id in self.closed:
                    raise self.inaccessible(leaf)
                slots.append((i, leaf._id))
                symbolic = True
            elif id(leaf) in self.substitutes:
                slots.append((i, self.substitutes[id(leaf)]))
            elif leaf is self.stdout and leaf is not None:   # print(..., file=sys.stdout)
                slots.append((i, "stdout"))
        axes = self._default_axes(fn, args, kwargs)   # (named before the op, as TF's)
        # a name ending in "/" (a scope's own name) is used as it is, without the slash
        op_name = name[:-1] if name.endswith("/") else self.unique_name(self.scope + name)
        if axes:
            self.reduction_axes[op_name] = axes
        if self._pending_reads:
            self._name_reads(slots, op_name)
        if LISTINGS.get(fn) in RESERVED_WHEN_TRACED:   # the names of the ops TF lists for it
            from simdist.framework import graph_operations

            graph_operations.reserve_names(
                self, fn, op_name, args, kwargs,
                getattr(_MODE_HOOKS[0](), "replica_context", None) if _MODE_HOOKS else None)
        if args and getattr(fn, "__name__", "").startswith("__") and \
                hasattr(args[0], "_as_tensor") and \
                hasattr(args[0], "assign"):
            # a variable's operator reads it first, in the scope around (TF's _run_op:
            # ``a.value()``): the read's name, in its place among the names
            self.reads_before[op_name] = self.unique_name(self.scope + "ReadVariableOp")
        merges = _merges_in_node.value
        out = NotImplemented
        if kind in ("stateful", "spec"):
            # the spec names its outputs after the node (``range:0``, ``IteratorGetNext:1``)
            self._spec_op = (op_name, 0)
            try:
                out = None if spec is None else spec(self, *args, **kwargs)
            finally:
                self._spec_op = None
        if out is NotImplemented:   # a "spec" op whose shapes its placeholders show: run it
            plain, out = self._shapes(fn, args, kwargs, op_name,
                                      twice=symbolic and kind in ("pure", "spec"))
            if plain:   # no tensor out (a helper, a context manager): nothing to record
                return out
        device = context.explicit_device()
        if type(out) is SymbolicTensor:   # one tensor out (most ops)
            flat = [out]
        else:
            expanded, flat = _expanded_leaves(out)
            composite = composite or expanded is not out
        node = Node(fn, structure, tuple(leaves), tuple(slots),
                    None if device is self._base_device else
                    (device.name if device is not None else None), op_name, composite)
        node.out_slots = tuple((i, t._id) for i, t in enumerate(flat)
                               if isinstance(t, SymbolicTensor))
        requested = context.requested_device()
        if requested:   # its ops' ``device`` (graph_operations)
            self.requested_devices[id(node)] = requested
        if self.outer_captures is None:   # a tf.data function's nodes keep none, as TF's
            node.frames = graph_errors.defining_frames()
        node.graph_text = graph_errors.graph_kernel_text(fn, args, kwargs)
        for t in flat:
            if isinstance(t, SymbolicTensor) and t._id not in self.tensor_specs:
                self.tensor_specs[t._id] = (t._name, t._dtype, t._static_shape)
        if kind == "stateful" and fn not in _RUN_WHEN_DRY:
            node.dry = tuple((t._id, t) for t in flat if isinstance(t, SymbolicTensor))
        if _MODE_HOOKS:
            node.mode = _MODE_HOOKS[0]()
        if _merges_in_node.value != merges and _REPLICA_GROUP_HOOK and \
                _REPLICA_GROUP_HOOK[0](self, node):
            return out   # a replica's part of a cooperative node (see register_replica_group)
        self.nodes.append(node)
        return out

    def _default_axes(self, fn, args, kwargs):
        """A reduction over every axis: the names TF's ``_ReductionDims`` gives its axes
        before the op, in the scope around (``Const`` for a known rank above 0, else
        ``Rank`` and ``range``); None for another op or given axes."""
        if getattr(fn, "__name__", "") not in _REDUCTIONS or not args or \
                not isinstance(args[0], SymbolicTensor) or \
                (args[1] if len(args) > 1 else kwargs.get("axis")) is not None:
            return None
        if args[0].shape.rank:
            return (self.unique_name(self.scope + "Const"),)
        return self.unique_name(self.scope + "Rank"), self.unique_name(self.scope + "range")

    def identity_after_read(self, t) -> None:
        """``t`` is a ``read_value()``'s read: TF returns ``array_ops.identity`` of it,
        named in the scope around (``Identity``); ``t`` takes that name, and the graph's
        listing shows the Identity op (``read_identities``) -- no op runs for it."""
        if isinstance(t, SymbolicTensor) and t._graph is self:
            name = self.unique_name(self.scope + "Identity")
            self.read_identities[t._id] = (t._name, name)
            t._name = name + ":0"
            self.made_names[t._id] = t._name
            spec = self.tensor_specs.get(t._id)
            if spec is not None:
                self.tensor_specs[t._id] = (t._name,) + tuple(spec[1:])

    def converted_read(self, t) -> None:
        """``t`` is a variable's read made to convert it for an op (``_as_tensor``): TF
        reads it inside that op's name scope, so the op that takes it names it
        (``dense/MatMul/ReadVariableOp``; see ``_name_reads``)."""
        if isinstance(t, SymbolicTensor) and t._graph is self:
            for node in reversed(self.nodes[-3:]):
                if isinstance(node, Node) and any(tid == t._id for _, tid in node.out_slots):
                    self._pending_reads[t._id] = (node, t)
                    return

    def names_taken(self) -> dict:
        """The op names taken so far (for ``named_when_used``)."""
        return dict(self._names)

    def named_when_used(self, out, made, taken: dict) -> None:
        """The ops that made ``out`` are named by the op that uses it: ``made`` is
        [(tensor, name)] (``<op>/<name>``, in order); their names now are given back
        (the graph's names as ``taken`` had them), as TF converts a value inside the
        scope of the op taking it (an AutoCastVariable's read and Cast)."""
        self._names.clear()
        self._names.update(taken)
        self._pending_reads[out._id] = [
            (node, t, name) for t, name in made for node in self.nodes[-4:]
            if isinstance(node, Node) and any(tid == t._id for _, tid in node.out_slots)]

    def _name_reads(self, slots, op_name: str) -> None:
        """The converted reads an op named ``op_name`` takes: ``<op_name>/ReadVariableOp``
        (those ``named_when_used`` made: ``<op_name>/<name>``)."""
        for _, tid in slots:
            pending = self._pending_reads.pop(tid, None)
            if pending is None:
                continue
            for node, t, name in pending if isinstance(pending, list) else \
                    [pending + ("ReadVariableOp",)]:
                node.name = self.unique_name(f"{op_name}/{name}")
                t._name = node.name + ":0"
                self.tensor_specs[t._id] = (t._name, t._dtype, t._static_shape)

    def _shapes(self, fn, args, kwargs, op_name, twice):
        """Run ``fn`` on placeholders: (True, its result) when it gave no tensor, else
        (False, its outputs made symbolic)."""
        with _NodeScope(0):
            try:
                first = fn(*args, **kwargs)
            except errors.InvalidArgumentError as e:   # TF's shape function: a ValueError
                nested = getattr(fn, "__nested_outputs__", None)
                if nested is not None:   # a nested function's graph on made-up sizes: TF
                    # calls it with its outputs' static shapes; its kernels check at execution
                    return False, self._nested_outputs(op_name, nested())
                raised = shape_errors.at_trace(e, fn, op_name, args, kwargs)
                if raised is not None:
                    raise raised from None
                found = shape_errors.deferred(e, fn, args, kwargs)
                if found is None:
                    raise
                # the placeholders' made-up sizes: TF traces it, the kernel checks at execution
                return False, self._deferred_output(op_name, *found)
        if type(first) is Tensor:   # one tensor out (most ops): no structure to walk
            flat = [first]
        else:
            first, flat = _expanded_leaves(first)
            if not any(isinstance(t, Tensor) for t in flat):
                return True, first
            for t in flat:
                _check_output(t, op_name)
        second = None
        if twice:
            saved = list(tape_lib.stack())
            tape_lib.stack().clear()   # the second run is for shapes only: no tape records
            try:
                with _NodeScope(1):
                    second = nest.flatten(fn(*args, **kwargs))
            except errors.InvalidArgumentError as e:   # the ones' made-up sizes do not fit:
                second = None                            # TF's shape function, if known
                found = shape_errors.deferred(e, fn, args, kwargs) if len(flat) == 1 else None
                if found is not None:
                    return False, self._deferred_output(op_name, *found)
            except Exception:  # a value-dependent check on the ones: the zeros' shapes
                second = None
            finally:
                tape_lib.stack()[:] = saved
        outs = []
        index = 0   # TF's output index counts the op's tensor outputs only (not a None)
        for i, t in enumerate(flat):
            if not isinstance(t, Tensor) or isinstance(t, SymbolicTensor):
                outs.append(t)
                continue
            other = second[i] if second is not None and i < len(second) else None
            dims = t._value.shape
            b = getattr(other, "_value", t._value)
            if b.shape == dims:
                shape = TensorShape.from_ints(tuple(dims))
            elif len(b.shape) == len(dims):
                shape = [d if d == e else None for d, e in zip(dims, b.shape)]
            else:   # the rank follows an unknown-rank input's
                shape = None
            suffix = f":{index}"
            index += 1
            out = SymbolicTensor(self, op_name + suffix, shape, t.dtype, t._device,
                                 (t._value, b), tensor_id=t._id)
            tag = getattr(t, "_teach_tag", None)   # simdist.warnings: what the op made
            if tag is not None:
                out._teach_tag = tag
            outs.append(out)
        if type(first) is Tensor:
            return False, outs[0]
        return False, collapse(nest.pack_sequence_as(first, outs))

    def _nested_outputs(self, op_name, outputs):
        """The outputs of a nested function's call op ``op_name`` (``op:0``, ``op:1``) of
        the static shapes its graph's ``outputs`` have."""
        self._spec_op = (op_name, 0)
        try:
            return nest.map_structure(
                lambda t: self.symbolic_like(t._static_shape, t.dtype, t._device, op_name)
                if isinstance(t, SymbolicTensor) else t, outputs)
        finally:
            self._spec_op = None

    def _deferred_output(self, op_name, dims, dtype):
        """The symbolic output of an op traced on TF's static shape (``dims``) where its
        kernel could not run on the placeholders (shape_errors.deferred)."""
        shape = TensorShape(dims)
        dt = dtypes.as_dtype(dtype).as_numpy_dtype
        known = shape if shape.rank is not None else TensorShape([None])
        other = known if shape.rank is not None else TensorShape([None, None])
        return SymbolicTensor(self, f"{op_name}:0", shape, dtype, context.current_device(),
                              (_fill(known, 0, dt), _fill(other, 1, dt)))

    # --- control flow (what tf.cond / tf.while_loop / AutoGraph call while tracing) ------
    def cond(self, pred, true_fn, false_fn, name=None):
        """Both branches traced once; the one ``pred`` picks runs at each execution."""
        from simdist.framework import graph_control_flow

        return graph_control_flow.cond(self, pred, true_fn, false_fn, name)

    def while_loop(self, cond, body, loop_vars, shape_invariants=None,
                   maximum_iterations=None, name=None):
        """Condition and body traced once; the loop runs at each execution."""
        from simdist.framework import graph_control_flow

        return graph_control_flow.while_loop(self, cond, body, loop_vars, shape_invariants,
                                             maximum_iterations, name)

    def finalize(self) -> None:
        """Drop the nodes' references to symbolic inputs (execution fills those slots): the
        placeholder values they hold are needed only while tracing."""
        for node in self.nodes:
            if isinstance(node, Node) and node.slots:
                leaves = list(node.leaves)
                for pos, _ in node.slots:
                    leaves[pos] = None
                node.leaves = tuple(leaves)

    # --- execution ----------------------------------------------------------------------
    def execute(self, flat_args):
        """Run the recorded nodes with the call's arguments; the function's outputs."""
        env: dict = {"stdout": sys.stdout}
        captured = self.captured_tensor_ids()
        for pos, sid, dtype in self.inputs:
            value = flat_args[pos]
            if captured and isinstance(value, Tensor) and value._id in captured:
                value = _argument_of_its_own(value)
            env[sid] = (value if dtype is None or isinstance(value, Tensor)  # a variable,
                        else execute.convert_to_tensor(value, dtype_hint=dtype))  # dataset..
        ex = _Execution(env, self)
        with _execution.scope(ex):
            try:
                if _dry.value:   # for the caller's shapes: node by node, no plan built
                    for node in self.nodes:
                        node.run(env)
                else:
                    graph_plan.run(self, env)   # the nodes, through the graph's compiled plan
            finally:
                ex.close()
        outputs = expand(self.outputs) if _COMPOSITES else self.outputs
        return collapse(nest.map_structure(lambda t: self._output(t, env), outputs))

    def _output(self, t, env):
        """One of the function's outputs at execution: a variable (or an assign's unread
        variable) comes back read, as a tensor, as TF's graph outputs do."""
        if isinstance(t, SymbolicTensor):
            return _returned(env[t._id])
        if id(t) in self.substitutes:
            t = env[self.substitutes[id(t)]]
        if hasattr(t, "assign") and hasattr(t, "read_value"):
            return t.read_value()
        return t


def _argument_of_its_own(t: Tensor) -> Tensor:
    """An argument that is also a tensor the graph captures, as TF's placeholder of it: a
    tensor of its own (a tape in the function that watches the argument does not watch
    the capture), linked to ``t`` on the caller's tapes by an Identity, so their gradient
    reaches ``t`` through both (recorded from TF 2.21: tests/framework/function_tape_cases
    ``a function given the tensor it captures``)."""
    own = Tensor(t._value, t._device)
    if tape_lib.active():
        tape_lib.record("Identity", [t], (own,))
    return own


def _returned(t):
    """An output as the call returns it: TF hands back a function's outputs that sit on
    another CPU of the task (a logical CPU) on that task's CPU:0 (recorded from TF 2.21:
    tests/framework/fixtures/tf_function_distribute.json); other devices keep them."""
    dev = getattr(t, "_device", None)
    if dev is None or dev.device_type != "CPU" or not dev.index or \
            not isinstance(t, Tensor) or hasattr(t, "assign"):
        return t
    from simdist.hardware import machine

    host = machine.find_device(dev.name[:dev.name.rindex(":")] + ":0")
    return Tensor(t._value, host)


def _fill(shape: TensorShape, value, np_dtype):
    """A placeholder value: unknown dimensions are 2 for the zeros, 3 for the ones."""
    dims = [(2 + value) if d is None else d for d in shape.as_list()]
    if np.dtype(np_dtype).kind == "O":
        return np.full(dims, b"", dtype=object)
    return array_api.from_host(np.full(dims, value, dtype=np_dtype))  # where values live


def _check_output(t, op_name) -> None:
    if t is None or isinstance(t, (Tensor, bool, int, float, str, bytes, np.generic)):
        return
    if hasattr(t, "assign") or type(t).__name__ in ("TensorShape", "DType"):
        return
    raise NotTraceable(f"{op_name} returned a {type(t).__name__}")


class _NodeScope:
    """While entered: no graph traced here (``tracing``), one recorded op deeper
    (``_in_node``), placeholders ``variant`` read, ops run for their shapes only
    (execute.shape_inference); each put back on leaving. One context manager for the four
    (a trace enters it twice for every op it records)."""

    __slots__ = ("_variant", "_saved")

    def __init__(self, variant: int):
        self._variant = variant

    def __enter__(self) -> None:
        scratch = execute._scratch
        self._saved = saved = (tracing.value, _in_node.value, _variant.value, scratch.value)
        tracing.value = None
        _in_node.value = saved[1] + 1
        _variant.value = self._variant
        scratch.value = True

    def __exit__(self, *exc_info) -> None:
        tracing.value, _in_node.value, _variant.value, execute._scratch.value = self._saved


class _Execution:
    """One replay of a graph: the tensors so far and the tapes its nodes entered."""

    def __init__(self, env, graph=None):
        self.env = env
        self.graph = graph   # the FuncGraph replayed (``current_execution``)
        self.tapes: dict = {}   # id(GradientTape of the trace) -> this replay's tape

    def tape_view(self, gradient_tape):
        view = copy.copy(gradient_tape)
        view._tape = self.tapes[id(gradient_tape)]
        view._in_context = view._tape in tape_lib.stack()
        view._used = False   # the trace checked how often the tape is used
        return view

    def close(self) -> None:
        s = tape_lib.stack()
        for t in self.tapes.values():
            if t in s:
                s.remove(t)


def current_execution():
    """This thread's replay of a graph now (``.graph``: the FuncGraph), or None (eagerly,
    or while tracing)."""
    return _execution.value


# --- recording hooks for the public ops (their tables: op_recording) --------------------
def note_merge_call() -> None:
    """A replica called merge_call; inside a recorded op's run on placeholders, that op is
    cooperative: at execution it needs the other replicas' part at the same time (a
    gradient through an all-reduce all-reduces the incoming gradients)."""
    if _in_node.value:
        _merges_in_node.value += 1


@contextlib.contextmanager
def op_name_scope(name, default_name: str):
    """TF's ``ops.name_scope(name, default_name)`` inside a library function: while a graph
    traces here, its ops are named under ``name or default_name`` (made unique); eagerly,
    nothing. Yields the scope (``"TensorArrayV2Write/"``) or None."""
    g = tracing.value
    if g is None or _in_node.value:
        yield None
        return
    with g.name_scope(name or default_name) as scope:
        yield scope


def graph_name_scope(name: str, layer: bool = False):
    """The graph half of ``tf.name_scope(name)`` while a graph traces here (nothing
    eagerly): ops recorded inside are named under it. ``layer``: a Keras layer's call
    scope, ``<current scope><name>/`` as tf-keras's ``Layer._name_scope`` makes it
    (absolute, so never made unique: a layer called twice names its ops ``dense/Relu``,
    ``dense/Relu_1``)."""
    g = tracing.value if active[0] and not _in_node.value else None
    if g is None:
        return contextlib.nullcontext()
    return g.name_scope(g.scope + name + "/" if layer and name else name)


def recorded_op_variant():
    """Which placeholders this thread's recorded op runs on (while tracing), or None."""
    return _variant.value if _in_node.value else None


def recorded_op_scope(variant: int):
    """The state a recorded op runs in on placeholders ``variant`` (no graph, shape
    inference), for work done on its behalf on another thread (its replicas' merge)."""
    return _NodeScope(variant)


# --- gradient tapes inside a trace ------------------------------------------------------
def _replay_tape_enter(gradient_tape) -> None:
    ex = _execution.value
    if ex is None:
        return
    t = ex.tapes.get(id(gradient_tape))
    if t is None:   # entered again (LossScaleOptimizer's ``with tape:``): it goes on recording
        t = tape_lib.Tape(gradient_tape._persistent, gradient_tape._watch_accessed_variables)
        ex.tapes[id(gradient_tape)] = t
    tape_lib.stack().append(t)


def _replay_tape_exit(gradient_tape) -> None:
    ex = _execution.value
    if ex is None:
        return
    t = ex.tapes.get(id(gradient_tape))
    s = tape_lib.stack()
    if t in s:
        s.remove(t)


def _replay_watch(gradient_tape, tensor) -> None:
    ex = _execution.value
    if ex is not None:
        ex.tape_view(gradient_tape).watch(tensor)


def _replay_recording(gradient_tape, on) -> None:
    """``stop_recording``'s start (False) and end (True) on a tape the execution entered."""
    ex = _execution.value
    if ex is not None:
        ex.tapes[id(gradient_tape)].recording = on


def _replay_reset(gradient_tape) -> None:
    """``reset`` of a tape the execution made: a fresh one in its place (same recording)."""
    ex = _execution.value
    old = None if ex is None else ex.tapes.get(id(gradient_tape))
    if old is None:
        return
    new = tape_lib.Tape(gradient_tape._persistent, gradient_tape._watch_accessed_variables)
    new.recording = old.recording
    s = tape_lib.stack()
    if old in s:
        s[s.index(old)] = new
    ex.tapes[id(gradient_tape)] = new


# Tape events a dry run performs (on its own execution's tapes): the gradients it computes
# need them.
_RUN_WHEN_DRY = frozenset({_replay_tape_enter, _replay_tape_exit, _replay_watch,
                           _replay_recording, _replay_reset})


def _tape_gradient(gradient_tape, *args):
    ex = _execution.value
    if ex is not None:
        gradient_tape = ex.tape_view(gradient_tape)
    return gradient_tape._gradient(*args)


def record_tape_event(fn, gradient_tape, *args) -> None:
    """Record a tape's enter / exit / watch / reset (they happen again at each execution)."""
    tracing.value.record(fn, "stateful", None, (gradient_tape,) + args, {}, fn.__name__)


def record_tape_gradient(gradient_tape, args):
    """Record ``tape.gradient``: computed once now for its outputs, again at execution. A
    source the graph connects to the target (through either branch of a cond, or a loop
    body) but this execution's ops did not reach (the other branch ran, the loop ran zero
    times) gets zeros, as TF's graph gradients (cond_v2 / while_v2) give, not None."""
    connected: list = []

    def gradient(tape, *a):
        out = _tape_gradient(tape, *a)
        if _execution.value is None or not connected:
            return out
        flat = nest.flatten(out)
        if all(flat[pos] is not None for pos in connected):
            return out   # every connected source reached (no zeros to fill in)
        from simdist.framework.ops import array_ops

        sources = nest.flatten(a[1])
        for pos in connected:
            if flat[pos] is None:
                flat[pos] = array_ops.zeros_like(execute.convert_to_tensor(sources[pos]))
        return nest.pack_sequence_as(out, flat)

    gradient.__tape_gradient__ = True   # graph_plan lowers its sweep (gradient_plan)
    out = tracing.value.record(gradient, "once", None, (gradient_tape,) + args, {},
                               "gradients")
    connected.extend(i for i, g in enumerate(nest.flatten(out)) if g is not None)
    return out


def _defined_here(frames) -> str:
    """Where the tensor was made: the user frames, outermost first, as TF lists them."""
    from simdist.framework.graph_errors import _frame_lines

    lines = ["  " + line for line in _frame_lines(frames) if line]
    return "\n".join(lines) if lines else "<unknown>"
