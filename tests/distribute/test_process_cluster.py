"""MultiWorkerMirroredStrategy across real processes on 127.0.0.1: one process per task.

Every test starts its workers in their own sessions with free ports and a bounded wait,
and kills every process group it started (cluster_processes.run_cluster).
"""

import json
import os
import threading
import time

import numpy as np
import pytest
from cluster_processes import cluster_config, result_of, run_cluster, tasks_of

import simdist as tf
from simdist.collectives.transport import Peers

pytestmark = pytest.mark.timeout(120)


def _simulated(program, cluster, env=None, timeout=60):
    """The same program with the whole cluster simulated in one process (task 0's view)."""
    import subprocess
    import sys

    from cluster_processes import PROGRAMS, ROOT

    full = dict(os.environ, SIMDIST_MACHINE="cpu", SIMDIST_CLUSTER_MODE="simulate",
                PYTHONPATH=str(ROOT), TF_CONFIG=json.dumps(
                    {"cluster": cluster, "task": {"type": tasks_of(cluster)[0][0],
                                                  "index": 0}}), **(env or {}))
    p = subprocess.run([sys.executable, str(PROGRAMS / program)], env=full, cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr[-3000:]
    return result_of(p.stdout)


def _ok(results):
    for rc, res, err in results:
        assert rc == 0 and res is not None, err
    return [res for _, res, _ in results]


@pytest.mark.parametrize("n,chief", [(2, False), (3, True)])
def test_custom_loop_is_one_cluster_and_bit_identical_to_the_simulation(n, chief):
    cluster = cluster_config(n, chief)
    results = _ok(run_cluster("custom_loop.py", cluster=cluster))
    sim = _simulated("custom_loop.py", cluster)
    assert sim["num_replicas_in_sync"] == n and len(sim["local_losses"][0]) == n
    for w, res in enumerate(results):
        # One replica per worker; the cluster counts them all.
        assert res["num_replicas_in_sync"] == n and res["multi_worker"]
        assert res["replica_ids"] == [w]
        assert res["should_checkpoint"] == (w == 0)
        # Every worker ends with the very weights the one-process simulation computes.
        assert res["weights"] == sim["weights"] and res["initial"] == sim["initial"]
        # Each worker read its own shard and computed its replica's loss as simulated.
        assert res["inputs"] == [[step[w]] for step in sim["inputs"]]
        assert [s[0] for s in res["local_losses"]] == [s[w] for s in sim["local_losses"]]
        assert res["max_loss"] == max(sim["local_losses"][-1])
        assert res["step_weights"] == sim["step_weights"]
        # The same ring schedules in both modes: reduced losses are bit-identical too.
        assert res["losses"] == sim["losses"]
    assert sim["losses"][-1] < sim["losses"][0]


def test_keras_tutorial_runs_as_two_processes_as_tensorflow_ran_it(tmp_path):
    """TF's "Multi-worker training with Keras" (cluster_programs/keras_tutorial.py: its CNN,
    fit, the chief-only save, the chief's load and fit on) as 2 real processes: bit-identical
    to the one-process simulation, and the numbers TF 2.21 recorded running the same program
    as 2 processes (record_tf_cluster.py -> fixtures/tf_keras_tutorial.json)."""
    cluster = cluster_config(2)
    env = {"MODEL_DIR": str(tmp_path), "INIT": "constant"}
    results = _ok(run_cluster("keras_tutorial.py", cluster=cluster, env=env))
    sim_dir = tmp_path / "sim"
    sim_dir.mkdir()
    sim = _simulated("keras_tutorial.py", cluster, {"MODEL_DIR": str(sim_dir), "INIT": "constant"})
    for res in results:
        assert res["history"] == results[0]["history"] == sim["history"]
        assert res["weights"] == sim["weights"]
    assert [r["should_checkpoint"] for r in results] == [True, False]
    # The chief's model stays; worker 1 wrote to workertemp_1, then removed it.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keras-model", "sim"]
    assert (tmp_path / "keras-model").exists()
    with open(os.path.join(os.path.dirname(__file__), "fixtures",
                           "tf_keras_tutorial.json")) as f:
        recorded = json.load(f)["workers"]
    for res, want in zip(results, recorded, strict=True):
        assert res["task"] == want["task"]
        assert res["num_replicas_in_sync"] == want["num_replicas_in_sync"] == 2
        for key in ("loss", "accuracy"):
            np.testing.assert_allclose(res["history"][key], want["history"][key], rtol=1e-5)
        np.testing.assert_allclose(res["weight_sums"], want["weight_sums"], rtol=1e-4)
        assert res["loaded"].get("layers") == want["loaded"].get("layers")
        if want["loaded"]:  # the chief loaded the saved model and trained it on
            for key in ("loss", "accuracy"):
                np.testing.assert_allclose(res["loaded"]["history"][key],
                                           want["loaded"]["history"][key], rtol=1e-5)


def test_a_dead_worker_makes_every_other_raise_unavailable_naming_it():
    start = time.monotonic()
    results = run_cluster("custom_loop.py", n=3, env={"FAULT_TASK": "1", "FAULT_STEP": "2"},
                          timeout=60)
    elapsed = time.monotonic() - start
    assert results[1][0] == 3  # the killed one
    for rc, res, err in (results[0], results[2]):
        assert rc == 0, err
        kind, message = res["error"]
        assert kind == "UnavailableError"
        assert "/job:worker/replica:0/task:1" in message
        assert len(res["losses"]) == 2  # the steps before the fault completed
    assert elapsed < 40  # bounded by SIMDIST_CLUSTER_TIMEOUT=5, not a hang


def _peers_in_thread(addresses, me, key, out, timeout=5.0):
    def run():
        try:
            out[me] = Peers(addresses, me, [f"/job:worker/replica:0/task:{i}"
                                            for i in range(len(addresses))], key, timeout)
        except Exception as e:  # noqa: BLE001 - reported by the test
            out[me] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_peers_authenticate_refuse_outsiders_and_carry_arrays_bit_for_bit():
    from multiprocessing.connection import AuthenticationError, Client

    from cluster_processes import free_ports

    addresses = [f"127.0.0.1:{p}" for p in free_ports(2)]
    out = {}
    t0 = _peers_in_thread(addresses, 0, b"cluster-key", out)
    deadline = time.monotonic() + 10
    while True:  # an outsider with another key is refused, before anything is unpickled
        try:
            Client(("127.0.0.1", int(addresses[0].split(":")[1])), authkey=b"wrong")
            raise AssertionError("a wrong key was accepted")
        except AuthenticationError:
            break
        except ConnectionRefusedError:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    t1 = _peers_in_thread(addresses, 1, b"cluster-key", out)
    t0.join(10)
    t1.join(10)
    p0, p1 = out[0], out[1]
    assert isinstance(p0, Peers) and isinstance(p1, Peers), out
    assert p0.refused == 1
    x = np.array([0.1, -0.0, np.nan, 1e-38], dtype=np.float32)
    p1.send(0, 1, [x])
    got = p0.recv(1, 1)[0]
    assert got.tobytes() == x.tobytes()
    p1.close()
    with pytest.raises(tf.errors.UnavailableError, match="task:1"):
        p0.recv(1, 2)
    p0.close()


def test_a_peer_that_hangs_without_reading_is_named_within_the_timeout():
    """A step where this task only sends: a peer alive but reading nothing (hung) fills the
    socket, and the send would block forever; the wait for it is bounded by the cluster
    timeout and ends in UnavailableError naming the peer (it hung before)."""
    from cluster_processes import free_ports

    from simdist.collectives.executor import Exchange
    from simdist.collectives.schedule import Transfer

    addresses = [f"127.0.0.1:{p}" for p in free_ports(2)]
    out = {}
    threads = [_peers_in_thread(addresses, me, b"k", out, timeout=1.0) for me in (0, 1)]
    for t in threads:
        t.join(10)
    p0, p1 = out[0], out[1]
    assert isinstance(p0, Peers) and isinstance(p1, Peers), out
    big = np.zeros(16 * 2**20, np.uint8)   # far more than a socket buffer
    try:
        with pytest.raises(tf.errors.UnavailableError,
                           match="task:1 is unavailable: it read nothing sent to it for 1 s"):
            Exchange([0, 1], 0, p0).trade([Transfer(0, 1, 0, False)], [big])
    finally:
        p1.close()
        p0.close()


def test_a_task_that_never_starts_is_named_within_the_timeout():
    from cluster_processes import free_ports

    addresses = [f"127.0.0.1:{p}" for p in free_ports(2)]
    start = time.monotonic()
    with pytest.raises(tf.errors.UnavailableError, match="task:1.*did not join"):
        Peers(addresses, 0, ["/job:worker/replica:0/task:0", "/job:worker/replica:0/task:1"],
              b"k", 1.0)
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("n", [1, 2])
def test_tensorflow_recording_of_the_same_cluster_replays(n):
    """record_tf_cluster.py ran custom_loop.py as 1 and 2 TF 2.21 processes."""
    with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_cluster.json")) as f:
        recorded = json.load(f)
    assert recorded["tensorflow"].startswith("2.")
    tf_results = recorded["clusters"][str(n)]
    results = _ok(run_cluster("custom_loop.py", n=n, env={"INIT": "constant"}))
    for res, want in zip(results, tf_results, strict=True):
        for key in ("num_replicas_in_sync", "should_checkpoint", "multi_worker",
                    "replica_ids", "inputs"):
            assert res[key] == want[key], key
        # TF's kernels sum in another order than NumPy's: equal to float32 round-off.
        np.testing.assert_allclose(res["local_losses"], want["local_losses"], rtol=1e-6)
        np.testing.assert_allclose(res["losses"], want["losses"], rtol=1e-6)
        for got, exp in zip(res["weight_values"], want["weight_values"], strict=True):
            np.testing.assert_allclose(got, exp, rtol=1e-5, atol=1e-7)
