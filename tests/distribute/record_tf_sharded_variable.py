"""Record what TF 2.21 does with the variable partitioners and ShardedVariable
(fixtures/tf_sharded_variable.json): the shard counts of FixedShards-, MinSize- and
MaxSizePartitioner for several shapes and dtypes, their argument errors, a ShardedVariable's
shape, name, reads and assign* results, its construction errors, and a checkpoint of 3 shards
restored into 2 and into 4. test_sharded_variable.py checks simdist gives the same.

Run with the TensorFlow interpreter (not simdist's venv):
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \
        tests/distribute/record_tf_sharded_variable.py
"""

import json
import os
import tempfile

import numpy as np
import tensorflow as tf
from record_tf_tpu import outcome  # the same recording helper (this folder, under TF)
from tensorflow.python.distribute.sharded_variable import ShardedVariable

HERE = os.path.dirname(os.path.abspath(__file__))
P = tf.distribute.experimental.partitioners

# (partitioner kind, kwargs, shape, dtype)
PARTITION_CASES = [
    ("FixedShardsPartitioner", {"num_shards": 2}, [10, 3], "float32"),
    ("FixedShardsPartitioner", {"num_shards": 5}, [3, 4], "float32"),
    ("FixedShardsPartitioner", {"num_shards": 3}, [7], "int32"),
    ("MinSizePartitioner", {"min_shard_bytes": 4, "max_shards": 2}, [6, 1], "float32"),
    ("MinSizePartitioner", {"min_shard_bytes": 4, "max_shards": 10}, [6, 1], "float32"),
    ("MinSizePartitioner", {}, [1024, 1024], "float32"),
    ("MinSizePartitioner", {"min_shard_bytes": 100, "max_shards": 8}, [50, 3], "float64"),
    ("MinSizePartitioner", {"min_shard_bytes": 16, "max_shards": 8}, [10], "string"),
    ("MaxSizePartitioner", {"max_shard_bytes": 4}, [6, 1], "float32"),
    ("MaxSizePartitioner", {"max_shard_bytes": 4, "max_shards": 2}, [6, 1], "float32"),
    ("MaxSizePartitioner", {"max_shard_bytes": 1024}, [10, 1024], "float32"),
    ("MaxSizePartitioner", {"max_shard_bytes": 30}, [7, 2], "int64"),
    ("MaxSizePartitioner", {"max_shard_bytes": 40, "bytes_per_string": 8}, [9], "string"),
]

ERROR_CASES = {
    "MinSize min_shard_bytes=0": lambda: P.MinSizePartitioner(min_shard_bytes=0),
    "MinSize max_shards=0": lambda: P.MinSizePartitioner(max_shards=0),
    "MinSize bytes_per_string=0": lambda: P.MinSizePartitioner(bytes_per_string=0),
    "MaxSize max_shard_bytes=0": lambda: P.MaxSizePartitioner(max_shard_bytes=0),
    "MaxSize max_shards=-1": lambda: P.MaxSizePartitioner(max_shard_bytes=4, max_shards=-1),
    "MaxSize bytes_per_string=0": lambda: P.MaxSizePartitioner(4, bytes_per_string=0),
}


# The same program as test_sharded_variable._shards, run under TF.
def shards(rows_per_shard, cols=2, dtype=tf.float32, name="w"):
    start, out = 0, []
    for i, rows in enumerate(rows_per_shard):
        value = np.arange(start * cols, (start + rows) * cols).reshape(rows, cols)
        out.append(tf.Variable(value.astype(dtype.as_numpy_dtype), name=f"{name}/part_{i}"))
        start += rows
    return out


def sharded_results():
    sv = ShardedVariable(shards([2, 2, 1]), name="w")
    out = {
        "shape": sv.shape.as_list(), "name": sv.name, "dtype": sv.dtype.name,
        "shard names": [v.name for v in sv.variables],
        "shard shapes": [v.shape.as_list() for v in sv.variables],
        "read": tf.convert_to_tensor(sv).numpy().tolist(),
        "plus one": (sv + 1.0).numpy().tolist(),
        "getitem 1:4": sv[1:4].numpy().tolist(),
        "getitem 3": sv[3].numpy().tolist(),
        "assign returns self": sv.assign(np.ones((5, 2), np.float32)) is sv,
    }
    sv.assign_add(np.arange(10, dtype=np.float32).reshape(5, 2))
    sv.assign_sub(np.full((5, 2), 0.5, np.float32))
    out["after assign*"] = [v.numpy().tolist() for v in sv.variables]
    out["is tf.Variable"] = isinstance(sv, tf.Variable)
    return out


def construction_errors():
    return {
        "empty": outcome(lambda: ShardedVariable([]) and None),
        "not variables": outcome(lambda: ShardedVariable([1, 2]) and None),
        "mixed dtypes": outcome(lambda: ShardedVariable(
            [tf.Variable([1.0], name="a"), tf.Variable([1], name="b")]) and None),
        "mixed inner shapes": outcome(lambda: ShardedVariable(
            [tf.Variable([[1.0]], name="a"), tf.Variable([[1.0, 2.0]], name="b")]) and None),
    }


def checkpoint_across_shard_counts():
    d = tempfile.mkdtemp()
    saved = ShardedVariable(shards([3, 2, 2], cols=3), name="emb")
    path = tf.train.Checkpoint(emb=saved).write(os.path.join(d, "ckpt"))
    out = {}
    for rows in ([4, 3], [2, 2, 2, 1], [7]):
        target = ShardedVariable([tf.Variable(np.zeros((r, 3), np.float32)) for r in rows])
        tf.train.Checkpoint(emb=target).read(path).assert_consumed()
        out[str(rows)] = [v.numpy().tolist() for v in target.variables]
    return out


def main():
    partitions = []
    for kind, kwargs, shape, dtype in PARTITION_CASES:
        p = getattr(P, kind)(**kwargs)
        partitions.append({"kind": kind, "kwargs": kwargs, "shape": shape, "dtype": dtype,
                           "result": outcome(lambda p=p, s=shape, d=dtype: list(
                               p(tf.TensorShape(s), tf.as_dtype(d))))})
    results = {
        "tf_version": tf.__version__,
        "partitions": partitions,
        "partitioner errors": {k: outcome(lambda f=f: f() and None)
                               for k, f in ERROR_CASES.items()},
        "sharded": sharded_results(),
        "construction errors": construction_errors(),
        "checkpoint": checkpoint_across_shard_counts(),
    }
    with open(os.path.join(HERE, "fixtures", "tf_sharded_variable.json"), "w") as f:
        json.dump(results, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
