"""The collectives users call: all_reduce, reduce_scatter, all_gather, broadcast, reduce,
all_to_all. Each validates its arguments, then ``_impl`` runs the algorithm's schedule on
the values, prices it on the topology and records it in the trace.

Glossary:
  values           -- one array per replica (same dtype; same shape except all_gather,
                      whose inputs may differ along axis 0).
  CollectiveResult -- ``.values`` (one array per replica; ``None`` on non-roots for
                      reduce), ``.schedule``, ``.cost`` (cost.Cost), ``.trace``.
  topology         -- a networkx graph, a preset name, a Topology, or None: p A100s on one
                      NVSwitch (hardware.topology.default_topology).
Semantics follow NCCL/TF: reduce_scatter gives replica r slot r of axis 0 (array_split
sizes); all_gather concatenates along axis 0 in replica order (TF all_gather); all_to_all
sends slot j of replica i to replica j's slot i (axis 0 must divide by p).
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass

import numpy as np

from simdist.collectives import placement as placement_lib
from simdist.collectives.cost import Cost, price_patterns
from simdist.collectives.executor import execute
from simdist.collectives.ops import combine_fn, normalize_op
from simdist.collectives.pricing import MEMO_LIMIT, cache_key, own_copy
from simdist.collectives.registry import lookup
from simdist.collectives.schedule import Schedule
from simdist.framework.switch import Switch
from simdist.hardware import array_api, backend
from simdist.hardware.topology import as_topology
from simdist.hardware.trace import Trace

_keep_events = Switch()
# build_events_each_call(): every call builds its trace events afresh (benchmarks compare)
build_events_each_call = _keep_events.off


@dataclass
class CollectiveResult:
    """What a collective returns: per-replica values plus how they were obtained."""

    values: list
    schedule: Schedule
    cost: Cost
    trace: Trace
    op: str | None = None

    def __iter__(self):
        return iter(self.values)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]


_UNREAD = object()   # a _PlannedResult's schedule or cost not read yet


class _PlannedResult(CollectiveResult):
    """A CollectiveResult whose ``schedule`` and ``cost`` are the caller's own copies of
    its kept _Plan's, made when first read (a strategy's all-reduce reads only the cost's
    time and the schedule's steps: ``planned_time`` and ``planned_schedule``)."""

    def __init__(self, values, schedule=_UNREAD, cost=_UNREAD, trace=None, op=None, *,
                 plan=None):   # the dataclass's fields (dataclasses.replace), then the plan
        self.values, self.trace, self.op = values, trace, op
        self._plan, self._schedule, self._cost = plan, schedule, cost

    @property
    def schedule(self) -> Schedule:
        if self._schedule is _UNREAD:
            self._schedule = self._plan.schedule()
        return self._schedule

    @schedule.setter
    def schedule(self, value) -> None:
        self._schedule = value

    @property
    def cost(self) -> Cost:
        if self._cost is _UNREAD:
            self._cost = self._plan.own_cost()
        return self._cost

    @cost.setter
    def cost(self, value) -> None:
        self._cost = value


def kept_plan(result):
    """The plan a collective's ``result`` was made with (for ``run_plan``), or None."""
    return result._plan if type(result) is _PlannedResult else None


def planned_time(result) -> float:
    """``result.cost.time``, without the caller's copy of a kept plan's cost."""
    if type(result) is _PlannedResult and result._cost is _UNREAD:
        return result._plan.time
    return result.cost.time


def planned_schedule(result) -> Schedule:
    """``result.schedule`` to read (not to change), without a kept plan's copy."""
    if type(result) is _PlannedResult and result._schedule is _UNREAD:
        return result._plan.sched
    return result.schedule


# NumPy dtype kinds a collective moves: bool, ints, unsigned, floats, complex. Strings,
# bytes, objects, structured and date/time arrays are not numbers a network op moves.
_NUMERIC_KINDS = "biufc"
# Ops that add or multiply: on bools they would silently be OR / AND (TF refuses bool).
_ARITHMETIC_OPS = ("sum", "mean", "prod")


def _check_values(values, collective, same_shape=True, op=None):
    """The replicas' values as arrays, after every check a collective's values need.

    Raises:
      ValueError: not a non-empty list/tuple; dtypes or shapes differ between replicas.
      TypeError: a non-numeric dtype (str, bytes, object ...), or bool with an arithmetic op.
    """
    if values is None or not isinstance(values, (list, tuple)) or len(values) == 0:
        raise ValueError(f"{collective} needs a non-empty list with one array per replica, "
                         f"got {type(values).__name__}.")
    arrays = [array_api.from_host(v) for v in values]
    dtypes = {array_api.numpy_dtype(a) for a in arrays}
    if len(dtypes) > 1:
        raise ValueError(f"{collective}: every replica must hold the same dtype; got "
                         f"{sorted(map(str, dtypes))}.")
    dtype = array_api.numpy_dtype(arrays[0])
    if dtype.kind not in _NUMERIC_KINDS:
        raise TypeError(f"{collective}: cannot move arrays of dtype {dtype} (kind "
                        f"{dtype.kind!r}); collectives take numbers (bool, int, float, "
                        "complex). Encode strings as integer ids first.")
    if dtype.kind == "b" and op in _ARITHMETIC_OPS:
        raise TypeError(f"{collective}: op {op!r} on bool arrays would be a logical OR/AND, "
                        "not a count (TF refuses bool reductions): cast to an int or float "
                        "dtype first, or use op='max' (any) / 'min' (all).")
    shapes = {a.shape if same_shape else a.shape[1:] for a in arrays}
    if len(shapes) > 1:
        raise ValueError(f"{collective}: every replica must hold the same shape; got "
                         f"{sorted(map(str, shapes))}.")
    return arrays


def _common(collective, values, algorithm, topology, same_shape=True, op=None):
    arrays = _check_values(values, collective, same_shape, op)
    algo = lookup(collective, algorithm)
    topo = as_topology(topology, len(arrays))
    return arrays, algo, topo


_HOST_TYPES = (np.ndarray, np.generic, list, tuple, int, float, complex, bool)


def _host_in_host_out(collective):
    """NumPy in, NumPy out: on another array backend (array_api_strict, CuPy) a collective
    given only host values (NumPy arrays, lists, numbers) computes on that backend and
    returns its values on the host, so a NumPy reader's code (np.array_equal ...) runs
    unchanged; given the backend's arrays it returns the backend's arrays."""
    @functools.wraps(collective)
    def call(values, *args, **kwargs):
        result = collective(values, *args, **kwargs)
        if backend.get_backend() != "numpy" and isinstance(values, (list, tuple)) and all(
                v is None or isinstance(v, _HOST_TYPES) for v in values):
            result.values = [None if v is None else array_api.to_host(v)
                             for v in result.values]
        return result

    return call


@_host_in_host_out
def all_reduce(values, algorithm="ring", op="sum", topology=None, devices=None, trace=None,
               start_time=0.0, **params) -> CollectiveResult:
    """Reduce the replicas' arrays with ``op`` so every replica gets the (same) result.

    Raises:
      ValueError: unknown algorithm (lists the names) or op, mismatched values.
      TopologyError: a disconnected topology or one with too few devices.
    """
    op = normalize_op(op)
    arrays, algo, topo = _common("all_reduce", values, algorithm, topology, op=op)
    return _impl("all_reduce", arrays, algo, op, topo, devices, trace, start_time, params)


@_host_in_host_out
def reduce_scatter(values, algorithm="ring", op="sum", topology=None, devices=None,
                   trace=None, start_time=0.0, **params) -> CollectiveResult:
    """Reduce, then give replica r slot r of axis 0 (numpy.array_split sizes)."""
    op = normalize_op(op)
    arrays, algo, topo = _common("reduce_scatter", values, algorithm, topology, op=op)
    if arrays[0].ndim == 0:
        raise ValueError("reduce_scatter needs arrays with at least one axis.")
    return _impl("reduce_scatter", arrays, algo, op, topo, devices, trace, start_time,
                 params)


@_host_in_host_out
def all_gather(values, algorithm="ring", topology=None, devices=None, trace=None,
               start_time=0.0, **params) -> CollectiveResult:
    """Concatenate the replicas' arrays along axis 0, in replica order, on every replica."""
    arrays, algo, topo = _common("all_gather", values, algorithm, topology, False)
    if arrays[0].ndim == 0:
        xp = array_api.namespace(*arrays)
        arrays = [xp.reshape(a, (1,)) for a in arrays]
    return _impl("all_gather", arrays, algo, None, topo, devices, trace, start_time, params)


@_host_in_host_out
def broadcast(values, algorithm="binomial", root=0, topology=None, devices=None, trace=None,
              start_time=0.0, **params) -> CollectiveResult:
    """Copy replica ``root``'s array to every replica (non-roots may pass None)."""
    if isinstance(values, (list, tuple)) and values and 0 <= root < len(values) \
            and values[root] is not None:
        ref = array_api.from_host(values[root])
        values = [ref if v is None else v for v in values]
    arrays, algo, topo = _common("broadcast", values, algorithm, topology)
    return _impl("broadcast", arrays, algo, None, topo, devices, trace, start_time,
                 dict(params, root=root))


@_host_in_host_out
def reduce(values, algorithm="binomial", op="sum", root=0, topology=None, devices=None,
           trace=None, start_time=0.0, **params) -> CollectiveResult:
    """Reduce the replicas' arrays onto replica ``root`` (others get None)."""
    op = normalize_op(op)
    arrays, algo, topo = _common("reduce", values, algorithm, topology, op=op)
    return _impl("reduce", arrays, algo, op, topo, devices, trace, start_time,
                 dict(params, root=root))


@_host_in_host_out
def all_to_all(values, algorithm="pairwise", topology=None, devices=None, trace=None,
               start_time=0.0, **params) -> CollectiveResult:
    """Replica i's slot j (axis 0 cut in p equal slots) goes to replica j's slot i."""
    arrays, algo, topo = _common("all_to_all", values, algorithm, topology)
    p = len(arrays)
    if arrays[0].ndim == 0 or arrays[0].shape[0] % p:
        raise ValueError(f"all_to_all: axis 0 ({arrays[0].shape[:1]}) must divide into "
                         f"{p} equal slots, one per replica.")
    return _impl("all_to_all", arrays, algo, None, topo, devices, trace, start_time, params)


def _impl(collective, arrays, algo, op, topo, devices, trace, start_time, params):
    # A cluster of processes: each fills only its own ranks' arrays (executor.Exchange).
    exchange = params.pop("exchange", None)
    # Devices to name in the trace when the ranks are not nodes of the topology (CPU hosts
    # priced on the default topology): events land on the devices that really ran them.
    labels = params.pop("labels", None)
    # Placement first: the topology's hints (ring orders, node size) depend on where the
    # ranks sit; the servers (parameter servers) are placed once the schedule says how many.
    node_names = placement_lib.place(topo, len(arrays), devices)
    plan = _plan(collective, arrays, algo, op, topo, node_names, labels, params, exchange)
    return run_plan(plan, arrays, trace, start_time, exchange)


def run_plan(plan, arrays, trace=None, start_time=0.0, exchange=None) -> CollectiveResult:
    """The call ``plan`` was made for (``kept_plan`` of an earlier call's result), on
    ``arrays``: the caller has checked that they are what that call's were (same count,
    dtype and shape; same devices, topology and parameters), so only the values move and
    the events are recorded."""
    algo, op = plan.algo, plan.op
    layout = algo.layout
    sched, bounds = plan.sched, plan.bounds   # read only here (the caller's: a copy)
    buffers, initial = layout.buffers(arrays, bounds, sched.num_servers)
    if sched.inplace:
        inputs = None
    else:  # transfers read the untouched inputs (nobody writes them: no copy needed)
        inputs = initial if initial is not None else [array_api.copy(a) for a in buffers]
    if not _fast_values(algo, sched, buffers, initial, bounds, op, exchange, plan.params):
        execute(sched, buffers, op or "sum", bounds, inputs, exchange, initial)
    values = layout.outputs(buffers, arrays, bounds, sched, op)
    trace = trace if trace is not None else Trace()
    if trace.enabled:
        _record(trace, plan.events(), start_time)
    return _PlannedResult(values, trace=trace, op=op, plan=plan)


class _Plan:
    """What a call decides before it touches a value: the schedule (with the topology's
    hints), the ranks' nodes, the chunk bounds, the price and the trace events relative to
    the start. They depend on the collective, the algorithm, the placement, the op, the
    parameters and the arrays' shapes and dtype only, so a call of the same kind (a
    training step's all-reduce, step after step) finds them kept on the topology
    (``_plan``) and only moves the values."""

    __slots__ = ("algo", "params", "sched", "nodes", "bounds", "cost", "times", "key",
                 "itemsize", "op", "_events", "time")

    def __init__(self, collective, arrays, algo, op, topo, node_names, labels, params):
        p = len(arrays)
        self.algo, self.op = algo, op
        self.params = params = {**algo.topology_hints(topo, node_names), **params}
        self.sched = sched = algo.schedule(p, **params)
        nodes = placement_lib.add_servers(topo, node_names, sched.num_servers)
        self.bounds = bounds = algo.layout.bounds(arrays, sched.num_chunks)
        self.itemsize = array_api.itemsize(arrays[0])
        self.cost, self.times, self.key = _price(
            topo, nodes, sched, bounds, self.itemsize, collective, algo, p,
            algo.layout.nbytes(arrays), params)
        self.time = self.cost.time   # the kept cost is read only: its total, once
        if labels is not None:
            nodes = list(labels) + nodes[len(labels):]
        self.nodes = nodes
        self._events = None

    def schedule(self) -> Schedule:
        """The caller's own copy of the schedule (its steps list and params)."""
        sched = copy.copy(self.sched)
        sched.steps, sched.params = list(sched.steps), dict(sched.params)
        return sched

    def own_cost(self) -> Cost:
        return self.cost if self.key is None else own_copy(self.cost)

    def events(self):
        """The trace events relative to the call's start (``_events``), built once."""
        if self._events is None or not _keep_events.on:
            events = _events(self.sched, self.cost, self.times, self.nodes, self.bounds,
                             self.itemsize, self.op)
            if self.key is None or not _keep_events.on:
                return events
            self._events = events
        return self._events


def _plan(collective, arrays, algo, op, topo, node_names, labels, params, exchange) -> _Plan:
    """The call's _Plan: kept on the topology for calls of the same kind, made afresh for
    a cluster of processes or parameters that cannot be a key."""
    extra = cache_key(params) if params else ()
    if exchange is not None or extra is None:
        return _Plan(collective, arrays, algo, op, topo, node_names, labels, params)
    key = (collective, algo.name, id(algo), tuple(node_names),
           None if labels is None else tuple(labels), op, extra,
           tuple(a.shape for a in arrays), array_api.numpy_dtype(arrays[0]).str)
    plan = topo.memo("collective plan", key, lambda: _Plan(
        collective, arrays, algo, op, topo, node_names, labels, params), MEMO_LIMIT)
    if plan.algo is not algo:   # another algorithm object at the same id: made afresh
        return _Plan(collective, arrays, algo, op, topo, node_names, labels, params)
    return plan


def _price(topo, nodes, sched, bounds, itemsize, collective, algo, p, nbytes, params):
    """(cost, per-transfer times, the price's cache key or None) of the call, kept on the
    topology for the next call of the same shape (pricing.py's "repeats")."""
    def compute():
        return price_patterns(topo, nodes, sched.patterns(), bounds, itemsize, collective,
                              algo.name, p, nbytes)

    key = cache_key(collective, algo.name, nodes, np.asarray(bounds), itemsize, nbytes, params)
    if key is None:
        return (*compute(), None)
    cost, times = topo.memo("collective price", key, compute, MEMO_LIMIT)
    return cost, times, key


def _fast_values(algo, sched, buffers, initial, bounds, op, exchange, params) -> bool:
    """Whether the algorithm computed the values from its structure (``fast_values``):
    one process, one array device, no servers; otherwise the executor runs the steps."""
    if algo.fast_values is None or exchange is not None or initial is None \
            or sched.num_buffers != len(initial) or array_api.mover(buffers) is not None:
        return False
    dtype = array_api.numpy_dtype(buffers[0])
    fn = combine_fn(op or "sum", array_api.namespace(*buffers[:1]), dtype)
    return algo.fast_values(len(initial), buffers, initial, bounds, fn, dtype, **params)


def _events(sched, cost, times, nodes, bounds, itemsize, op):
    """The call's trace events relative to its start, one entry per step: (the step's
    time, [(name, cat, device, duration, args as k1, v1, ...)]) -- one event per step
    (cat ``collective``) and one per transfer (cat ``transfer``). Kept on the topology
    with the price (same key, the trace's node names and op): a step of the same shapes
    records them again at its own start."""
    label = f"{sched.collective}/{sched.algorithm}"
    out = []
    for i, (step, sc, per) in enumerate(zip(sched.steps, cost.steps, times)):
        events = [(f"{label} step {i} {step.phase}", "collective", "collective", sc.time,
                   ("step", i, "phase", step.phase, "transfers", len(step.transfers),
                    "latency", sc.latency, "bandwidth", sc.bandwidth, "compute", sc.compute))]
        for t, dt in zip(step.transfers, per):
            nb = int(bounds[t.chunk + t.nchunks] - bounds[t.chunk]) * itemsize
            events.append((f"{step.phase} {t.src}->{t.dst}", "transfer", str(nodes[t.src]),
                           float(dt),
                           ("step", i, "src", t.src, "dst", t.dst, "dst_device", nodes[t.dst],
                            "chunk", t.chunk, "nchunks", t.nchunks, "bytes", nb,
                            "combine", t.combine, "op", op or "copy", "collective", label)))
        out.append((sc.time, tuple(events)))
    return tuple(out)   # tuples: a trace keeps it pending as it is (Trace.record_steps)


def _record(trace, template, start):
    """The template's events (``_events``) from ``start``: each step's events start at its
    step's start and last their durations; the next step starts when this one ends (laid
    out when the trace is read: trace.steps_events)."""
    trace.record_steps(template, start, sum(len(events) for _, events in template))
