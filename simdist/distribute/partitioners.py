"""``tf.distribute.experimental.partitioners``: how ParameterServerStrategy shards a variable."""

from simdist.distribute.sharded_variable import (
    FixedShardsPartitioner,
    MaxSizePartitioner,
    MinSizePartitioner,
    Partitioner,
)

__all__ = ["FixedShardsPartitioner", "MaxSizePartitioner", "MinSizePartitioner", "Partitioner"]
