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
  timeout         -- ``SIMDIST_CLUSTER_TIMEOUT`` seconds (default 30; else the strategy's
                     CommunicationOptions.timeout_seconds): the longest any task waits to
                     join, or for a peer's message, before ``UnavailableError`` names it.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket

from simdist.collectives.executor import Exchange
from simdist.collectives.transport import Peers, split_address

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

    def close(self) -> None:
        self.peers.close()
