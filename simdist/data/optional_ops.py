"""An iterator's next element as an Optional, eagerly and inside a traced ``tf.function``;
the while loop TF folds a dataset with in a graph.

Glossary:
  Optional          -- ``tf.experimental.Optional``: ``has_value()`` a bool scalar tensor,
                       ``get_value()`` the element (TF's InvalidArgumentError when empty).
  graph Optional    -- made while tracing: one stateful node (TF's
                       ``IteratorGetNextAsOptional``) gives at each execution whether the
                       iterator had an element, and the element -- a stand-in of zeros when
                       it had none (the iterator's ``_dummy()``); ``has_value()`` is that
                       node's symbolic bool, ``get_value()`` records TF's
                       ``OptionalGetValue`` check (it raises at execution when empty).
  iterator protocol -- what this module needs of an iterator (a tf.data ``OwnedIterator``, a
                       ``DistributedIterator``): ``__next__`` (StopIteration at the end),
                       ``_symbolic_next(graph)`` (the element as graph tensors),
                       ``_dummy()`` (the stand-in) and ``element_spec``.
  traced next()     -- a plain ``next()`` inside a trace is a node that never ends the Python
                       loop around it: a ``for x in dataset`` where AutoGraph is off (the
                       function traced with ``autograph=False``, or a ``do_not_convert``
                       one) would unroll without end, so there more than 32 on one iterator
                       in one trace raise TF's ValueError, as TF counts them.
  fold              -- TF's ``reduce`` in a graph (``DistributedDataset.reduce``,
                       ``Dataset.reduce``, AutoGraph's dataset loop): a while loop over
                       ``get_next_as_optional``, the state updated in a cond on
                       ``has_value``; ``extra_test`` ends it early (``break``), and
                       ``relax_shapes`` retraces the body with the state's changing
                       dimensions unknown, as tf.data's scan and reduce do (the body's Python
                       then runs twice).

Mirrors tensorflow/python/data/ops/optional_ops.py, iterator_ops.py (get_next_as_optional,
the get_next call count) and the reduce of python/distribute/input_lib.py.
"""

from __future__ import annotations

import contextlib

from simdist.data import structure
from simdist.framework import errors, func_graph, nest
from simdist.framework.tensor import Tensor
from simdist.hardware import backend

GET_NEXT_CALL_ERROR_THRESHOLD = 32
GET_NEXT_CALL_ERROR_MESSAGE = (
    "An unusually high number of `tf.data.Iterator.get_next()` calls was detected. This "
    "suggests that the `for elem in dataset: ...` idiom is used within tf.function with "
    "AutoGraph disabled. This idiom is only supported when AutoGraph is enabled.")
_EMPTY_MESSAGE = "The given optional does not have a value."


class Optional:
    """A value that may be absent (``tf.experimental.Optional``)."""

    def __init__(self, value=None, has_value=False, element_spec=None):
        self._value, self._has, self._element_spec = value, has_value, element_spec

    @property
    def element_spec(self):
        return self._element_spec

    def has_value(self, name=None):
        """Whether it holds a value: a bool scalar tensor (symbolic inside a trace)."""
        if func_graph.is_symbolic(self._has):
            return self._has
        return Tensor(backend.xp.asarray(bool(self._has)), structure.host_device())

    def get_value(self, name=None):
        """The value.

        Raises:
          InvalidArgumentError: it holds none (in a graph: when the call runs), TF's text.
        """
        if func_graph.is_symbolic(self._has):
            _check_has_value(self._has)
            return self._value
        if not self._has:
            raise errors.InvalidArgumentError(None, None, _EMPTY_MESSAGE)
        return self._value


@func_graph.recorded(kind="stateful", spec=lambda graph, has: None, name="OptionalGetValue")
def _check_has_value(has) -> None:
    if not bool(has.numpy()):
        raise errors.InvalidArgumentError(None, None, _EMPTY_MESSAGE)


def _next_or_dummy_spec(graph, iterator):
    return (graph.symbolic_like((), "bool", structure.host_device(), "OptionalHasValue"),
            iterator._symbolic_next(graph))


@func_graph.recorded(kind="stateful", spec=_next_or_dummy_spec,
                     name="IteratorGetNextAsOptional")
def _next_or_dummy(iterator):
    """(has a value, the next element or the stand-in) -- one node in a graph."""
    try:
        value, has = next(iterator), True
    except StopIteration:
        value, has = iterator._dummy(), False
    return Tensor(backend.xp.asarray(has), structure.host_device()), value


def get_next_as_optional(iterator) -> Optional:
    """``iterator``'s next element as an Optional (empty at the end)."""
    if func_graph.current() is None:
        try:
            return Optional(next(iterator), True, iterator.element_spec)
        except StopIteration:
            return Optional(None, False, iterator.element_spec)
    has, value = _next_or_dummy(iterator)
    return Optional(value, has, iterator.element_spec)


def zeros_of(spec, device):
    """Tensors of zeros on ``device`` shaped as ``spec`` (unknown sizes 0): an empty
    Optional's stand-in."""
    def zeros(s):
        dims = [] if s.shape.rank is None else [d or 0 for d in s.shape.as_list()]
        return Tensor(backend.xp.zeros(dims, dtype=s.dtype.as_numpy_dtype), device)

    return structure.map_leaves(zeros, spec)


def count_traced_next(iterator) -> None:
    """Count a ``next()`` recorded while tracing where AutoGraph is off (see the glossary).

    Raises:
      ValueError: more than 32 on ``iterator`` in the trace being built (TF's text).
    """
    from simdist.autograph.impl import api

    graph = func_graph.current()
    if graph is None or (graph.autograph and not api.disabled()):
        return
    counts = iterator.__dict__.setdefault("_traced_next_calls", {})
    counts[id(graph)] = n = counts.get(id(graph), 0) + 1
    if n > GET_NEXT_CALL_ERROR_THRESHOLD:
        raise ValueError(GET_NEXT_CALL_ERROR_MESSAGE)


class _Relax(Exception):
    """The fold's state changed shape in the body: trace again with these shapes."""

    def __init__(self, shapes):
        super().__init__("relax the state's shapes")
        self.shapes = shapes


def _shapes_of(state):
    return [getattr(t, "shape", None) for t in nest.flatten(state)]


def fold(iterator, initial_state, reduce_fn, extra_test=None, relax_shapes=False,
         graph_name=None):
    """TF's graph reduce: ``state = reduce_fn(state, element)`` for each element of
    ``iterator`` while ``extra_test(state)`` (if given) holds; the final state.
    ``graph_name``: the tf.data function TF traces ``reduce_fn`` into (data.traced_reduce):
    the body's ops and the state's and the element's tensors named as there.

    Only inside a trace (the caller folds eagerly in Python otherwise).
    """
    from simdist.framework.graph_control_flow import named_body
    from simdist.framework.ops import array_ops
    from simdist.framework.ops import cond as cond_lib
    from simdist.framework.ops import while_loop as while_lib

    initial_state = nest.map_structure(
        lambda v: array_ops.constant(v) if isinstance(v, (bool, int, float)) else v,
        initial_state)
    # The loop carries the state's leaves: a PerReplica's components are loop variables
    # of their own (TF's expand_composites).
    template = func_graph.expand(initial_state)
    invariants = None

    def packed(leaves):
        return func_graph.collapse(nest.pack_sequence_as(template, list(leaves)))

    def leaves_of(state):
        return list(nest.flatten(func_graph.expand(state)))

    def cond(has, leaves):
        if extra_test is None:
            return has
        return cond_lib.cond(has, lambda: extra_test(packed(leaves)), lambda: False)

    def element(opt, n):
        value = opt.get_value()
        if graph_name is None:
            return value
        names = iter(range(n, n + len(nest.flatten(value))))   # the function's args_<k>
        return nest.map_structure(
            lambda t: array_ops.identity(t, name=f"args_{next(names)}"), value)

    def body(has, leaves):
        opt = get_next_as_optional(iterator)
        with named_body(graph_name) if graph_name else contextlib.nullcontext():
            new = cond_lib.cond(
                opt.has_value(),
                lambda: leaves_of(reduce_fn(packed(leaves), element(opt, len(leaves)))),
                lambda: list(leaves), strict=True)
        if relax_shapes:
            _check_shapes(leaves, new)
        return opt.has_value(), new

    start = leaves_of(initial_state)
    arguments = ["has_element"] + [f"args_{k}" for k in range(len(start))]
    while True:
        try:
            with named_body(graph_name, arguments) if graph_name else \
                    contextlib.nullcontext():
                _, final = while_lib.while_loop(
                    cond, body, (array_ops.constant(True), start),
                    shape_invariants=None if invariants is None else (None, invariants),
                    return_same_structure=True)
            return packed(final)
        except _Relax as e:
            invariants = e.shapes


def _check_shapes(state, new) -> None:
    """Raise _Relax with the weakened shapes when ``new`` does not fit ``state``'s."""
    before, after = _shapes_of(state), _shapes_of(new)
    relaxed = [b if b is None or a is None else b.most_specific_compatible_shape(a)
               for b, a in zip(before, after)]
    if any(r is not None and not _same_shape(r, b) for r, b in zip(relaxed, before)):
        raise _Relax(relaxed)


def _same_shape(a, b) -> bool:
    return a.rank == b.rank and (a.rank is None or a.as_list() == b.as_list())
