"""Variable partitioners and ShardedVariable against TF 2.21's recording
(fixtures/tf_sharded_variable.json, record_tf_sharded_variable.py)."""

import builtins
import json
import os

import numpy as np
import pytest

import simdist as tf
from simdist.distribute.sharded_variable import ShardedVariable, first_axis_shards

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_sharded_variable.json")) as _f:
    TF = json.load(_f)

P = tf.distribute.experimental.partitioners


@pytest.mark.parametrize("case", TF["partitions"],
                         ids=lambda c: f"{c['kind']}-{c['kwargs']}-{c['shape']}-{c['dtype']}")
def test_partitioners_give_tfs_shard_counts(case):
    p = getattr(P, case["kind"])(**case["kwargs"])
    dtype = case["dtype"] if case["dtype"] == "string" else tf.as_dtype(case["dtype"])
    assert list(p(tf.TensorShape(case["shape"]), dtype)) == case["result"]["value"]


@pytest.mark.parametrize("key", sorted(TF["partitioner errors"]))
def test_partitioner_argument_errors_are_tfs(key):
    kind, arg = key.split(" ")
    name, value = arg.split("=")
    kwargs = {"max_shard_bytes": 4} if kind == "MaxSize" else {}
    kwargs[name] = int(value)
    recorded = TF["partitioner errors"][key]
    with pytest.raises(getattr(builtins, recorded["error"])) as e:
        getattr(P, f"{kind}Partitioner")(**kwargs)
    assert str(e.value) == recorded["message"]


def _shards(rows_per_shard, cols=2, name="w"):
    start, out = 0, []
    for i, rows in enumerate(rows_per_shard):
        value = np.arange(start * cols, (start + rows) * cols).reshape(rows, cols)
        out.append(tf.Variable(value.astype(np.float32), name=f"{name}/part_{i}"))
        start += rows
    return out


def test_sharded_variable_reads_and_writes_as_tf():
    rec = TF["sharded"]
    sv = ShardedVariable(_shards([2, 2, 1]), name="w")
    assert sv.shape.as_list() == rec["shape"] and sv.name == rec["name"]
    assert sv.dtype.name == rec["dtype"]
    assert [v.name for v in sv.variables] == rec["shard names"]
    assert [v.shape.as_list() for v in sv.variables] == rec["shard shapes"]
    assert tf.convert_to_tensor(sv).numpy().tolist() == rec["read"]
    assert (sv + 1.0).numpy().tolist() == rec["plus one"]
    assert sv[1:4].numpy().tolist() == rec["getitem 1:4"]
    assert sv[3].numpy().tolist() == rec["getitem 3"]
    assert (sv.assign(np.ones((5, 2), np.float32)) is sv) == rec["assign returns self"]
    sv.assign_add(np.arange(10, dtype=np.float32).reshape(5, 2))
    sv.assign_sub(np.full((5, 2), 0.5, np.float32))
    assert [v.numpy().tolist() for v in sv.variables] == rec["after assign*"]
    assert isinstance(sv, tf.Variable) == rec["is tf.Variable"]


def test_construction_errors_are_tfs():
    rec = TF["construction errors"]
    cases = {
        "empty": lambda: ShardedVariable([]),
        "not variables": lambda: ShardedVariable([1, 2]),
        "mixed dtypes": lambda: ShardedVariable([tf.Variable([1.0]), tf.Variable([1])]),
        "mixed inner shapes": lambda: ShardedVariable([tf.Variable([[1.0]]),
                                                       tf.Variable([[1.0, 2.0]])]),
    }
    for key, make in cases.items():
        with pytest.raises((TypeError, ValueError)) as e:
            make()
        assert type(e.value).__name__ == rec[key]["error"], key
        # TF's message ends with the repr of what it got; the sentence before it is checked.
        assert str(e.value).split(" Received")[0] == rec[key]["message"].split(" Received")[0]
    assert str(e.value) == rec["mixed inner shapes"]["message"]


def test_checkpoint_restores_into_other_shard_counts(tmp_path):
    saved = ShardedVariable(_shards([3, 2, 2], cols=3, name="emb"), name="emb")
    path = tf.train.Checkpoint(emb=saved).write(str(tmp_path / "ckpt"))
    for rows, expected in TF["checkpoint"].items():
        target = ShardedVariable([tf.Variable(np.zeros((r, 3), np.float32))
                                  for r in json.loads(rows)])
        tf.train.Checkpoint(emb=target).read(path).assert_consumed()
        assert [v.numpy().tolist() for v in target.variables] == expected, rows


def test_div_split_gives_the_first_shards_the_extra_rows():
    assert first_axis_shards(10, 4) == [0, 3, 6, 8, 10]
    assert first_axis_shards(3, 5) == [0, 1, 2, 3]
