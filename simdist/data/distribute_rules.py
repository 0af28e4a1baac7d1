"""How ``tf.distribute`` splits a batched dataset among replicas and workers (recorded rules).

Every rule here was recorded from TensorFlow 2.15 (``tests/data/record_tf_splits.py``,
fixture ``tests/data/fixtures/tf_batch_splits.json``) and is replayed by the tests.

Glossary:
  global batch   -- one element of the user's batched dataset (``G`` rows, fewer for a
                    final partial batch).
  legacy split   -- ``_LegacyRebatchDataset``: a batch of ``b`` rows becomes ``R`` chunks of
                    ``ceil(b / R)`` rows, the last ones smaller or **empty**
                    (5 rows, 4 replicas -> 2, 2, 1, 0; 4 rows, 3 replicas -> 2, 2, 0). Every
                    batch, full or partial, is split on its own size. TF takes this path
                    whenever data sharding applies: ``AUTO`` (which falls back to ``DATA``
                    for sources that read no files) and ``DATA`` rewrite the even
                    ``RebatchDatasetV2`` into the legacy one -- so this is what
                    ``MirroredStrategy.experimental_distribute_dataset`` does by default.
  even split     -- ``batch_sizes_for_worker``: ``G`` split into ``W * Rw`` sizes differing by
                    at most one (larger first), rotated by ``worker_index * Rw``; the rows of
                    the batched stream are re-cut with these sizes cycling
                    (``RebatchDatasetV2``). Used with ``AutoShardPolicy.OFF`` (and only when
                    the batch size can be inferred, else legacy split without sharding).
  DATA sharding  -- after the legacy split into ``W * Rw`` chunks per batch, worker ``w``
                    keeps chunks ``w, w + W, w + 2W, ...``: local replica ``j`` of worker
                    ``w`` gets chunk ``w + j * W`` of every global batch.
  OFF            -- no sharding: every worker reads the whole dataset (elements repeat
                    across workers; each worker still sees each element exactly once).
  FILE           -- shards the files a source reads; simdist sources read no files, so with
                    several workers TF's ``NotFoundError`` ("Found an unshardable source
                    dataset") is raised; with one worker nothing is rewritten (as OFF).
  HINT           -- not recorded; treated as OFF (no SHARD_HINT placeholders exist here).
  step           -- local replica ``j`` of worker ``w`` takes the ``j``-th of every ``Rw``
                    consecutive chunks of that worker's stream (TF's MultiDeviceIterator).
                    Steps go on while any worker has a chunk; a replica without one gets an
                    empty batch (TF's partial-batch handling, ``get_next_as_optional``).

The invariant TF actually keeps (tested with hypothesis): over an epoch every element
reaches exactly one replica once per worker pipeline that reads it (once overall for
AUTO/DATA), and within a step the per-replica sizes of the legacy split are
``ceil(b / R)`` except for one remainder chunk and trailing empty chunks -- they do NOT
always differ by at most one (4 rows on 3 replicas give 2, 2, 0).

Mirrors tensorflow/python/data/experimental/ops/distribute.py and
tensorflow/python/distribute/input_lib.py (``_make_rebatch_fn``,
``_create_cloned_datasets_from_dataset``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from simdist.data.options import AutoShardPolicy
from simdist.framework import errors

# --- the two split rules ---------------------------------------------------------------


def legacy_split(batch_rows: int, num_replicas: int) -> list[int]:
    """Sizes of the ``num_replicas`` chunks TF's legacy rebatch cuts a batch into.

    Chunks hold ``ceil(batch_rows / num_replicas)`` rows each, in order, until the rows run
    out; the rest are empty.
    """
    _check_positive(num_replicas, "num_replicas")
    chunk = -(-batch_rows // num_replicas)
    out, left = [], batch_rows
    for _ in range(num_replicas):
        take = min(chunk, left)
        out.append(take)
        left -= take
    return out


def batch_sizes_for_worker(global_batch_size: int, num_workers: int,
                           num_replicas_per_worker: int, worker_index: int) -> list[int]:
    """TF's ``batch_sizes_for_worker``: the even split of ``G``, rotated for this worker."""
    _check_positive(num_workers, "num_workers")
    _check_positive(num_replicas_per_worker, "num_replicas_per_worker")
    if not 0 <= worker_index < num_workers:
        raise ValueError(f"worker_index must be in [0, {num_workers}), got {worker_index}.")
    n = num_workers * num_replicas_per_worker
    floor, num_ceil = divmod(global_batch_size, n)
    worker_0 = [floor + 1] * num_ceil + [floor] * (n - num_ceil)
    offset = worker_index * num_replicas_per_worker
    return worker_0[offset:] + worker_0[:offset]


def rebatch_v2(batch_rows, sizes) -> list[int]:
    """Chunk sizes of ``RebatchDatasetV2``: the rows of the batches re-cut by ``sizes``
    (cycling, chunks may span batches); a final short chunk is kept, and zero sizes give
    empty chunks until a positive size finds no rows left."""
    if not sizes or min(sizes) < 0 or sum(sizes) <= 0:
        raise ValueError(f"sizes must be >= 0 with a positive sum, got {sizes}.")
    left = sum(batch_rows)
    out = []
    for want in itertools.cycle(sizes):
        if want > left:
            if left:
                out.append(left)
            return out
        out.append(want)
        left -= want


def global_batches(dataset_size: int, global_batch: int, drop_remainder: bool) -> list[int]:
    """Row counts of the batches ``range(dataset_size).batch(global_batch, drop_remainder)``."""
    _check_positive(global_batch, "global_batch")
    full, rest = divmod(dataset_size, global_batch)
    return [global_batch] * full + ([rest] if rest and not drop_remainder else [])


# --- whole pipelines -------------------------------------------------------------------


def resolve_policy(policy, num_workers: int = 1, reads_files: bool = False) -> AutoShardPolicy:
    """The policy TF applies: AUTO is FILE for file readers, else DATA.

    With one worker, FILE leaves the pipeline alone (recorded: it then splits like OFF).

    Raises:
      NotFoundError: FILE over several workers on a source that reads no files, as TF.
    """
    policy = AutoShardPolicy(policy)
    if policy == AutoShardPolicy.AUTO:
        return AutoShardPolicy.FILE if reads_files else AutoShardPolicy.DATA
    if policy == AutoShardPolicy.FILE and num_workers == 1:
        return AutoShardPolicy.OFF
    if policy == AutoShardPolicy.FILE and not reads_files:
        raise errors.NotFoundError(
            None, None,
            "Found an unshardable source dataset: FILE auto-sharding needs a dataset that "
            "reads files. Use AutoShardPolicy.DATA (or AUTO) for in-memory data, or OFF.")
    if policy == AutoShardPolicy.HINT:
        # Not recorded: without SHARD_HINT placeholders nothing is sharded.
        return AutoShardPolicy.OFF
    return policy


def worker_chunk_streams(batch_rows, num_replicas: int, num_workers: int = 1,
                         policy=AutoShardPolicy.AUTO, batch_size=None):
    """For each worker, the sizes and starting rows of the chunks its pipeline yields.

    Args:
      batch_rows: row counts of the global batches, in order.
      num_replicas: replicas in sync across all workers.
      num_workers: input pipelines (workers); must divide ``num_replicas``.
      policy: the dataset's ``auto_shard_policy``.
      batch_size: the batch size TF infers (``compute_batch_size``); None or -1 when it
        cannot be inferred (only matters for OFF).

    Returns:
      ``streams[w]`` = list of ``(first_row, size)`` in worker ``w``'s order; rows count
      from 0 over the whole (unsharded) dataset.
    """
    _check_positive(num_replicas, "num_replicas")
    if num_replicas % num_workers:
        raise ValueError(
            "tf.distribute expects every worker to have the same number of replicas. "
            f"However, encountered `num_replicas_in_sync` ({num_replicas}) that cannot be "
            f"divided by `num_workers` ({num_workers})")
    per_worker = num_replicas // num_workers
    starts = list(itertools.accumulate([0] + list(batch_rows)))
    if num_replicas == 1:  # no rebatching at all
        return [[(starts[i], b) for i, b in enumerate(batch_rows)]]
    policy = resolve_policy(policy, num_workers)
    if policy == AutoShardPolicy.DATA:
        streams = [[] for _ in range(num_workers)]
        for start, b in zip(starts, batch_rows):
            offset = start
            for k, size in enumerate(legacy_split(b, num_replicas)):
                streams[k % num_workers].append((offset, size))
                offset += size
        return streams
    # OFF: every worker reads everything and rebatches it on its own.
    streams = []
    for w in range(num_workers):
        if batch_size is None or batch_size < 0:
            sizes = [s for b in batch_rows for s in legacy_split(b, num_replicas)]
        else:
            sizes = rebatch_v2(batch_rows, batch_sizes_for_worker(
                batch_size, num_workers, per_worker, w))
        firsts = itertools.accumulate([0] + sizes)
        streams.append(list(zip(firsts, sizes)))
    return streams


def group_steps(streams, replicas_per_worker: int):
    """Cut each worker's chunk stream into steps of ``replicas_per_worker`` chunks.

    Returns ``steps[s][w][j]``: the chunk of local replica ``j`` of worker ``w`` at step
    ``s``, or None where that replica gets an empty batch (its worker ran out first).
    """
    n_steps = max((-(-len(s) // replicas_per_worker) for s in streams), default=0)
    steps = []
    for s in range(n_steps):
        lo = s * replicas_per_worker
        steps.append([[stream[lo + j] if lo + j < len(stream) else None
                       for j in range(replicas_per_worker)] for stream in streams])
    return steps


# --- the plan the app draws ------------------------------------------------------------


@dataclass(frozen=True)
class ReplicaBatch:
    """What one replica receives in one step."""

    worker: int
    replica: int          # local replica index on its worker
    global_replica: int   # worker * replicas_per_worker + replica (TF's device order)
    elements: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.elements)


@dataclass
class DistributionPlan:
    """For each step, which dataset elements (by position) each replica of each worker got."""

    dataset_size: int
    global_batch: int
    num_replicas: int
    num_workers: int
    drop_remainder: bool
    policy: AutoShardPolicy
    steps: list[list[ReplicaBatch]] = field(default_factory=list)

    @property
    def replicas_per_worker(self) -> int:
        return self.num_replicas // self.num_workers

    def batch_sizes(self) -> list[list[int]]:
        """``[step][global_replica]`` per-replica batch sizes."""
        return [[rb.size for rb in step] for step in self.steps]

    def elements(self) -> list[list[list[int]]]:
        """``[step][global_replica]`` element indices."""
        return [[list(rb.elements) for rb in step] for step in self.steps]

    def to_dict(self) -> dict:
        """A JSON-ready description (for the app and for saving)."""
        return {"dataset_size": self.dataset_size, "global_batch": self.global_batch,
                "num_replicas": self.num_replicas, "num_workers": self.num_workers,
                "drop_remainder": self.drop_remainder, "policy": self.policy.name,
                "steps": [[{"worker": rb.worker, "replica": rb.replica,
                            "global_replica": rb.global_replica,
                            "elements": list(rb.elements)} for rb in step]
                          for step in self.steps]}


def plan_distribution(dataset_size: int, global_batch: int, num_replicas: int,
                      num_workers: int = 1, drop_remainder: bool = False,
                      policy=AutoShardPolicy.AUTO, batch_size_known: bool = True
                      ) -> DistributionPlan:
    """Which elements of ``range(dataset_size).batch(global_batch, drop_remainder)`` each
    replica gets at each step under ``experimental_distribute_dataset``, as TF does it.

    Raises:
      ValueError: for non-positive sizes or replicas not divisible by workers.
      NotFoundError: for FILE sharding (simdist sources read no files), as TF.
    """
    if dataset_size < 0:
        raise ValueError(f"dataset_size must be >= 0, got {dataset_size}.")
    _check_positive(num_workers, "num_workers")
    rows = global_batches(dataset_size, global_batch, drop_remainder)
    streams = worker_chunk_streams(rows, num_replicas, num_workers, policy,
                                   global_batch if batch_size_known else None)
    rpw = num_replicas // num_workers
    plan = DistributionPlan(dataset_size, global_batch, num_replicas, num_workers,
                            bool(drop_remainder), AutoShardPolicy(policy))
    for step in group_steps(streams, rpw):
        plan.steps.append([
            ReplicaBatch(w, j, w * rpw + j,
                         () if chunk is None else tuple(range(chunk[0], chunk[0] + chunk[1])))
            for w, chunks in enumerate(step) for j, chunk in enumerate(chunks)])
    return plan


def _check_positive(value: int, what: str) -> None:
    if int(value) <= 0:
        raise ValueError(f"{what} must be a positive integer, got {value}.")
