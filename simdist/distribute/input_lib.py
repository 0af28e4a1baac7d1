"""Distributed input: global batches split among replicas exactly as TF splits them.

Glossary:
  DistributedDataset     -- ``strategy.experimental_distribute_dataset(ds)``: each global
                            batch is cut per replica (TF's recorded rules in
                            ``simdist.data.distribute_rules``) and each part is placed on its
                            replica's device; iterating yields PerReplica structures.
  DistributedDatasetsFromFunction -- ``distribute_datasets_from_function``: one dataset per
                            input pipeline (``InputContext``); replica ``j`` of a pipeline
                            takes the ``j``-th of every group of per-replica batches.
  empty batch            -- a replica left without rows this step (TF's partial-batch
                            handling) gets a zero-row batch of the right structure; a
                            SparseTensor's cannot be made (TF's DeserializeSparse of the
                            empty serialized batch fails): InvalidArgumentError.
  element_spec           -- over several replicas (or workers) a PerReplicaSpec of each
                            replica's spec per leaf (_create_distributed_tensor_spec); over
                            one, the dataset's own.
  cardinality            -- the given dataset's, as a NumPy int64 taken when distributed
                            (-1 infinite, -2 unknown).
  host -> device copy    -- priced on the topology and traced (cat ``input``); with
                            ``prefetch`` in the pipeline the next step's copy runs during
                            the current step, so a replica waits only if it is not done yet.
  in a tf.function        -- ``iter()`` made while tracing is a node that starts a fresh pass
                            at each execution; ``next()`` and ``get_next_as_optional`` are
                            stateful nodes (simdist.data.optional_ops), and ``reduce`` (what
                            AutoGraph's ``for x in dist_dataset`` calls) is TF's while loop
                            over ``get_next_as_optional``. A dataset or iterator argument is
                            traced by its spec, not by identity, as TF's type specs are.
  InputOptions           -- ``experimental_fetch_to_device`` (False keeps batches on the host
                            CPU), ``experimental_replication_mode``,
                            ``experimental_place_dataset_on_device``.

Mirrors tensorflow/python/distribute/input_lib.py and distribute_lib.py (InputContext,
InputOptions, InputReplicationMode).
"""

from __future__ import annotations

import enum

import numpy as np

from simdist.data import composite_rows, optional_ops, structure
from simdist.data import distribute as data_distribute
from simdist.data.dataset_ops import pipeline
from simdist.data.iterator_pass import iterator_pass
from simdist.data.pipeline import PrefetchDataset
from simdist.data.structured_function import symbolic_leaf
from simdist.distribute.values import PerReplicaSpec, regroup
from simdist.framework import composite_specs, errors, func_graph, nest
from simdist.framework.sparse_tensor import SparseTensor
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api
from simdist.hardware.transfer import link


class InputReplicationMode(enum.Enum):
    """How input pipelines map to replicas (``tf.distribute.InputReplicationMode``)."""

    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputOptions:
    """Options of distributed input (``tf.distribute.InputOptions``)."""

    def __init__(self, experimental_fetch_to_device=None,
                 experimental_replication_mode=InputReplicationMode.PER_WORKER,
                 experimental_place_dataset_on_device=False,
                 experimental_per_replica_buffer_size=1):
        if experimental_place_dataset_on_device and experimental_fetch_to_device:
            raise ValueError(
                "`experimental_place_dataset_on_device` can not be set to True when "
                "experimental_fetch_to_device is True and replication mode is set to "
                "`PER_WORKER`."
            )
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


class InputContext:
    """What ``dataset_fn`` learns about its input pipeline (``tf.distribute.InputContext``)."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    num_input_pipelines = property(lambda self: self._num_input_pipelines)
    input_pipeline_id = property(lambda self: self._input_pipeline_id)
    num_replicas_in_sync = property(lambda self: self._num_replicas_in_sync)

    def get_per_replica_batch_size(self, global_batch_size):
        """The per-replica batch size for ``global_batch_size``.

        Raises:
          ValueError: when the replicas do not divide the global batch size.
        """
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(
                f"The `global_batch_size` {global_batch_size!r} is not divisible by "
                f"`num_replicas_in_sync` {self._num_replicas_in_sync!r} "
            )
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self):
        return (f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, "
                f"total: {self._num_input_pipelines})")


def _placed(v, dev):
    """A batch's leaf on ``dev``, and the bytes its copy moves: a Tensor, or a RaggedTensor /
    SparseTensor whose values are a Tensor there (its partitions are copied too)."""
    if type(v) is np.ndarray or type(v) is Tensor or not composite_rows.is_composite(v):
        # a dense leaf: one array (a NumPy array or Tensor row slice: no composite check)
        array = array_api.from_host(v._value if isinstance(v, Tensor) else v)
        return Tensor(array, dev), array_api.nbytes(array)
    from simdist.framework.ragged_tensor import RaggedTensor
    from simdist.framework.sparse_tensor import SparseTensor

    ragged, sparse = isinstance(v, RaggedTensor), isinstance(v, SparseTensor)
    parts = [v.flat_values, *v.nested_row_splits] if ragged else \
        [v.values, v.indices, v.dense_shape] if sparse else [v]
    arrays = [array_api.from_host(p._value if isinstance(p, Tensor) else p) for p in parts]
    values = Tensor(arrays[0], dev)
    leaf = v.with_flat_values(values) if ragged else \
        SparseTensor(v.indices, values, v.dense_shape) if sparse else values
    return leaf, sum(array_api.nbytes(a) for a in arrays)


def _has_prefetch(dataset) -> bool:
    return any(isinstance(ds, PrefetchDataset) for ds in pipeline(dataset))


class _Placer:
    """Moves per-replica batches from the host to the replicas' devices in simulated time."""

    def __init__(self, devices, fetch_to_device, prefetch):
        self.devices = devices
        self.host = structure.host_device()
        self.fetch = fetch_to_device is not False
        self.prefetch = prefetch
        self.ready = [0.0] * len(devices)

    def place(self, i, values):
        dev = self.devices[i] if self.fetch else self.host
        placed = [_placed(v, dev) for v in structure.flatten(values)]
        if dev is not self.host:
            self._charge(i, dev, sum(nbytes for _, nbytes in placed))
        return structure.pack(values, [leaf for leaf, _ in placed])

    def _charge(self, i, dev, nbytes):
        latency, bw = link(self.host, dev)
        duration = latency + nbytes / bw
        if self.prefetch:
            # The copy of this batch started when the previous one was handed over, so it
            # overlapped the previous step's compute; wait only for what is left of it.
            start = max(self.ready[i], self.host.clock)
            end = start + duration
            dev.wait_until(end)
            self.ready[i] = dev.clock
        else:
            start = max(dev.clock, self.host.clock)
            end = start + duration
            dev.wait_until(end)
        if dev.trace.enabled:   # record's event, flat (no keyword arguments to lay out)
            dev.trace.record_events((("HostToDevice", "input", dev.name, start, end,
                                      "bytes", nbytes, "src", self.host.name,
                                      "prefetched", self.prefetch),))


def enable_partial_batches(strategy, dataset) -> bool:
    """Whether replicas left without data get dummy batches (TF's get_next_as_optional).

    Only where the strategy allows it, the data is finite, and its shapes are not all
    static or several workers read it; otherwise a short last step is dropped.
    """
    from simdist.data.dataset_ops import INFINITE_CARDINALITY

    extended = strategy.extended
    if not getattr(extended, "experimental_enable_get_next_as_optional", False):
        return False
    if dataset._cardinality() == INFINITE_CARDINALITY:
        return False
    return (not data_distribute.is_statically_shaped(dataset.element_spec)
            or getattr(extended, "_num_workers", 1) > 1)


class DistributedIterator:
    """Iterator over a distributed dataset: each ``next`` is one step's per-replica batches.
    Made while tracing, a node starts its pass afresh at each execution."""

    def __init__(self, dataset):
        self._spec = dataset._replica_spec()
        self._element_spec = dataset.element_spec
        self._n = len(dataset._devices())
        self._template = data_distribute.dummy_batch(self._spec)
        self._sparse = any(isinstance(s, composite_specs.SparseTensorSpec)
                           for s in nest.flatten(self._spec))
        self._steps, self._placer = dataset._stream()
        if func_graph.current() is not None:
            self._start(dataset)

    @func_graph.recorded(kind="stateful", spec=lambda graph, it, dataset: None,
                         name="MultiDeviceIterator")
    def _start(self, dataset):
        self._steps, self._placer = dataset._stream()

    def __iter__(self):
        return self

    def _tracing_key(self):
        """tf.function traces once for iterators of one spec on the same devices."""
        return tuple(d.name for d in self._devices()), structure.spec_key(self._spec)

    def __next__(self):
        optional_ops.count_traced_next(self)
        return self._get_next()

    @func_graph.recorded(kind="stateful", spec=lambda graph, it: it._symbolic_next(graph),
                         name="MultiDeviceIteratorGetNextFromShard")
    def _get_next(self):
        step = next(self._steps)
        flat = [v for worker in step for v in worker]
        values = []
        for i, v in enumerate(flat):
            if v is None or (self._sparse and _no_sparse_rows(v)):
                v = self._empty(i)
            values.append(self._placer.place(i, v))
        return values[0] if self._n == 1 else regroup(values, always_wrap=True)

    def _empty(self, i):
        """Replica ``i``'s batch when it has no rows this step (see the glossary).

        Raises:
          InvalidArgumentError: the element holds a SparseTensor (TF's DeserializeSparse).
        """
        if self._sparse:
            raise errors.InvalidArgumentError(
                None, None, "{{function_node __wrapped__DeserializeSparse_device_"
                f"{self._devices()[i].name}}}}} Serialized sparse should have at least 1 "
                "serialized tensor, but has a zero dimension [0,3] [Op:DeserializeSparse] "
                "name: \nA SparseTensor batch must leave every replica a row: make the "
                "global batch size a multiple of the number of replicas, or drop_remainder.")
        return self._template

    def _devices(self):
        placer = self._placer
        return [placer.devices[i] if placer.fetch and i < len(placer.devices)
                else placer.host for i in range(max(self._n, 1))]

    def _per_replica(self, fn):
        values = [fn(dev) for dev in self._devices()]
        return values[0] if self._n == 1 else regroup(values, always_wrap=True)

    def _symbolic_next(self, graph):
        """The next step while tracing: per replica, symbolic tensors of the element spec
        on that replica's device (the execution takes the step)."""
        return self._per_replica(lambda dev: nest.map_structure(
            lambda s: symbolic_leaf(graph, dev, s, "MultiDeviceIteratorGetNextFromShard"),
            self._spec))

    def _dummy(self):
        """An empty Optional's stand-in (never read: get_value raises)."""
        return self._per_replica(lambda dev: optional_ops.zeros_of(self._spec, dev))

    def get_next(self):
        """The next step's per-replica batches.

        Raises:
          OutOfRangeError: at the end of the data, as TF's iterators do.
        """
        try:
            return next(self)
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self):
        """The next step as a ``tf.experimental.Optional`` (empty at the end; in a trace
        whether it has one is known at each execution)."""
        return optional_ops.get_next_as_optional(self)

    @property
    def element_spec(self):
        return self._element_spec


class DistributedDataset:
    """A dataset whose every element is one step's per-replica batches."""

    def __init__(self, strategy, dataset, options=None):
        self._strategy = strategy
        self._dataset = dataset
        self._options = options or InputOptions()
        if self._options.experimental_replication_mode == InputReplicationMode.PER_REPLICA:
            raise NotImplementedError(
                "InputReplicationMode.PER_REPLICA is only supported in "
                "`distribute_datasets_from_function`."
            )
        n = strategy.num_replicas_in_sync
        num_workers = getattr(strategy.extended, "_num_workers", 1)
        self._num_workers = num_workers
        # Simulated, this process reads every worker's shard; one of a cluster of processes
        # reads its own only.
        workers = getattr(strategy.extended, "_local_workers", lambda: range(num_workers))()
        self._worker_datasets = [
            data_distribute.rebatch_for_worker(dataset, n, num_workers, w) for w in workers
        ]
        self._cardinality = _cardinality(dataset)

    def _devices(self):
        return list(self._strategy.extended._devices)

    def __iter__(self):
        return DistributedIterator(self)

    def _tracing_key(self):
        """tf.function traces once for distributed datasets of one spec and strategy."""
        return id(self._strategy), structure.spec_key(self._replica_spec())

    def _placer(self):
        return _Placer(self._devices(), self._options.experimental_fetch_to_device,
                       _has_prefetch(self._dataset))

    def _stream(self):
        """(a fresh pass's steps, the placer moving them to the replicas)."""
        n = self._strategy.num_replicas_in_sync
        streams = [iterator_pass(ds) for ds in self._worker_datasets]
        steps = data_distribute.steps(streams, n // self._num_workers,
                                      enable_partial_batches(self._strategy, self._dataset))
        return _synchronized(self._strategy, steps), self._placer()

    def _replica_spec(self):
        """The spec of one replica's batch."""
        return self._worker_datasets[0].element_spec

    @property
    def element_spec(self):
        """The spec of a step (see the glossary: a PerReplicaSpec per leaf over several
        replicas)."""
        spec = self._replica_spec()
        n = len(self._devices())
        if n == 1 and getattr(self._strategy.extended, "_num_workers", 1) == 1:
            return spec
        return nest.map_structure(lambda s: PerReplicaSpec(*[s] * n), spec)

    @property
    def cardinality(self):
        """The given dataset's cardinality (see the glossary)."""
        return self._cardinality

    def reduce(self, initial_state, reduce_fn):
        """Fold ``reduce_fn(state, per_replica_batch)`` over every step (in a trace: TF's
        while loop over ``get_next_as_optional``, optional_ops.fold)."""
        if func_graph.current() is not None:
            return optional_ops.fold(iter(self), initial_state, reduce_fn)
        state = initial_state
        for value in self:
            state = reduce_fn(state, value)
        return state


class DistributedDatasetsFromFunction(DistributedDataset):
    """Per-pipeline datasets from ``dataset_fn(InputContext)``, one pipeline per worker."""

    def __init__(self, strategy, dataset_fn, options=None):
        self._strategy = strategy
        self._options = options or InputOptions()
        n = strategy.num_replicas_in_sync
        num_workers = getattr(strategy.extended, "_num_workers", 1)
        worker = getattr(strategy.extended, "_worker_index", 0)
        per_replica = (self._options.experimental_replication_mode
                       == InputReplicationMode.PER_REPLICA)
        if per_replica:
            first = getattr(strategy.extended, "_replica_id_offset", 0)
            local = len(strategy.extended._devices)
            self._pipelines = [dataset_fn(InputContext(n, first + i, n)) for i in range(local)]
        else:
            # One pipeline per worker this process reads for: its own across processes,
            # every worker's when the cluster is simulated here (as each TF worker calls
            # dataset_fn with its own input_pipeline_id).
            workers = getattr(strategy.extended, "_local_workers", lambda: [worker])()
            self._pipelines = [dataset_fn(InputContext(num_workers, w, n)) for w in workers]
        self._per_replica = per_replica
        self._dataset = self._pipelines[0]
        self._num_workers = 1
        self._cardinality = _cardinality(self._dataset)

    def _replica_spec(self):
        return self._pipelines[0].element_spec

    def _stream(self):
        partial = enable_partial_batches(self._strategy, self._dataset)
        streams = [iterator_pass(p) for p in self._pipelines]
        if self._per_replica:
            steps = data_distribute.steps(streams, 1, partial)
        else:
            steps = data_distribute.steps(streams, len(self._devices()) // len(self._pipelines),
                                          partial)
        return _synchronized(self._strategy, steps), self._placer()


def _no_sparse_rows(batch) -> bool:
    """Whether ``batch`` holds a SparseTensor of no rows (TF cannot deserialize it)."""
    return any(isinstance(x, SparseTensor) and int(x.dense_shape.numpy()[0]) == 0
               for x in nest.flatten(batch))


def _cardinality(dataset):
    """``dataset``'s cardinality as TF's input_lib takes it: a NumPy int64, or UNKNOWN (-2)
    when distributed while tracing."""
    if func_graph.current() is not None:
        return np.int64(-2)
    return np.int64(dataset._cardinality())


def _synchronized(strategy, steps):
    """``steps``, ending on every worker of a cluster of processes at the same step.

    As TF's multi-worker iterators: the workers agree (an all-reduce of "I have data") on
    whether any of them still has data; one that has none gets empty batches meanwhile.
    """
    agree = getattr(strategy.extended, "_any_worker", None)
    if agree is None:
        yield from steps
        return
    local = len(strategy.extended._devices)
    it = iter(steps)
    while True:
        step = next(it, None)
        if not agree(step is not None):
            return
        yield step if step is not None else [[None] * local]


def distribute_dataset(strategy, dataset, options=None):
    """``strategy.experimental_distribute_dataset``: validate, then build the dataset."""
    from simdist.data.dataset_ops import DatasetV2

    if not isinstance(dataset, DatasetV2):
        raise ValueError(
            f"`dataset` must be a tf.data.Dataset, got {type(dataset).__name__}. Build one "
            "with tf.data.Dataset.from_tensor_slices(...).batch(global_batch_size)."
        )
    if options is not None and not isinstance(options, InputOptions):
        raise ValueError("`options` must be a tf.distribute.InputOptions instance.")
    return DistributedDataset(strategy, dataset, options)


def distribute_datasets_from_function(strategy, dataset_fn, options=None):
    """``strategy.distribute_datasets_from_function``: validate, then build the datasets."""
    if not callable(dataset_fn):
        raise TypeError(f"dataset_fn must be callable, got {dataset_fn!r}.")
    if options is not None and not isinstance(options, InputOptions):
        raise ValueError("`options` must be a tf.distribute.InputOptions instance.")
    return DistributedDatasetsFromFunction(strategy, dataset_fn, options)
