"""A cluster of real processes: which mode a TF_CONFIG program gets, and this process's part.

Glossary:
  mode            -- ``SIMDIST_CLUSTER_MODE``: ``processes`` (this process is the one task
                     TF_CONFIG names; the others are other processes), ``simulate`` (every
                     task is played in this process, the default of the app, the lessons and
                     most tests), or unset: ``processes`` when this task's own address is on
                     this machine (``localhost``, ``127.0.0.1``, this host's name, as in TF's
                     multi-worker tutorial), ``simulate`` otherwise (``host1:2222``).
  ProcessCluster  -- this process's Peers (authenticated connections to the other training
                     tasks) and the Exchange collectives run their schedules through.
  key             -- ``SIMDIST_CLUSTER_KEY`` (bytes every task is started with); by default
                     a SHA-256 of the cluster's training tasks and addresses, so the tasks of
                     one TF_CONFIG agree without setting anything, and a process of another
                     cluster (or with another key) is refused before anything is unpickled.
  traces          -- with ``SIMDIST_TRACE_DIR`` set, each worker writes its own Chrome trace
                     there when it exits (``worker-1.trace.json``: its devices and the
                     collective steps); ``merge_worker_traces`` on the chief writes its own,
                     waits (bounded) for the others' and merges them, one row group per
                     worker (hardware.cluster_trace).
  timeout         -- ``SIMDIST_CLUSTER_TIMEOUT`` seconds (default 30; else the strategy's
                     CommunicationOptions.timeout_seconds): the longest any task waits to
                     join, or for a peer's message, before ``UnavailableError`` names it.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import socket

from simdist.collectives.executor import Exchange
from simdist.collectives.transport import Peers, split_address
from simdist.hardware import cluster_trace
from simdist.hardware.machine import get_machine

MODE_ENV, KEY_ENV, TIMEOUT_ENV = ("SIMDIST_CLUSTER_MODE", "SIMDIST_CLUSTER_KEY",
                                  "SIMDIST_CLUSTER_TIMEOUT")
DEFAULT_TIMEOUT_S = 30.0
MODES = ("processes", "simulate")


def _is_this_machine(host: str) -> bool:
    return host in ("localhost", "127.0.0.1", "::1", "", socket.gethostname())


def runs_as_processes(spec, task_type, task_id) -> bool:
    """Whether this process is one task of a cluster of processes (see ``mode``)."""
    mode = os.environ.get(MODE_ENV, "").strip().lower()
    if mode and mode not in MODES:
        raise ValueError(f"{MODE_ENV} must be one of {MODES} (or unset), got {mode!r}.")
    if mode:
        return mode == "processes"
    host, _ = split_address(spec.task_address(task_type, task_id))
    return _is_this_machine(host)


def cluster_key(spec, tasks) -> bytes:
    """The shared secret: SIMDIST_CLUSTER_KEY, else a digest of the training tasks."""
    given = os.environ.get(KEY_ENV)
    if given:
        return given.encode()
    described = [[job, i, spec.task_address(job, i)] for job, i in tasks]
    return hashlib.sha256(json.dumps(described).encode()).hexdigest().encode()


def cluster_timeout(options_timeout=None) -> float:
    """SIMDIST_CLUSTER_TIMEOUT, else the communication options' timeout, else 30 s."""
    given = os.environ.get(TIMEOUT_ENV)
    if given:
        return float(given)
    return float(options_timeout) if options_timeout else DEFAULT_TIMEOUT_S


class ProcessCluster:
    """This process's connections to the other training tasks and the collectives' Exchange.

    Args:
      spec: the ClusterSpec. tasks: the training tasks' (job, index), in rank order.
      me: this task's rank. owner: the task rank of every global replica.
    """

    def __init__(self, spec, tasks, me: int, owner, timeout: float):
        names = [f"/job:{job}/replica:0/task:{i}" for job, i in tasks]
        addresses = [spec.task_address(job, i) for job, i in tasks]
        self.names, self.me, self.timeout = names, me, timeout
        self.peers = Peers(addresses, me, names, cluster_key(spec, tasks), timeout)
        self.exchange = Exchange(owner, me, self.peers)
        self.trace = get_machine().trace
        self.trace_dir = os.environ.get(cluster_trace.TRACE_DIR_ENV)
        if self.trace_dir:
            atexit.register(self.write_trace)

    def write_trace(self, directory: str | None = None) -> str:
        """Write this worker's trace to ``directory`` (default SIMDIST_TRACE_DIR)."""
        return cluster_trace.write_worker_trace(self.trace, self.names[self.me],
                                                directory or self.trace_dir)

    def merge_traces(self, out_path: str | None = None, directory: str | None = None,
                     timeout: float | None = None) -> dict:
        """Write this worker's trace, wait for every other's, merge them (the chief's job)."""
        directory = directory or self.trace_dir
        if not directory:
            raise ValueError(f"Set {cluster_trace.TRACE_DIR_ENV} (every worker writes its "
                             "trace there) or pass directory=.")
        self.write_trace(directory)
        paths = [cluster_trace.trace_path(directory, name) for name in self.names]
        return cluster_trace.merge_trace_files(paths, out_path, timeout or self.timeout)

    def close(self) -> None:
        self.peers.close()


def merge_worker_traces(strategy, out_path: str | None = None, directory: str | None = None,
                        timeout: float | None = None) -> dict:
    """On the chief of a cluster of processes: one Chrome trace of every worker.

    Each other worker writes its trace to ``directory`` (SIMDIST_TRACE_DIR) when it exits;
    this waits at most ``timeout`` seconds (the cluster's) for them.

    Raises:
      ValueError: the strategy is not one worker of a cluster of processes, or no directory.
      TimeoutError: a worker's trace did not appear in time.
    """
    cluster = getattr(strategy.extended, "_cluster", None)
    if cluster is None:
        raise ValueError("merge_worker_traces needs a MultiWorkerMirroredStrategy that is one "
                         "task of a cluster of processes; a simulated cluster has every "
                         "worker in get_machine().trace already.")
    return cluster.merge_traces(out_path, directory, timeout)
