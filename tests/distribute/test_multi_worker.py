"""MultiWorkerMirroredStrategy: TF_CONFIG, one simulated process playing every worker."""

import json

import pytest

import simdist as tf
from simdist.hardware.machine import get_machine


@pytest.fixture
def two_workers(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["host1:2222", "host2:2222"]},
        "task": {"type": "worker", "index": 1}}))


def test_without_tf_config_it_is_one_local_worker(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert strategy.num_replicas_in_sync == 4
    assert type(strategy.extended._get_cross_device_ops()).__name__ == "CollectiveAllReduce"


def test_tf_config_cluster_gives_every_worker_its_replicas(two_workers):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert strategy.num_replicas_in_sync == 8
    assert strategy.extended.worker_devices[4] == "/job:worker/replica:0/task:1/device:GPU:0"
    assert strategy.cluster_resolver.task_id == 1
    with strategy.scope():
        v = tf.Variable(1.0, aggregation=tf.VariableAggregation.SUM)
    strategy.run(lambda: v.assign_add(tf.ones([])))
    assert float(v.numpy()) == 9.0


def test_data_sharding_across_workers_follows_tf(two_workers):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    steps = [[p.numpy().tolist() for p in strategy.experimental_local_results(x)]
             for x in strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(8))]
    # DATA sharding: local replica j of worker w gets chunk w + j * W of each global batch.
    assert steps == [[[0], [2], [4], [6], [1], [3], [5], [7]]]


def test_gradient_all_reduce_crosses_the_infiniband_fabric(two_workers):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    pr = strategy.run(lambda: tf.ones([1 << 16]))
    out = strategy.extended.batch_reduce_to("SUM", [(pr, pr)])[0]
    assert float(strategy.experimental_local_results(out)[7][0]) == 8.0
    transfers = get_machine().trace.filter(cat="transfer")
    tasks = {e.device.split("/task:")[1][0] for e in transfers}
    assert tasks == {"0", "1"}


def test_bad_tf_config_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", "{not json")
    with pytest.raises(json.JSONDecodeError):
        tf.distribute.MultiWorkerMirroredStrategy()
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1"]},
                                                "task": {"type": "worker", "index": 3}}))
    with pytest.raises(ValueError, match="exceeds the maximum id of worker"):
        tf.distribute.MultiWorkerMirroredStrategy()


def test_file_pipelines_give_each_worker_whole_files(two_workers, tmp_path):
    """AUTO means FILE for a pipeline that reads files: worker w reads files w, w + 2, ...
    whole (recorded from TF in tests/data/file_cases.py), and every line is read once."""
    strategy = tf.distribute.MultiWorkerMirroredStrategy()   # first, as TF requires
    for i in range(4):
        (tmp_path / f"f{i}.txt").write_text("".join(f"{i}-{j}\n" for j in range(4)))
    files = tf.data.Dataset.list_files(str(tmp_path / "f*.txt"), shuffle=False)
    dataset = files.interleave(tf.data.TextLineDataset, cycle_length=2).batch(8)
    seen = {0: [], 1: []}
    for x in strategy.experimental_distribute_dataset(dataset):
        for replica, part in enumerate(strategy.experimental_local_results(x)):
            seen[replica // 4] += [line.decode() for line in part.numpy()]
    assert {line[0] for line in seen[0]} == {"0", "2"}
    assert {line[0] for line in seen[1]} == {"1", "3"}
    assert sorted(seen[0] + seen[1]) == sorted(f"{i}-{j}" for i in range(4) for j in range(4))
