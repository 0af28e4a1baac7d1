"""FILE auto-sharding: each worker of a multi-worker strategy reads whole files of its own.

Glossary:
  files source  -- a dataset of file names (``list_files``, or the names a TextLineDataset
                   was given): ``_is_files``.
  reads_files   -- whether the pipeline reads files: it holds a TextLineDataset, or an
                   ``interleave`` / ``flat_map`` over a files source (its function is taken to
                   open a reader, as in TF's tutorials). AUTO then means FILE, else DATA.
  shard_files   -- the pipeline with every files source followed by ``shard(num_workers,
                   index)``, where TF's rewrite puts it (before a ``list_files`` shuffle):
                   worker ``i`` reads files ``i, i + n, ...`` whole and runs the rest of the
                   pipeline (batching included) on them. Fewer files than workers is TF's
                   InvalidArgumentError.

Mirrors tensorflow/core/grappler/optimizers/data/auto_shard.cc.
"""

from __future__ import annotations

import copy

from simdist.framework import errors


def _nodes(dataset):
    yield dataset
    for d in dataset._inputs:
        yield from _nodes(d)


def _has_files_source(dataset) -> bool:
    return any(getattr(d, "_is_files", False) for d in _nodes(dataset))


def reads_files(dataset) -> bool:
    """Whether TF would find a file reader in the pipeline (see the glossary)."""
    from simdist.data.interleave import InterleaveDataset

    return any(getattr(d, "_reads_files", False)
               or (isinstance(d, InterleaveDataset) and _has_files_source(d._inputs[0]))
               for d in _nodes(dataset))


def shard_files(dataset, num_workers: int, index: int):
    """The pipeline worker ``index`` of ``num_workers`` runs under FILE sharding.

    Raises:
      InvalidArgumentError: a files source with fewer files than workers.
    """
    if getattr(dataset, "_is_files", False):
        count = dataset._cardinality()
        if 0 <= count < num_workers:
            raise errors.InvalidArgumentError(
                None, None,
                f"Could not apply FILE based sharding: the dataset only has {count} file(s), "
                f"which is not enough for the required {num_workers} shards/workers. If you "
                "are using datasets with distribution strategy, consider setting the auto "
                "sharding policy to either DATA or OFF using the "
                "`experimental_distribute.auto_shard_policy` option of `tf.data.Options()`. "
                "Or, split your input files into a larger number of small files such that "
                "number of files is greater than number of shards/workers.")
        return dataset.shard(num_workers, index)
    if not dataset._inputs:
        return dataset
    clone = copy.copy(dataset)
    clone._inputs = tuple(shard_files(d, num_workers, index) for d in dataset._inputs)
    return clone
