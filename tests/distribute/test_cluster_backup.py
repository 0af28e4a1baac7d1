"""BackupAndRestore in a multi-worker fit, as TF's fault-tolerance tutorial: a worker is
killed, the whole cluster is restarted with the same TF_CONFIG, and fit resumes from the
last backup with nothing lost (save_freq="epoch" and every 3 batches).

cluster_programs/backup.py trains 4 epochs of 4 batches (Adam, so the optimizer's state
must come back too); FAULT=1,2,1 kills task 1 as batch 1 of epoch 2 begins.
"""

import json
import os
import subprocess
import sys

import pytest
from cluster_processes import PROGRAMS, ROOT, cluster_config, result_of, run_cluster

pytestmark = pytest.mark.timeout(120)
ALL_BATCHES = [[e, b] for e in range(4) for b in range(4)]


def _simulated(cluster, env):
    """The program as one process simulating the cluster: (returncode, result)."""
    full = dict(os.environ, SIMDIST_MACHINE="cpu", SIMDIST_CLUSTER_MODE="simulate",
                PYTHONPATH=str(ROOT), TF_CONFIG=json.dumps(
                    {"cluster": cluster, "task": {"type": "worker", "index": 0}}), **env)
    p = subprocess.run([sys.executable, str(PROGRAMS / "backup.py")], env=full, cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    return p.returncode, result_of(p.stdout)


@pytest.mark.parametrize("save_freq,last_backup", [("epoch", [1, 3]), ("3", [2, 0])])
def test_a_killed_worker_and_a_restarted_cluster_resume_from_the_last_backup(
        tmp_path, save_freq, last_backup):
    cluster = cluster_config(2)
    env = {"BACKUP_DIR": str(tmp_path / "backup"), "SAVE_FREQ": save_freq}
    first = run_cluster("backup.py", cluster=cluster, env=dict(env, FAULT="1,2,1"))
    assert first[1][0] == 3  # killed
    rc, res, err = first[0]
    assert rc == 0 and res["error"][0] == "UnavailableError", err
    assert "/job:worker/replica:0/task:1" in res["error"][1]
    # Worker 0 began batch (2, 1) and failed in its collectives.
    assert res["trained"] == ALL_BATCHES[:ALL_BATCHES.index([2, 1]) + 1]
    # The whole cluster again, same TF_CONFIG: every worker resumes after the last backup.
    second = run_cluster("backup.py", cluster=cluster, env=env)
    for rc, res, err in second:
        assert rc == 0 and "error" not in res, err
        resumed = ALL_BATCHES.index(last_backup) + 1
        assert res["trained"] == ALL_BATCHES[resumed:]  # nothing lost, nothing repeated
        assert res["epochs"] == [2, 3]
        assert res["weights"] == second[0][1]["weights"]
    # The chief deleted the backup at the end; worker 1 wrote to workertemp_1 and removed it.
    # Listed once every worker has exited: the chief's own listing would race worker 1's
    # removal of its last workertemp_1 (TF does not wait for it either).
    assert os.listdir(tmp_path / "backup") == []

    # The same crash and restart of a simulated cluster gives the very same weights.
    sim_env = {"BACKUP_DIR": str(tmp_path / "sim"), "SAVE_FREQ": save_freq}
    assert _simulated(cluster, dict(sim_env, FAULT="0,2,1"))[0] == 3
    rc, sim = _simulated(cluster, sim_env)
    assert rc == 0 and sim["weights"] == second[0][1]["weights"]
    assert sim["history"] == second[0][1]["history"]
    if save_freq == "epoch":
        # Whole epochs replay the same batches: as if nothing had happened.
        rc, whole = _simulated(cluster, {"BACKUP_DIR": str(tmp_path / "whole")})
        assert whole["weights"] == second[0][1]["weights"]
        assert whole["history"][2:] == second[0][1]["history"]
