"""Start a real cluster of simdist processes on 127.0.0.1 and collect what each printed.

Glossary:
  free_ports   -- ports the OS just gave out on 127.0.0.1 (closed again for the workers).
  run_cluster  -- one process per task, each with its own TF_CONFIG, in its own session
                  (process group); waits at most ``timeout`` seconds and always kills every
                  group it started, pass or fail.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

PROGRAMS = Path(__file__).parent / "cluster_programs"
ROOT = Path(__file__).resolve().parents[2]


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def cluster_config(n: int, chief: bool = False) -> dict:
    ports = free_ports(n)
    addresses = [f"127.0.0.1:{p}" for p in ports]
    return {"chief": addresses[:1], "worker": addresses[1:]} if chief else \
        {"worker": addresses}


def tasks_of(cluster: dict) -> list:
    return [(job, i) for job in ("chief", "worker") for i in range(len(cluster.get(job, [])))]


def start(program, cluster, task, env=None, cwd=None, python=None):
    """One task's process (its own session, so its whole group can be killed)."""
    full_env = dict(os.environ, SIMDIST_MACHINE="cpu", SIMDIST_CLUSTER_TIMEOUT="5",
                    PYTHONPATH=str(ROOT), TF_CONFIG=json.dumps(
                        {"cluster": cluster, "task": {"type": task[0], "index": task[1]}}))
    full_env.pop("SIMDIST_CLUSTER_MODE", None)
    full_env.update(env or {})
    return subprocess.Popen([python or sys.executable, str(PROGRAMS / program)], env=full_env,
                            cwd=cwd or ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def kill(procs) -> None:
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        p.wait(timeout=10)


def result_of(stdout: str):
    for line in stdout.splitlines():
        if line.startswith("@@RESULT@@"):
            return json.loads(line[len("@@RESULT@@"):])
    return None


def collect(procs, timeout: float) -> list:
    """Each process's (returncode, result, stderr tail), waiting at most ``timeout`` in all."""
    deadline = time.monotonic() + timeout
    out = []
    try:
        for p in procs:
            stdout, stderr = p.communicate(timeout=max(0.1, deadline - time.monotonic()))
            out.append((p.returncode, result_of(stdout), stderr[-3000:]))
    finally:
        kill(procs)
    return out


def run_cluster(program, n=2, chief=False, env=None, per_task_env=None, timeout=60.0,
                cwd=None, cluster=None, python=None) -> list:
    """Run ``program`` as every task of a (fresh) cluster; returns collect()'s list."""
    cluster = cluster or cluster_config(n, chief)
    procs = []
    try:
        for k, task in enumerate(tasks_of(cluster)):
            procs.append(start(program, cluster, task,
                               dict(env or {}, **(per_task_env or {}).get(k, {})), cwd,
                               python))
        return collect(procs, timeout)
    finally:
        kill(procs)
