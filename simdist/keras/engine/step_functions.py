"""Keras's step functions: ``model.train_function``, ``test_function``, ``predict_function``.

Glossary:
  make_*_function -- ``make_train_function(force=False)`` (and test / predict) makes the
                     function once per compile (``compile`` drops it; ``force=True`` makes a
                     new one): a ``tf.function(reduce_retracing=True)`` unless the model runs
                     eagerly (``compile(run_eagerly=True)`` or
                     ``tf.config.run_functions_eagerly(True)`` when it is made), then the
                     plain Python function.
  execution       -- one call: ``next(iterator)``, ``strategy.run(step, (data,))``, the
                     first replica's results (``predict``: every replica's outputs, joined
                     by the caller); with ``steps_per_execution > 1``, that many steps in a
                     ``tf.range`` loop (AutoGraph traces its body twice: once to learn the
                     loop's outputs, once for the loop; ``_loop``).
  BatchFeed       -- the data iterator the function reads: the batches ``fit`` took for this
                     execution. Its spec has batch dimension None unless every batch is full
                     (TF's dataset then has a static batch size), so a smaller last batch
                     does not retrace. Its ``next`` is a graph node (IteratorGetNext).
Python in ``call`` / ``train_step`` then runs once per trace, with ``tf.executing_eagerly()``
False; a model whose step simdist cannot trace runs it eagerly (tf.function's fallback).
Under CentralStorageStrategy the metric updates merge the replicas (AggregatingVariables):
they are traced through (base_metric's ``_merges_to_update``), as TF traces them.

Mirrors make_train_function / make_test_function / make_predict_function in
tf_keras/src/engine/training.py.
"""

from __future__ import annotations

import collections
import types
import weakref

from simdist.data import structured_function
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import errors, func_graph, function, nest
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import while_loop
from simdist.framework.sparse_tensor import SparseTensor
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape

_STEPS = {"train": "train_step", "test": "test_step", "predict": "predict_step"}


class BatchFeed:
    """The iterator of one execution: ``next`` gives the next of ``batches``; at graph
    execution, the node reads them in order. ``static_batch``: keep the batch dimension.
    ``strategy``: the one distributing the batches, part of the spec (TF's distributed
    iterator's spec names its strategy: a model fit under another strategy retraces)."""

    def __init__(self, batches, static_batch: bool = False, strategy=None):
        self._batches = collections.deque(batches)
        expanded = func_graph.expand(batches[0])
        self._structure = expanded
        # a SparseTensor's dense shape has no batch dimension (one entry per dimension)
        shapes = {id(x.dense_shape) for x in nest.flatten(batches[0])
                  if isinstance(x, SparseTensor)}
        self._spec = ((repr(nest.map_structure(lambda _: None, expanded)),
                       None if strategy is None else weakref.ref(strategy)),
                      tuple((str(t.dtype), _batch_shape(t, static_batch or id(t) in shapes),
                             getattr(t._device, "name", None), t.dtype, t._device)
                            if isinstance(t, Tensor) else _CONSTANT + (t,)
                            for t in nest.flatten(expanded)))

    def _tracing_key(self):
        """One trace for every execution whose batches have this spec (see ``relax``)."""
        return self._spec

    def relax(self, function_) -> None:
        """TF's reduce_retracing for the iterator's spec: a spec that an earlier call's
        accepts takes that one; else one that differs in dimensions only is relaxed (None
        where they differ) and kept for later calls."""
        specs = function_.__dict__.setdefault("_feed_specs", [])
        for spec in specs:
            if _accepts(spec, self._spec):
                self._spec = spec
                return
        for spec in specs:
            relaxed = _relaxed(spec, self._spec)
            if relaxed is not None:
                self._spec = relaxed
                break
        specs.append(self._spec)

    def __iter__(self):
        return self

    def __next__(self):
        return self._get_next()

    def steps(self) -> Tensor:
        """How many batches this execution has (the ``tf.range`` bound of its loop)."""
        return self._count()

    @func_graph.recorded(kind="stateful", name="ReadVariableOp",
                         spec=lambda graph, feed: feed._symbolic_count(graph))
    def _count(self):
        return A.constant(len(self._batches), dtype="int64")

    def _symbolic_count(self, graph):
        from simdist.hardware import machine

        host = machine.get_machine().devices_of_type("CPU")[0]
        return graph.symbolic_like((), "int64", host, "ReadVariableOp")

    @func_graph.recorded(kind="stateful", name="IteratorGetNext",
                         spec=lambda graph, feed: feed._symbolic_next(graph))
    def _get_next(self):
        if not self._batches:
            raise errors.OutOfRangeError(None, None, "End of sequence")
        return self._batches.popleft()

    def _symbolic_next(self, graph):
        # (a RaggedTensor's uniform row lengths are Python values: kept as they are)
        symbolic = [graph.symbolic_like(shape, dtype, device, "IteratorGetNext")
                    if kind != _CONSTANT[0] else device
                    for kind, shape, _, dtype, device in self._spec[1]]
        batch = func_graph.collapse(nest.pack_sequence_as(self._structure, symbolic))
        return nest.map_structure(structured_function.partitioned, batch)


# a Python value among a batch's parts: its entry (kind, shape, name, dtype, the value)
_CONSTANT = ("python", (), None, None)


def _batch_shape(t, static_batch) -> tuple:
    shape = tuple(t.shape)
    return shape if static_batch or not shape else (None,) + shape[1:]


def _same_but_shapes(a, b) -> bool:
    return a[0] == b[0] and len(a[1]) == len(b[1]) and all(
        x[0] == y[0] and x[2] == y[2] and len(x[1]) == len(y[1]) for x, y in zip(a[1], b[1]))


def _accepts(spec, other) -> bool:
    return _same_but_shapes(spec, other) and all(
        d is None or d == e for x, y in zip(spec[1], other[1]) for d, e in zip(x[1], y[1]))


def _relaxed(spec, other):
    if not _same_but_shapes(spec, other):
        return None
    return spec[0], tuple(
        (x[0], tuple(d if d == e else None for d, e in zip(x[1], y[1])), *x[2:])
        for x, y in zip(spec[1], other[1]))


def counted_step(model, kind: str):
    """The replica function of one step of ``kind``: ``model.<kind>_step(data)``, then
    the model's ``_<kind>_counter`` goes up by one (tf-keras's ``run_step``: counted once
    the step ran)."""
    def run_step(data):
        outputs = getattr(model, _STEPS[kind])(data)
        counter = getattr(model, f"_{kind}_counter", None)
        if counter is not None:
            counter.assign_add(1)
        return outputs
    return run_step


def _step_function(model, kind: str, joined: bool = False):
    """One step of ``kind`` on the next batch, run on every replica. ``joined``: a
    predict step's replicas' outputs as one tensor (TF's reduce_per_replica concat; else
    the caller concatenates them)."""
    run_step = counted_step(model, kind)

    def step_function(iterator):
        data = next(iterator)
        strategy = model.distribute_strategy
        if strategy is ds_context.get_default_strategy():
            return run_step(data)
        with strategy.scope():
            outputs = strategy.run(run_step, args=(data,))
        if kind == "predict":   # every replica's part
            return nest.map_structure(_joined(strategy), outputs) if joined else outputs
        return nest.map_structure(lambda v: strategy.experimental_local_results(v)[0],
                                  outputs)
    return step_function


def _joined(strategy):
    def join(value):
        return A.concat(list(strategy.experimental_local_results(value)), axis=0)
    return join


def repeat(step_function, iterator, n):
    """``step_function(iterator)`` ``n`` times (a tensor, at least 1): TF's ``for _ in
    tf.range(steps_per_execution): outputs = step_function(...)`` as AutoGraph stages it.
    ``outputs`` is first set in the loop, so while tracing the body is first staged in a
    scratch graph for the outputs' types (its ops dropped: TF's temporary FuncGraph), then
    the loop runs every step from zeros of those, its random ops one kernel each for all
    the steps; eagerly (``run_eagerly``) the first step runs, then the loop the others.
    The last step's outputs."""
    graph = func_graph.current()
    if graph is None:
        first, outputs = 1, step_function(iterator)
    else:
        from simdist.autograph.operators.control_flow import _placeholder_value
        from simdist.framework import graph_control_flow

        staged = graph_control_flow.scratch(graph, lambda: step_function(iterator))
        first, outputs = 0, nest.map_structure(lambda t: _placeholder_value(t, None, t)[0],
                                               staged)

    def body(i, _):
        return i + 1, step_function(iterator)

    return while_loop.while_loop(lambda i, _: i < n, body,
                                 (A.constant(first, dtype="int64"), outputs))[1]


def concatenated(step_function, iterator, n):
    """``step_function(iterator)`` ``n`` times (a tensor, at least 1), the outputs
    concatenated along the batch: tf-keras's multi-step predict_function, ``outputs =
    step(...)`` then ``for _ in tf.range(n - 1)`` concatenating each step's outputs (batch
    dimension None in the loop's shape invariants; the body is traced once)."""
    outputs = step_function(iterator)

    def body(i, outputs):
        return i + 1, nest.map_structure(lambda a, b: A.concat([a, b], axis=0), outputs,
                                         step_function(iterator))

    invariants = (TensorShape([]), nest.map_structure(
        lambda t: TensorShape([None] + list(t.shape)[1:]), outputs))
    return while_loop.while_loop(lambda i, _: i < n, body,
                                 (A.constant(1, dtype="int64"), outputs),
                                 shape_invariants=invariants)[1]


def _loop(step_function, kind):
    """Several steps in one execution, as many as the iterator has batches."""
    steps = concatenated if kind == "predict" else repeat

    def multi_step_function(iterator):
        n = iterator.steps()   # read before the first step takes its batch
        return steps(step_function, iterator, n)
    return multi_step_function


_CODES: dict = {}


def _own_code(fn, kind):
    """``fn`` with the code object of its kind (one per kind and form, shared by every
    model): tf-keras defines ``train_function``, ``test_function`` and
    ``predict_function`` in three methods, and tf.function's retracing warning counts the
    traces of each code object on its own (a guide fitting, evaluating and predicting with
    several models warns in simdist otherwise, never in TF)."""
    code = fn.__code__
    name = f"{kind}_function"
    key = (code, kind)
    if key not in _CODES:
        _CODES[key] = code.replace(co_name=name,
                                   co_qualname=f"Model.make_{kind}_function.<locals>.{name}")
    return types.FunctionType(_CODES[key], fn.__globals__, name, fn.__defaults__,
                              fn.__closure__)


def make_function(model, kind: str, force: bool = False):
    """``model.<kind>_function``, made if missing (or ``force``)."""
    attr = f"{kind}_function"
    existing = model.__dict__.get(attr)
    # (kept when the model fits under another strategy later, as tf-keras keeps it)
    if existing is not None and not force:
        return existing
    spe = getattr(model, "_steps_per_execution", None)
    several = spe is not None and _as_int(spe) > 1
    step_function = _step_function(model, kind, joined=several)
    if several:
        fn = _loop(step_function, kind)
    else:
        def fn(iterator):
            return step_function(iterator)
    fn = _own_code(fn, kind)
    if not model.run_eagerly:
        fn = function.function(fn, reduce_retracing=True)
    setattr(model, attr, fn)
    return fn


def _as_int(value) -> int:
    return int(getattr(value, "numpy", lambda: value)())
