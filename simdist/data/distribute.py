"""Dataset-level distribution: each worker's pipeline of per-replica batches, as TF builds it.

Glossary:
  compute_batch_size   -- the batch size TF infers: the static leading dimension of the
                          element spec, else the nearest upstream ``batch`` reached through
                          ops that keep batches whole (filter, prefetch, cache, shuffle,
                          repeat, take, skip, shard, options); -1 when unknown (e.g. behind
                          a ``map`` on partial batches -- recorded from TF).
  LegacyRebatchDataset -- every batch cut into ``num_replicas`` chunks of ``ceil(b / R)``
                          rows (trailing chunks short or empty); see ``distribute_rules``.
  rebatch_for_worker   -- the dataset one worker iterates: rebatched and auto-sharded as
                          ``input_lib.DistributedDataset`` does for ``auto_shard_policy``.
  steps                -- group the workers' chunk streams into global steps: local replica
                          ``j`` takes every ``Rw``-th chunk; ``None`` marks a replica that
                          gets an empty batch because its worker ran out first.
  partial batches      -- TF fills such a replica in only when the element shapes are not
                          all static (or several workers read); otherwise the short last
                          step is dropped (``input_lib._enable_get_next_as_optional``).
  dummy batch          -- the filler, built from the element spec: unknown dimensions 0,
                          and the first one 0 when every dimension is known (a scalar
                          stays a scalar 0) -- ``input_lib._dummy_tensor_fn``.

The positional rules (which element goes where) are in :mod:`simdist.data.distribute_rules`;
this module applies them to real datasets (shuffled, mapped ...). Mirrors
tensorflow/python/data/experimental/ops/distribute.py and
tensorflow/python/distribute/input_lib.py.
"""

from __future__ import annotations

import numpy as np

from simdist.data import auto_shard, composite_rows, structure
from simdist.data import distribute_rules as rules
from simdist.data.batching import BatchDataset
from simdist.data.dataset_ops import DatasetV2
from simdist.data.options import AutoShardPolicy
from simdist.data.pipeline import CacheDataset, OptionsDataset, PrefetchDataset
from simdist.data.shuffling import ShuffleDataset
from simdist.data.slicing import RepeatDataset, ShardDataset, SkipDataset, TakeDataset
from simdist.hardware import backend

_PASS_THROUGH = (OptionsDataset, PrefetchDataset, CacheDataset, ShuffleDataset,
                 RepeatDataset, TakeDataset, SkipDataset, ShardDataset)


def compute_batch_size(dataset: DatasetV2) -> int:
    """The batch size TF infers for ``dataset`` (-1 when it cannot)."""
    static = structure.leading_dim(dataset.element_spec)
    if static is not None:
        return static
    node = dataset
    while True:
        if isinstance(node, BatchDataset):
            return node._batch_size
        from simdist.data.mapping import FilterDataset

        if isinstance(node, (*_PASS_THROUGH, FilterDataset)) and node._inputs:
            node = node._inputs[0]
            continue
        return -1


class LegacyRebatchDataset(DatasetV2):
    """Each batch cut into ``num_replicas`` chunks (``ceil(b / R)`` rows, then the rest)."""

    def __init__(self, input_dataset, num_replicas: int):
        self._num_replicas = int(num_replicas)
        spec = input_dataset.element_spec
        dim = structure.leading_dim(spec)
        static = dim // self._num_replicas if dim and dim % self._num_replicas == 0 else None
        super().__init__((input_dataset,),
                         structure.batch_spec(structure.unbatch_spec(spec), static))

    def _cardinality(self) -> int:
        n = self._inputs[0]._cardinality()
        return n * self._num_replicas if n >= 0 else n

    def _values(self):
        for batch in self._inputs[0]._values():
            leaves = structure.flatten(batch)
            rows = composite_rows.count_rows(leaves[0]) if leaves else 0
            start = 0
            for size in rules.legacy_split(rows, self._num_replicas):
                yield structure.pack(batch, [composite_rows.rows_of(leaf, start, start + size)
                                             for leaf in leaves])
                start += size


def rebatch_for_worker(dataset: DatasetV2, num_replicas_in_sync: int, num_workers: int = 1,
                       worker_index: int = 0) -> DatasetV2:
    """The stream of per-replica batches worker ``worker_index`` reads, in TF's order.

    Raises:
      ValueError: when the workers do not divide the replicas.
      NotFoundError: for ``AutoShardPolicy.FILE`` on a pipeline that reads no files.
      InvalidArgumentError: FILE sharding over fewer files than workers.
    """
    if num_replicas_in_sync % num_workers:
        raise ValueError(
            "tf.distribute expects every worker to have the same number of replicas. "
            f"However, encountered `num_replicas_in_sync` ({num_replicas_in_sync}) that "
            f"cannot be divided by `num_workers` ({num_workers})")
    policy = rules.resolve_policy(
        dataset.options().experimental_distribute.auto_shard_policy, num_workers,
        reads_files=auto_shard.reads_files(dataset))
    if policy == AutoShardPolicy.FILE:
        dataset = auto_shard.shard_files(dataset, num_workers, worker_index)
    if num_replicas_in_sync == 1:
        return dataset
    if policy == AutoShardPolicy.DATA:
        out = LegacyRebatchDataset(dataset, num_replicas_in_sync)
        return out.shard(num_workers, worker_index) if num_workers > 1 else out
    batch_size = compute_batch_size(dataset)
    if batch_size < 0:
        return LegacyRebatchDataset(dataset, num_replicas_in_sync)
    sizes = rules.batch_sizes_for_worker(batch_size, num_workers,
                                         num_replicas_in_sync // num_workers, worker_index)
    return dataset.rebatch(sizes)


def steps(worker_streams, replicas_per_worker: int, partial: bool = True):
    """Yield global steps ``[worker][local replica] -> value or None`` from iterators.

    With ``partial``, a step is produced while any worker still has a chunk; replicas
    without one get None (the caller gives them a dummy batch, as TF's partial-batch
    handling does). Without it, iteration ends at the first step some replica cannot fill.
    """
    its = [iter(s) for s in worker_streams]
    while True:
        step = [[next(it, None) for _ in range(replicas_per_worker)] for it in its]
        missing = [v is None for chunks in step for v in chunks]
        if all(missing) or (any(missing) and not partial):
            return
        yield step


def is_statically_shaped(spec) -> bool:
    """Whether every leaf's shape is fully known (TF's ``_is_statically_shaped``)."""
    return all(s.shape.is_fully_defined() for s in structure.flatten(spec))


def dummy_batch(spec):
    """The batch of a replica left without data: zeros shaped by TF's rule (see glossary);
    a RaggedTensor of no rows (its ragged dimensions spliced out, then put back empty), a
    SparseTensor of no values (input_lib._dummy_tensor_fn)."""
    from simdist.framework import composite_specs as cs

    def one(s):
        ragged = isinstance(s, cs.RaggedTensorSpec)
        shape = s.shape
        if ragged and shape.rank is not None:
            shape = shape[:1].concatenate(shape[1 + s.ragged_rank:])
        dims = [] if shape.rank is None else [d or 0 for d in shape.as_list()]
        if dims and (ragged or shape.is_fully_defined()):
            dims[0] = 0
        if isinstance(s, cs.SparseTensorSpec):
            return _empty_sparse(dims, s.dtype)
        zeros = backend.xp.zeros(dims, dtype=s.dtype.as_numpy_dtype)
        return _empty_ragged(zeros, s) if ragged else zeros

    return structure.map_leaves(one, spec)


def _empty_ragged(zeros, spec):
    from simdist.framework.ragged_tensor import RaggedTensor

    splits = np.zeros(1, spec.row_splits_dtype.as_numpy_dtype)
    return RaggedTensor.from_nested_row_splits(zeros, (splits,) * spec.ragged_rank,
                                               validate=False)


def _empty_sparse(dims, dtype):
    from simdist.framework.sparse_tensor import SparseTensor

    return SparseTensor(indices=np.zeros((0, len(dims)), np.int64),
                        values=np.zeros(0, dtype.as_numpy_dtype), dense_shape=dims)
