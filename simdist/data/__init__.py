"""``tf.data``: input pipelines whose elements are host Tensors.

Glossary:
  Dataset            -- a lazy, re-iterable pipeline (``from_tensor_slices``, ``range``,
                        ``list_files``, ``map``, ``interleave``, ``batch``, ``shuffle`` ...).
  TextLineDataset    -- the lines of text files; TFRecordDataset: the records of TFRecord
                        files (readers.py).
  DatasetSpec        -- the spec of a dataset-valued component (a ``window``'s).
  Options            -- options a dataset carries (``experimental_distribute.auto_shard_policy``).
  AUTOTUNE           -- -1; INFINITE_CARDINALITY -1; UNKNOWN_CARDINALITY -2.
  experimental       -- ``AutoShardPolicy``, ``AUTOTUNE``, ``cardinality``.
  distribute_rules   -- how ``tf.distribute`` splits global batches among replicas and
                        workers, recorded from TensorFlow.
  dataset_autograph  -- ``for x in dataset`` / ``iterator`` in converted code (registered
                        with AutoGraph's for-loop registry on import).

Mirrors tensorflow/python/data/__init__.py.
"""

from simdist.data import (
    dataset_autograph,  # noqa: F401 - AutoGraph's dataset loops
    experimental,
)
from simdist.data.dataset_ops import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    Dataset,
    DatasetV2,
    OwnedIterator,
)
from simdist.data.options import AutoShardPolicy, DistributeOptions, Options
from simdist.data.readers import TextLineDataset, TFRecordDataset
from simdist.data.windowing import DatasetSpec
from simdist.framework.tensor_spec import TensorSpec

Iterator = OwnedIterator

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "AutoShardPolicy",
           "Dataset", "DatasetSpec", "DatasetV2", "DistributeOptions", "Iterator", "Options",
           "TFRecordDataset", "TensorSpec", "TextLineDataset", "experimental"]
