"""Cluster descriptions beyond the recorded cases: simulated GPUs, ClusterDef, who leads."""

import json

import pytest

import simdist as tf
from simdist.distribute import multi_worker_util as mwu
from simdist.testing import reset_world

CLUSTER = {"chief": ["c:1"], "worker": ["w0:1", "w1:1"], "ps": ["p0:1"],
           "evaluator": ["e:1"]}


def test_num_accelerators_counts_the_simulated_gpus_of_this_process(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    assert dict(resolver.num_accelerators()) == {"GPU": 4}
    # A TF_CONFIG task names /job:worker devices; this process's are /job:localhost (as TF).
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1", "b:1"]},
                                                "task": {"type": "worker", "index": 0}}))
    assert dict(resolver.num_accelerators()) == {}
    assert dict(resolver.num_accelerators("localhost", 0)) == {"GPU": 4}


def test_cluster_def_round_trip_sorts_jobs():
    spec = tf.train.ClusterSpec({"worker": {2: "w2:1"}, "chief": ["c:1"]})
    cdef = spec.as_cluster_def()
    assert isinstance(cdef, tf.train.ClusterDef)
    assert [(j.name, j.tasks) for j in cdef.job] == [("chief", {0: "c:1"}),
                                                     ("worker", {2: "w2:1"})]
    again = tf.train.ClusterSpec(cdef)
    assert again == spec and again.jobs == ["chief", "worker"]
    assert tf.train.ClusterSpec(tf.train.ClusterDef([tf.train.JobDef("ps", {0: "p:1"})])
                                ).as_dict() == {"ps": ["p:1"]}


@pytest.mark.parametrize("task_type,task_id,chief,rank", [
    ("chief", 0, True, 0), ("worker", 0, False, 1), ("worker", 1, False, 2),
    ("evaluator", 0, True, 0)])
def test_chief_and_rank(task_type, task_id, chief, rank):
    assert mwu.is_chief(CLUSTER, task_type, task_id) is chief
    assert mwu.id_in_cluster(CLUSTER, task_type, task_id) == rank


def test_leaders_and_worker_count():
    assert mwu.collective_leader(CLUSTER, "worker", 1) == "/job:chief/replica:0/task:0"
    assert mwu.collective_leader({"worker": ["a:1"]}, "worker", 0) == \
        "/job:worker/replica:0/task:0"
    assert mwu.coordination_leader(CLUSTER) == "/job:ps/replica:0/task:0"
    assert mwu.worker_count(CLUSTER, "worker") == 3
    assert mwu.worker_count(CLUSTER, "evaluator") == 1
    with pytest.raises(ValueError, match="Unexpected"):
        mwu.worker_count(CLUSTER, "ps")
    with pytest.raises(ValueError, match="should be dict"):
        mwu.normalize_cluster_spec(["a:1"])


def test_multi_worker_mode_and_chief_duties(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"chief": ["c:1"],
                                                            "worker": ["w:1"]},
                                                "task": {"type": "worker", "index": 0}}))
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    ext = strategy.extended
    assert ext._in_multi_worker_mode() and ext.experimental_should_init
    assert not ext.should_checkpoint and not ext.should_save_summary
    reset_world()   # another task's program: TF configures collective ops once per program
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["w:1"],
                                                            "evaluator": ["e:1"]},
                                                "task": {"type": "evaluator", "index": 0}}))
    evaluator = tf.distribute.MultiWorkerMirroredStrategy().extended
    assert not evaluator._in_multi_worker_mode() and evaluator.should_checkpoint
