"""CUDA_VISIBLE_DEVICES hides and renumbers simulated GPUs as the CUDA driver does for TF:
the values that hide every GPU replay TF 2.21's recorded devices and strategy
(record_tf_visible_devices.py); lists follow CUDA's documented rules (order, first invalid
entry ends the list, a repeated index hides all; see hardware/cuda_visible_devices.py)."""

import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st
from visible_devices_cases import HIDE_ALL, describe

import simdist as tf
from simdist.hardware.cuda_visible_devices import visible_order
from simdist.hardware.machine import get_machine
from simdist.hardware.topologies.common import device_name
from simdist.testing import reset_world

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_visible_devices.json")) as f:
    RECORDED = json.load(f)["results"]


def _world(monkeypatch, value, machine="default"):
    monkeypatch.setenv("SIMDIST_MACHINE", machine)
    if value is None:
        monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    else:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", value)
    reset_world()


def test_every_case_was_recorded():
    assert set(RECORDED) == set(HIDE_ALL)


@pytest.mark.parametrize("value", HIDE_ALL)
def test_hiding_every_gpu_leaves_tf_s_one_cpu_replica(monkeypatch, value):
    _world(monkeypatch, value)  # 4 simulated V100s, all hidden
    assert describe(tf) == RECORDED[value]


def test_unset_shows_every_gpu(monkeypatch):
    _world(monkeypatch, None)
    assert len(tf.config.list_physical_devices("GPU")) == 4


@pytest.mark.parametrize("value, order", [
    ("2,1", [2, 1]),            # CUDA's example: device 0 invisible, 2 before 1
    ("0,2,-1,1", [0, 2]),       # CUDA's example: -1 ends the list
    ("1,0", [1, 0]),
    ("3", [3]),
    ("1,9,0", [1]),             # an index past the last GPU is invalid too
    ("0,0", []),                # a repeated index hides every GPU
    ("1gpu,2 ", [1, 2]),        # read as strtoul reads it
    ("GPU-8932f937", []),       # simulated GPUs have no UUIDs
])
def test_cuda_s_rules(value, order):
    assert visible_order(value, 4) == order


@given(st.lists(st.integers(-2, 6), max_size=6))
def test_visible_gpus_are_distinct_existing_ones(entries):
    order = visible_order(",".join(map(str, entries)), 4)
    assert len(set(order)) == len(order) and all(0 <= i < 4 for i in order)
    assert order == entries[:len(order)] or order == []


def test_a_list_renumbers_gpus_and_their_links(monkeypatch):
    _world(monkeypatch, "3,0,1", machine="dgx1")  # DGX-1: 0-3 has 2 NVLinks, 0-1 has 1
    assert [d.name for d in tf.config.list_physical_devices("GPU")] == [
        f"/physical_device:GPU:{i}" for i in range(3)]
    strategy = tf.distribute.MirroredStrategy()
    assert strategy.num_replicas_in_sync == 3
    graph = get_machine().topology.graph
    gpu = [device_name("GPU", i) for i in range(3)]
    assert graph.edges[gpu[0], gpu[1]]["links"] == 2  # physical 3 -- physical 0
    assert graph.edges[gpu[1], gpu[2]]["links"] == 1  # physical 0 -- physical 1
    assert get_machine().topology.devices == gpu
    out = strategy.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "sum", tf.constant(1.0)))
    assert [float(v) for v in strategy.experimental_local_results(out)] == [3.0] * 3


def test_read_once_at_first_use(monkeypatch):
    _world(monkeypatch, "0")
    assert len(tf.config.list_physical_devices("GPU")) == 1
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "-1")  # too late: the devices exist
    assert len(tf.config.list_physical_devices("GPU")) == 1
    reset_world()  # a new process, as it were
    assert tf.config.list_physical_devices("GPU") == []


def test_tutorial_cluster_gets_one_cpu_replica_per_worker(monkeypatch):
    # TF's multi-worker tutorial: CUDA_VISIBLE_DEVICES=-1, two workers in TF_CONFIG.
    monkeypatch.setenv("SIMDIST_CLUSTER_MODE", "simulate")
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["localhost:12345", "localhost:23456"]},
        "task": {"type": "worker", "index": 0}}))
    _world(monkeypatch, "-1")
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    assert strategy.extended.worker_devices == tuple(
        f"/job:worker/replica:0/task:{i}/device:CPU:0" for i in range(2))
