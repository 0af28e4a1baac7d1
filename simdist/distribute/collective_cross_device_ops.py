"""Cross-device ops that all-reduce with a collective algorithm on the machine's topology.

Glossary:
  NcclAllReduce(num_packs)              -- NCCL (ring or tree, chosen by the tuner as
                                           NCCL would) after concat-and-split packing.
  HierarchicalCopyAllReduce(num_packs)  -- TF's DGX-1 scheme after the same packing.
  CollectiveAllReduce(options)          -- MirroredStrategy's default and what MWMS uses: tensors
                                           reversed, grouped by ``bytes_per_pack``, each
                                           group all-reduced with the chosen implementation;
                                           all_gather / strategy.gather as TF's collective
                                           all-gather (shapes first, then the values).
  CommunicationImplementation / CommunicationOptions -- ``tf.distribute.experimental``'s
                                           knobs for the collective implementation.
  phases                                -- a batch all-reduce of many gradients is
                                           grouping (which values share a pack) ->
                                           packing (flatten, concatenate) -> all-reduce
                                           (per pack, or per part of one) -> unpacking
                                           (cut back into the values' shapes).
  run_collective                        -- one collective (all-reduce, all-gather,
                                           broadcast) of one array per device: replicas
                                           wait for the slowest, the schedule runs on the
                                           values, every device's clock moves by its priced
                                           time (a SlowLink fault stretches it), and its
                                           steps land in the trace.

Mirrors ``AllReduceCrossDeviceOps`` and ``CollectiveAllReduce`` in
tensorflow/python/distribute/cross_device_ops.py, and collective_util.py.
"""

from __future__ import annotations

import enum
import sys

import numpy as np

from simdist.distribute import (
    cross_device_utils,
    cross_replica_checks,
    packing,
)
from simdist.distribute.cross_device_ops import (
    CrossDeviceOps,
    ReductionToOneDevice,
    divide_by_n,
    get_devices_from,
    simple_broadcast,
)
from simdist.distribute.reduce_util import ReduceOp
from simdist.distribute.values import Mirrored
from simdist.framework import context, errors, execute
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api, backend, bounded_memo
from simdist.hardware.machine import get_machine


class CommunicationImplementation(enum.Enum):
    """Which collective implementation to use (``tf.distribute.experimental``)."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


class CommunicationOptions:
    """Options for cross-device communication such as all-reduce (``bytes_per_pack`` ...)."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None,
                 implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"bytes_per_pack must be non-negative, got {bytes_per_pack}.")
        if isinstance(implementation, str):
            implementation = CommunicationImplementation(implementation.upper())
        if not isinstance(implementation, CommunicationImplementation):
            raise ValueError(
                "implementation should be a tf.distribute.experimental.CommunicationImplementation"
                f", got {implementation!r}."
            )
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation

    def merge(self, options):
        """These options with any non-default field of ``options`` taking precedence."""
        if options is None:
            return self
        return CommunicationOptions(
            options.bytes_per_pack or self.bytes_per_pack,
            options.timeout_seconds or self.timeout_seconds,
            options.implementation if options.implementation != CommunicationImplementation.AUTO
            else self.implementation,
        )

    def __repr__(self):
        return (f"CommunicationOptions(bytes_per_pack={self.bytes_per_pack}, "
                f"timeout_seconds={self.timeout_seconds}, implementation={self.implementation})")


# TF's cross-device ops (as the app lists them) -> the implementation each all-reduces
# with: a registry algorithm, or "nccl" for the NCCL-like tuner (resolve_implementation).
CROSS_DEVICE_OPS = {
    "NcclAllReduce": "nccl",
    "HierarchicalCopyAllReduce": "hierarchical_copy",
    "ReductionToOneDevice": "reduce_broadcast",
    "CollectiveAllReduce(RING)": "ring",
    "CollectiveAllReduce(NCCL)": "nccl",
}
_SPARSE_WARNINGS = [0]   # how often the IndexedSlices all-reduce warned (TF: first 10)
_MIXED_WARNINGS = [0]    # how often a batch_reduce to other destinations warned (the same)
_TUNED = ("nccl", "NCCL", "AUTO")
_KEPT = 64   # plans and packings kept per structure (a program has a few, not many)


def choose_algorithm(implementation: str, nbytes: int, devices, topology=None) -> str:
    """The schedule an implementation runs: NCCL/AUTO ask the tuner, RING is a ring (a ring
    too when the devices are not the machine topology's first ones: no tuning data)."""
    topo = topology if topology is not None else get_machine().topology
    names = [d.name for d in devices]
    if implementation in _TUNED and (topo is None or names != topo.devices[:len(names)]):
        return "ring"
    return resolve_implementation(implementation, nbytes, topo, len(names))


def resolve_implementation(implementation: str, nbytes: int, topology,
                           num_devices: int) -> str:
    """The registry algorithm ``implementation`` runs for ``nbytes`` on ``num_devices``
    ranks of ``topology``: NCCL/AUTO ask the NCCL-like tuner (ring or tree)."""
    if implementation in ("ring", "RING"):
        return "ring"
    if implementation not in _TUNED:
        return implementation
    from simdist import collectives  # loads with the first all-reduce (import time)

    def tuned():
        return collectives.tune(nbytes, topology, num_devices).algorithm

    if topology is None:
        return tuned()
    # The tuner prices every candidate: its pick depends on the size, the ranks and the
    # topology only, so the topology keeps it (a step all-reduces the same sizes again).
    return topology.memo("tuned all-reduce", (int(nbytes), int(num_devices)), tuned, 4096)


# The collectives a strategy runs, by their name in simdist.collectives (loaded lazily):
# all-reduce for reductions, all-gather for ReplicaContext.all_gather / strategy.gather,
# broadcast for the chief's initial values.
COLLECTIVE_CALLS = ("all_reduce", "all_gather", "broadcast")


def run_collective(collective, arrays, devices, algorithm: str, topology=None, exchange=None,
                   **params) -> list:
    """Run ``collective`` over one array per device in simulated time; returns the results.

    Replicas wait for the slowest, the schedule runs on the values, every device's clock
    moves by its priced time and its steps land in the trace. With an ``exchange`` (a
    cluster of processes) only this process's arrays are real; the others' parts arrive
    over its Peers.
    """
    from simdist import collectives  # loads with the first all-reduce (import time)

    machine = get_machine()
    topo = topology if topology is not None else machine.topology
    start = max(d.clock for d in devices)
    kept, key = _kept_calls(collective, arrays, devices, algorithm, topo, exchange, params)
    plan = kept.get(key) if key is not None else None
    if plan is not None:
        result = collectives.api.run_plan(plan, arrays, machine.trace, start)
    else:
        result = _call(collectives, collective, arrays, devices, algorithm, topo, exchange,
                       machine.trace, start, params)
        plan = collectives.api.kept_plan(result)
        if key is not None and plan is not None:
            bounded_memo.keep(kept, key, plan, _KEPT)
    end = start + collectives.api.planned_time(result)
    # Looked up, not imported: no link is slowed while faults is not loaded (inject and the
    # faults live there), and its fault classes would cost a first collective.
    faults = sys.modules.get("simdist.distribute.faults")
    factor, link = (1.0, "") if faults is None else faults.link_factor(
        devices, collectives.api.planned_schedule(result))
    if factor > 1.0:
        # A slowed link (simdist.faults.SlowLink) paces the whole lock-step schedule.
        end = start + result.cost.time * factor
        machine.trace.record(f"slow link {link} x{factor:g}", "fault", "collective", start,
                             end, fault="SlowLink", collective=collective)
    for d in devices:
        d.wait_until(end)
    if collective == "all_reduce" and backend.get_backend() == "cupy":
        return _on_real_gpus(result.values, arrays, devices, params.get("op", "sum"), exchange,
                             machine.trace, start)
    return result.values


def _call(collectives, collective, arrays, devices, algorithm, topo, exchange, trace, start,
          params):
    """``collective`` of ``simdist.collectives`` over ``devices`` (the algorithm the
    implementation runs chosen first) from ``start``; its result."""
    names = [d.name for d in devices]
    if topo is None or any(n not in topo.graph for n in names):
        # Priced on the default topology; the trace still names the devices that ran it.
        topo, names, params["labels"] = None, None, names
    algo = algorithm
    if collective == "all_reduce" and algorithm not in collectives.ALGORITHMS:
        algo = choose_algorithm(algorithm, array_api.nbytes(arrays[0]), devices, topo)
    if collective not in COLLECTIVE_CALLS:
        raise ValueError(f"run_collective runs one of {COLLECTIVE_CALLS}, not {collective!r}.")
    return getattr(collectives, collective)(list(arrays), algorithm=algo, topology=topo,
                                            devices=names, trace=trace, start_time=start,
                                            exchange=exchange, **params)


def _kept_calls(collective, arrays, devices, algorithm, topo, exchange, params):
    """(the all-reduces kept on ``topo``, this call's key) or ({}, None): a training step
    all-reduces arrays of the same dtype and shape over the same devices every time, so
    the plan of a call that passed every check and choice is run again (api.run_plan)
    for a call with the same key. Only one process's NumPy all-reduces over devices of
    the topology are kept (others go through every step, every time)."""
    if collective != "all_reduce" or exchange is not None or topo is None or \
            backend.xp is not np:
        return {}, None
    first = arrays[0]
    if type(first) is not np.ndarray or any(
            type(a) is not np.ndarray or a.shape != first.shape or a.dtype != first.dtype
            for a in arrays):
        return {}, None
    try:
        key = (algorithm, tuple(devices), first.shape, first.dtype,
               tuple(sorted(params.items())))
        hash(key)
    except TypeError:   # a parameter that is no key: the call goes through every step
        return {}, None
    return topo.memo("strategy all-reduces", None, dict), key


def _on_real_gpus(values, arrays, devices, op, exchange, trace, start):
    """On real GPUs the all-reduce also runs through NCCL (when it can: two or more GPUs,
    one per device) and its result is the one returned; its time measured with CUDA events
    lands in the trace beside the simulated steps (hardware/nccl.py)."""
    from simdist.collectives.ops import finalize, normalize_op
    from simdist.hardware import cupy_adapter

    op = normalize_op(op)
    real = cupy_adapter.nccl_all_reduce(arrays, devices, op, exchange, trace, start)
    if real is None:
        return values
    return [v if r is None else finalize(op, r, len(arrays)) for v, r in zip(values, real)]


def _flatten_per_device(per_replica_values, num_devices):
    """Per device: the list of that replica's tensors, in value order."""
    return [[execute.convert_to_tensor(v.values[i]) for v in per_replica_values]
            for i in range(num_devices)]


def _finish(reduce_op, arrays, n):
    if reduce_op == ReduceOp.MEAN:
        return [divide_by_n(a, n) for a in arrays]
    return arrays


class AllReduceCrossDeviceOps(CrossDeviceOps):
    """All-reduce with packing (TF's base of NcclAllReduce and HierarchicalCopyAllReduce)."""

    # Whether MIN/MAX run as collectives on the values' own devices (TF's collective ops
    # take a merge op) rather than on one device: so for CollectiveAllReduce, whose
    # simulated cluster then traces what its processes do.
    _collective_min_max = False

    def __init__(self, all_reduce_alg="nccl", num_packs=1):
        if num_packs < 0:
            raise ValueError(f"NCCL all-reduce requires num_packs >= 0, but {num_packs} is "
                             "specified")
        self._all_reduce_alg = all_reduce_alg
        self._num_packs = num_packs
        self._topology = None  # the machine's, unless a multi-worker strategy sets its own
        # The collective's devices, where the results land (the strategy's replicas, as
        # TF's CollectiveAllReduce(devices=...)); None: each value's own devices.
        self._devices = None
        # (every device of the cluster, Exchange) when this process is one task of several
        self._cluster = None

    # Parameters of the collective algorithm (collectives.ALGORITHMS) this op runs.
    _algorithm_params: dict = {}

    def _run_all_reduce(self, arrays, devices, algorithm, op="sum"):
        """All-reduce over ``devices``, or over the whole cluster when they are one task's."""
        params = self._algorithm_params if (
            self._cluster is None and algorithm == self._all_reduce_alg) else {}
        return self._run_collective("all_reduce", arrays, devices, algorithm, op=op, **params)

    def _run_collective(self, collective, arrays, devices, algorithm, placeholder=None,
                        **params):
        """``collective`` over ``devices``, or over the whole cluster when they are one task's.

        ``placeholder(rank)`` is the array another task's rank holds here (zeros like the
        first array by default): the schedule never reads it in this process, its
        transfers come over the network, but its size sets the chunk bounds.
        """
        if self._cluster is None:
            return run_collective(collective, arrays, devices, algorithm, self._topology,
                                  **params)
        everyone, exchange = self._cluster
        first = everyone.index(devices[0])
        mine = range(first, first + len(devices))
        placeholder = placeholder or (lambda rank: backend.xp.zeros_like(arrays[0]))
        full = [arrays[r - first] if r in mine else placeholder(r)
                for r in range(len(everyone))]
        outs = run_collective(collective, full, everyone, algorithm, self._topology, exchange,
                              **params)
        return outs[first:first + len(devices)]

    def _devices_for(self, value) -> list:
        """The devices ``value`` is all-reduced on (and its results land on)."""
        own = list(get_devices_from(value))
        return own if self._devices is None or len(self._devices) != len(own) \
            else list(self._devices)

    def _group_size(self, num_devices: int) -> int:
        """How many replicas a MEAN divides by (the cluster's, across processes)."""
        return len(self._cluster[0]) if self._cluster is not None else num_devices

    def _matches(self, value, destinations) -> bool:
        return list(get_devices_from(destinations)) == list(get_devices_from(value))

    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options):
        # TF all-reduces one value only where no destination is a CPU (batch_reduce does).
        if self._matches(per_replica_value, destinations) and not any(
                d.device_type == "CPU" for d in get_devices_from(destinations)):
            return self._batch_all_reduce(reduce_op, [per_replica_value])[0]
        return ReductionToOneDevice().reduce(reduce_op, per_replica_value, destinations)

    def batch_reduce_implementation(self, reduce_op, pairs, options):
        return self._batch_reduce_pairs(reduce_op, pairs, options,
                                        all(self._matches(v, d) for v, d in pairs))

    def _batch_reduce_pairs(self, reduce_op, pairs, options, matched: bool):
        """``batch_reduce_implementation`` once it is known whether every value's devices
        match its destinations (``matched``: one all-reduce of them all)."""
        if matched:
            return self._batch_all_reduce(reduce_op, [v for v, _ in pairs])
        return [self.reduce_implementation(reduce_op, v, d, options) for v, d in pairs]

    def _batch_all_reduce(self, reduce_op, per_replica_values):
        # The batch's structure: None unless every component is a Tensor (none is sparse).
        key = cross_replica_checks.batch_structure(per_replica_values)
        dense, dense_at, sparse, sparse_at = cross_device_utils.split_by_sparsity(
            per_replica_values) if key is None else (per_replica_values, None, (), None)
        if sparse:   # TF reduces dense and sparse values apart, then stitches them
            return cross_device_utils.stitch_values((
                (self._batch_all_reduce(reduce_op, dense) if dense else [], dense_at),
                (self._batch_all_reduce_sparse(reduce_op, sparse), sparse_at)))
        if reduce_op not in (ReduceOp.SUM, ReduceOp.MEAN):
            if self._cluster is not None or self._collective_min_max:
                return [self._all_reduce_each(reduce_op, v) for v in per_replica_values]
            return [ReductionToOneDevice().reduce(reduce_op, v, v) for v in per_replica_values]
        devices = self._devices_for(per_replica_values[0])
        grads = _flatten_per_device(per_replica_values, len(devices))
        # The checks read the batch's structure only: one that passed is not checked again.
        if not cross_replica_checks.passed("CollectiveReduceV2", key):
            for j in range(len(per_replica_values)):
                cross_replica_checks.check_reduce([g[j] for g in grads], "CollectiveReduceV2")
            cross_replica_checks.keep_pass("CollectiveReduceV2", key)
        results = self._reduce_groups(grads, devices)
        n = len(devices)
        out = []
        for j in range(len(per_replica_values)):
            arrays = _finish(reduce_op, [results[i][j] for i in range(n)], self._group_size(n))
            out.append(Mirrored([Tensor(a, d) for a, d in zip(arrays, devices)]))
        return out

    def _batch_all_reduce_sparse(self, reduce_op, per_replica_values):
        """IndexedSlices: reduced on one device and copied back (TF: "effectively an
        allgather under the hood but not an efficient one"), with TF's warning."""
        if _SPARSE_WARNINGS[0] < 10:   # TF's log_first_n(WARN, ..., 10)
            _SPARSE_WARNINGS[0] += 1
            import logging  # loaded by a first warning, not by the strategy

            logging.getLogger("tensorflow").warning(
                "Efficient allreduce is not supported for %d IndexedSlices",
                len(per_replica_values))
        return ReductionToOneDevice().batch_reduce(
            reduce_op, zip(per_replica_values, per_replica_values))

    def _all_reduce_each(self, reduce_op, value):
        """MIN/MAX of one per-replica value across the cluster, on its own devices."""
        devices = list(get_devices_from(value))
        tensors = [execute.convert_to_tensor(v) for v in value.values]
        cross_replica_checks.check_reduce(tensors, "CollectiveReduceV2")
        xp = backend.xp
        outs = self._run_all_reduce([xp.reshape(t._value, (-1,)) for t in tensors], devices,
                                    "ring", op=reduce_op.value.lower())
        return Mirrored([Tensor(xp.reshape(o, t._value.shape), d)
                         for o, t, d in zip(outs, tensors, devices)])

    def _reduce_groups(self, grads, devices):
        """Sum ``grads[device][value]`` over devices: grouping -> packing -> all-reduce ->
        unpacking (TF's _ConcatAndSplitPacker around its batch all-reduce)."""
        results = [[None] * len(grads[0]) for _ in devices]
        for group in self._grouping(grads[0]):
            flats = _pack(grads, group)
            _unpack(self._all_reduce_parts(flats, devices), _spans(grads[0], group), results)
        return results

    def _grouping(self, values):
        """Grouping: packing concatenates, so only values of one dtype share a pack (in the
        order their dtype first appears); ``num_packs=0`` gives each value its own."""
        by_dtype: dict = {}
        for j, t in enumerate(values):
            by_dtype.setdefault(t.dtype, []).append(j)
        for idx in by_dtype.values():
            yield from ([[j] for j in idx] if self._num_packs == 0 else [idx])

    def _all_reduce_parts(self, flats, devices):
        """All-reduce: each device's packed buffer is cut into ``num_packs`` parts (the last
        takes the remainder), one all-reduce runs per part, and each device joins its
        reduced parts again."""
        parts = packing.concat_and_split_sizes(int(flats[0].size), self._num_packs or 1)
        bounds = [0]
        for size in parts:
            bounds.append(bounds[-1] + size)
        reduced = [[] for _ in devices]
        for a, b in zip(bounds, bounds[1:]):
            outs = self._run_all_reduce([f[a:b] for f in flats], devices, self._all_reduce_alg)
            for i, o in enumerate(outs):
                reduced[i].append(o)
        return [array_api.concat(r) if r else f for r, f in zip(reduced, flats)]


class NcclAllReduce(AllReduceCrossDeviceOps):
    """NCCL all-reduce (ring or tree, as NCCL's tuner picks) of packed gradients."""

    def __init__(self, num_packs=1):
        super().__init__("nccl", num_packs)

    def _batch_all_reduce(self, reduce_op, per_replica_values):
        """TF's NcclAllReduce kernel exists for GPUs only.

        Raises:
          InvalidArgumentError: a replica's device is not a GPU (TF finds no kernel).
        """
        others = [d for d in get_devices_from(per_replica_values[0]) if d.device_type != "GPU"]
        # TF builds the graph of NcclAllReduce ops on CPUs too; running it fails
        if others and not execute.in_shape_inference():
            from simdist.framework import errors

            raise errors.InvalidArgumentError(
                None, None,
                f"No OpKernel was registered to support Op 'NcclAllReduce' on "
                f"{others[0].name}. Registered devices: [{others[0].device_type}]; "
                "registered kernels: device='GPU'. NCCL all-reduces between GPUs only: use "
                "tf.distribute.ReductionToOneDevice() (or HierarchicalCopyAllReduce) for "
                "replicas on CPUs.")
        return super()._batch_all_reduce(reduce_op, per_replica_values)


class HierarchicalCopyAllReduce(AllReduceCrossDeviceOps):
    """TF's hierarchical copy (DGX-1: reduce within {0-3} and {4-7}, then across).

    As in TF, the two groups have ``p // 2`` devices each, in device order, so with an odd
    replica count the last replica's value is left out of the sum (it still gets the
    result): simdist computes what TF computes and warns once.
    """

    _algorithm_params = {"tf_groups": True}

    def __init__(self, num_packs=1):
        super().__init__("hierarchical_copy", num_packs)

    def _reduce_groups(self, grads, devices):
        if len(devices) % 2:
            from simdist import warnings as teach

            teach.warn("hierarchical_copy_odd_replicas", replicas=len(devices),
                       left_out=devices[-1].name)
        return super()._reduce_groups(grads, devices)


class CollectiveAllReduce(AllReduceCrossDeviceOps):
    """Collective all-reduce (TF's CollectiveAllReduce): MirroredStrategy's default (RING on
    CPUs, NCCL on GPUs) and what MultiWorkerMirroredStrategy uses. In eager each tensor is
    all-reduced alone; inside a tf.function the tensors are grouped into packs
    (group_by_size), each concatenated."""

    _collective_min_max = True

    def __init__(self, options: CommunicationOptions | None = None):
        super().__init__("AUTO", 1)
        self._options = options or CommunicationOptions()

    def batch_reduce(self, reduce_op, value_destination_pairs, options=None):
        self._call_options = self._options.merge(options)
        return super().batch_reduce(reduce_op, value_destination_pairs, options)

    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options):
        """All-reduce on the value's devices, whatever the destinations (a CPU too); then
        each destination gets the copy on its device, or the first replica's."""
        reduced = self._batch_all_reduce(reduce_op, [per_replica_value])[0]
        if self._matches(per_replica_value, destinations):
            return reduced
        held = dict(zip(get_devices_from(reduced), reduced.values))
        copies = [cross_device_utils.copy_to_device(held.get(d, reduced.values[0]), d)
                  for d in get_devices_from(destinations)]
        return copies[0] if len(copies) == 1 else Mirrored(copies)   # TF's regroup

    def _matches(self, value, destinations) -> bool:
        # TF's _devices_match: the same set of devices (the same tuple: no sets to build)
        a, b = get_devices_from(destinations), get_devices_from(value)
        return a == b or set(a) == set(b)

    def batch_reduce_implementation(self, reduce_op, pairs, options):
        matched = all(self._matches(v, d) for v, d in pairs)   # (found once for both)
        if not matched and _MIXED_WARNINGS[0] < 10:
            _MIXED_WARNINGS[0] += 1   # TF's log_first_n(WARN, ..., 10)
            import logging  # loaded by a first warning, not by the strategy

            logging.getLogger("tensorflow").warning(
                "Efficient batch_reduce is not supported if destinations are different.")
        return self._batch_reduce_pairs(reduce_op, pairs, options, matched)

    def _reduce_groups(self, grads, devices):
        """grouping (reversed values: in eager one per pack, in a tf.function TF's
        group_by_size, then by dtype) -> packing -> one all-reduce per pack -> unpacking."""
        opts = getattr(self, "_call_options", self._options)
        implementation = _implementation(opts, devices)
        results = [[None] * len(grads[0]) for _ in devices]
        for members, spans in self._packs(grads[0], opts.bytes_per_pack):
            outs = self._run_all_reduce(_pack(grads, members), devices, implementation)
            _unpack(outs, spans, results)
        return results

    def _packs(self, values, bytes_per_pack):
        """Grouping: [(a pack's value indices, their spans in its buffer)], kept for the
        values' dtypes and shapes (a training step packs the same gradients every time)."""
        eager = context.executing_eagerly()
        key = (eager, bytes_per_pack, tuple((t._value.dtype, t._value.shape) for t in values))
        kept = self.__dict__.setdefault("_kept_packs", {})
        try:
            found = kept.get(key)
        except TypeError:   # a backend's dtype that is no key: grouped every time
            key, found = None, None
        if found is not None:
            return found
        n_values = len(values)
        # Reversed so the first pack holds the last-computed gradients (better overlap with
        # the backward pass), as TF does before grouping.
        order = list(range(n_values))[::-1]
        if eager:   # TF: "We don't batch in eager"
            packs = [[k] for k in range(n_values)]
        else:
            packs = packing.group_by_size(
                [array_api.nbytes(values[j]._value) for j in order], bytes_per_pack)
        found = [(members, _spans(values, members)) for pack in packs
                 for members in _split_by_dtype([order[k] for k in pack], values)]
        if key is not None:
            bounded_memo.keep(kept, key, found, _KEPT)
        return found

    def _batch_all_reduce_sparse(self, reduce_op, per_replica_values):
        return [self._all_reduce_indexed_slices(reduce_op, v) for v in per_replica_values]

    def _all_reduce_indexed_slices(self, reduce_op, value):
        """IndexedSlices all-reduced as TF's CollectiveReplicaLauncher does: all-gather the
        replicas' lengths, then their values and their indices (each padded to the longest
        when the lengths differ, the padding cut off again), every replica getting the
        whole concatenation; MEAN divides the values by the group size."""
        xp = backend.xp
        devices = list(get_devices_from(value))
        parts = list(value.values)
        lengths = array_api.to_host(self._run_collective(
            "all_gather", [array_api.from_host(np.asarray([int(p.indices.shape[0])],
                                                          dtype=np.int32))
                           for p in parts], devices, "ring")[0]).tolist()
        longest = max(lengths)

        def gather(arrays):
            rest = arrays[0].shape[1:]
            padded = [a if a.shape[0] == longest else array_api.concat(
                [a, xp.zeros((longest - a.shape[0],) + tuple(rest), dtype=a.dtype)])
                for a in arrays]
            outs = self._run_collective(
                "all_gather", padded, devices, "ring",
                placeholder=lambda rank: xp.zeros((longest,) + tuple(rest), dtype=arrays[0].dtype))
            if min(lengths) == longest:
                return outs
            return [array_api.concat([o[r * longest:r * longest + n, ...]
                                      for r, n in enumerate(lengths)]) for o in outs]

        values = gather([p.values._value for p in parts])
        indices = gather([p.indices._value for p in parts])
        n = self._group_size(len(devices))
        out = []
        for v, i, p, d in zip(values, indices, parts, devices):
            slices = IndexedSlices(Tensor(v, d), Tensor(i, d), p.dense_shape)
            if reduce_op == ReduceOp.MEAN:
                with context.device(d.name):
                    slices = cross_device_utils.divide_by_n(slices, n)
            out.append(slices)
        return Mirrored(out)

    def _gather(self, per_replica_value, destinations, axis):
        """All-gather along ``axis`` as TF's CollectiveAllReduce: shapes first, then values.

        As TF's CollectiveReplicaLauncher, the replicas first all-gather their shapes (so
        each knows how many rows every other one sends: sizes may differ along ``axis``),
        then the values, with ``axis`` moved to the front; both are ring schedules over the
        cluster (across processes too), so the trace shows them.
        """
        xp = backend.xp
        devices = list(get_devices_from(per_replica_value))
        tensors = [execute.convert_to_tensor(v) for v in per_replica_value.values]
        ndim = tensors[0].ndim
        if ndim:
            cross_replica_checks.check_gather_axis(int(axis), ndim)
        if ndim == 0 or not -ndim <= int(axis) < ndim or any(
                t.ndim != ndim or _without(t.shape, axis) != _without(tensors[0].shape, axis)
                for t in tensors):
            return super()._gather(per_replica_value, destinations, axis)  # its errors
        axis = int(axis) % ndim
        fronts = [array_api.contiguous(xp.moveaxis(t._value, axis, 0)) for t in tensors]
        shapes = array_api.to_host(self._run_collective(
            "all_gather", [array_api.from_host(np.asarray(f.shape, dtype=np.int64))
                           for f in fronts], devices, "ring")[0]).reshape(-1, ndim)
        if any(tuple(s[1:]) != fronts[0].shape[1:] for s in shapes.tolist()):
            raise errors.InvalidArgumentError(
                None, None, f"all_gather along axis {axis}: the replicas' values have shapes "
                f"{[tuple(s) for s in shapes.tolist()]} (axis first), which differ outside "
                "that axis; every replica must pass the same shape except along `axis`.")
        outs = self._run_collective(
            "all_gather", fronts, devices, "ring",
            placeholder=lambda rank: xp.zeros(tuple(shapes[rank].tolist()), dtype=fronts[0].dtype))
        gathered = Mirrored([Tensor(array_api.contiguous(xp.moveaxis(o, 0, axis)), d)
                             for o, d in zip(outs, devices)])
        if self._matches(per_replica_value, destinations):
            return gathered
        return simple_broadcast(gathered.values[0], destinations)


# --- packing and unpacking, the phases around a batch all-reduce ------------------------
def _pack(grads, group):
    """Packing: on each device, the group's values flattened and concatenated."""
    xp = backend.xp
    if xp is np:   # one call per device: concatenate flattens (C order) with axis=None
        return [np.concatenate([g[j]._value for j in group], axis=None) for g in grads]
    return [array_api.concat([xp.reshape(g[j]._value, (-1,)) for j in group]) for g in grads]


def _spans(values, group):
    """[(value index, its first and end positions in the group's buffer, its shape)]: the
    replicas' values of one index have one shape (checked before the all-reduce)."""
    spans, pos = [], 0
    for j in group:
        v = values[j]._value
        spans.append((j, pos, pos + v.size, v.shape))
        pos += v.size
    return spans


def _unpack(packed, spans, results):
    """Unpacking: each device's reduced buffer cut back into the group's values, shaped as
    they came (``results[device][value]``; ``spans`` from _spans)."""
    xp = backend.xp
    for i, whole in enumerate(packed):
        row = results[i]
        if xp is np:   # a vector's slice is already its value (no reshape)
            for j, lo, hi, shape in spans:
                row[j] = whole[lo:hi] if len(shape) == 1 else whole[lo:hi].reshape(shape)
        else:
            for j, lo, hi, shape in spans:
                row[j] = xp.reshape(whole[lo:hi], shape)


def _without(shape, axis):
    dims = list(shape)
    del dims[int(axis)]
    return dims


def _implementation(options, devices) -> str:
    """What the all-reduce runs: TF's RingReducer (``ring_reducer``, its chunks and order
    of additions, on one machine or across a cluster's processes) where TF runs it: RING
    asked for, or devices that are not all GPUs (AUTO is a ring there; NCCL runs on GPUs
    only). Otherwise the implementation's name (NCCL, AUTO: the NCCL-like tuner). On real
    GPUs (the cupy backend) NCCL computes the values (run_collective)."""
    implementation = options.implementation
    if backend.get_backend() != "cupy" and (
            implementation == CommunicationImplementation.RING
            or any(d.device_type != "GPU" for d in devices)):
        return "ring_reducer"
    return implementation.value


def _split_by_dtype(members, tensors):
    groups: dict = {}
    for j in members:
        groups.setdefault(tensors[j].dtype, []).append(j)
    return list(groups.values())

