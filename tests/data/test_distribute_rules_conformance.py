"""Replay every batch split recorded from TensorFlow against simdist.data.distribute_rules."""

import json
import os

import pytest

from simdist.data import distribute_rules as rules
from simdist.framework import errors

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_batch_splits.json")
with open(FIXTURE) as f:
    RECORDED = json.load(f)


def _single_id(c):
    return (f"{c['pipeline']}-{c.get('policy', 'AUTO')}-n{c['size']}-G{c['global_batch']}"
            f"-R{c['replicas']}-{'drop' if c['drop_remainder'] else 'keep'}")


@pytest.mark.parametrize("case", RECORDED["batch_sizes_for_worker"],
                         ids=lambda c: f"G{c['global_batch']}-W{c['workers']}"
                                       f"-R{c['replicas_per_worker']}-w{c['worker_index']}")
def test_batch_sizes_for_worker_matches_tf(case):
    assert rules.batch_sizes_for_worker(case["global_batch"], case["workers"],
                                        case["replicas_per_worker"],
                                        case["worker_index"]) == case["batch_sizes"]


def test_single_worker_splits_match_tf():
    checked = 0
    for c in RECORDED["single_worker"]:
        policy = c.get("policy", "AUTO")
        known = c["computed_batch_size"] == c["global_batch"]
        plan = rules.plan_distribution(c["size"], c["global_batch"], c["replicas"], 1,
                                       c["drop_remainder"], rules.AutoShardPolicy[policy],
                                       batch_size_known=known)
        assert plan.elements() == c["steps"], _single_id(c)
        checked += 1
    assert checked >= 1000


def test_multi_worker_streams_match_tf():
    checked = 0
    for c in RECORDED["multi_worker"]:
        policy = rules.AutoShardPolicy[c["policy"]]
        rows = rules.global_batches(c["size"], c["global_batch"], c["drop_remainder"])
        total = c["workers"] * c["replicas_per_worker"]
        if "error" in c:
            with pytest.raises(getattr(errors, c["error"])):
                rules.worker_chunk_streams(rows, total, c["workers"], policy, c["global_batch"])
            continue
        streams = rules.worker_chunk_streams(rows, total, c["workers"], policy,
                                             c["global_batch"])
        got = [[list(range(a, a + n)) for a, n in s] for s in streams]
        assert got == c["streams"], c
        checked += 1
    assert checked >= 1000


def test_legacy_split_examples_from_tf_docstring():
    # _LegacyRebatchDataset docstring: range(8).batch(4), 3 replicas -> [0,1],[2,3],[]
    assert rules.legacy_split(4, 3) == [2, 2, 0]
    assert rules.legacy_split(5, 4) == [2, 2, 1, 0]
    assert rules.legacy_split(7, 3) == [3, 3, 1]


def test_batch_sizes_for_worker_docstring_example():
    # TF's docstring: G=7, W=2, R=2 -> worker 0 [2, 2, 2, 1], worker 1 [2, 1, 2, 2]
    assert rules.batch_sizes_for_worker(7, 2, 2, 0) == [2, 2, 2, 1]
    assert rules.batch_sizes_for_worker(7, 2, 2, 1) == [2, 1, 2, 2]


def _worker_streams(size, batch, drop, replicas, workers, policy):
    """Each worker's stream of per-replica chunks from simdist's rebatching of a real dataset."""
    from simdist import data
    from simdist.data import distribute as dist

    streams = []
    for w in range(workers):
        ds = data.Dataset.range(size).batch(batch, drop_remainder=drop)
        if policy != "AUTO":
            opts = data.Options()
            opts.experimental_distribute.auto_shard_policy = data.AutoShardPolicy[policy]
            ds = ds.with_options(opts)
        streams.append(dist.rebatch_for_worker(ds, replicas, workers, w)._values())
    return streams


def _dataset_steps(size, batch, drop, replicas, workers=1, policy="AUTO"):
    from simdist.data import distribute as dist

    streams = _worker_streams(size, batch, drop, replicas, workers, policy)
    out = []
    for step in dist.steps(streams, replicas // workers):
        out.append([[] if v is None else [int(x) for x in v] for chunks in step for v in chunks])
    return out


def test_real_datasets_split_like_tf_single_worker():
    checked = 0
    for c in RECORDED["single_worker"]:
        if c["pipeline"] != "batch":
            continue
        got = _dataset_steps(c["size"], c["global_batch"], c["drop_remainder"], c["replicas"],
                             1, c.get("policy", "AUTO"))
        assert got == c["steps"], _single_id(c)
        checked += 1
    assert checked >= 1000


def test_real_datasets_split_like_tf_multi_worker():
    checked = 0
    for c in RECORDED["multi_worker"]:
        if "error" in c:
            continue
        total = c["workers"] * c["replicas_per_worker"]
        streams = _worker_streams(c["size"], c["global_batch"], c["drop_remainder"], total,
                                  c["workers"], c["policy"])
        got = [[[int(x) for x in v] for v in stream] for stream in streams]
        assert got == c["streams"], c
        checked += 1
    assert checked >= 1000
