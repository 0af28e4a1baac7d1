"""Cluster resolvers: who the workers are, and which one this process plays.

Glossary:
  ClusterSpec                -- job name -> list of task addresses (``tf.train.ClusterSpec``).
  TFConfigClusterResolver    -- reads ``TF_CONFIG`` (``{"cluster": {...}, "task": {"type",
                                "index"}}``); no TF_CONFIG means a single local worker.
  SimpleClusterResolver      -- the same from explicit arguments.

Mirrors tensorflow/python/distribute/cluster_resolver/tfconfig_cluster_resolver.py and
tensorflow/python/training/server_lib.py (ClusterSpec).
"""

from __future__ import annotations

import json
import os


class ClusterSpec:
    """The jobs of a cluster and their task addresses."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_dict()
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            f"lists of network addresses, got {type(cluster).__name__}.")
        self._cluster = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, dict):
                tasks = [tasks[k] for k in sorted(tasks)]
            if not isinstance(tasks, (list, tuple)):
                raise TypeError(f"The tasks for job {job!r} must be a list or a dict of "
                                f"addresses, got {tasks!r}.")
            self._cluster[job] = list(tasks)

    @property
    def jobs(self) -> list:
        return list(self._cluster)

    def num_tasks(self, job_name) -> int:
        if job_name not in self._cluster:
            raise ValueError(f"No such job in cluster: {job_name!r}")
        return len(self._cluster[job_name])

    def task_address(self, job_name, task_index):
        return self._cluster[job_name][task_index]

    def as_dict(self) -> dict:
        return {k: list(v) for k, v in self._cluster.items()}

    def __bool__(self) -> bool:
        return bool(self._cluster)

    def __repr__(self):
        return f"ClusterSpec({self._cluster!r})"


class ClusterResolver:
    """Base: ``cluster_spec()``, ``task_type``, ``task_id``."""

    task_type = None
    task_id = None
    rpc_layer = None

    def cluster_spec(self) -> ClusterSpec:
        raise NotImplementedError

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        from simdist.hardware.machine import get_machine

        return {"GPU": len(get_machine().list_physical_devices("GPU"))}


class SimpleClusterResolver(ClusterResolver):
    """A resolver built from a ClusterSpec (or dict) and this task's type and index."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None,
                 environment="", num_accelerators=None, rpc_layer=None):
        self._spec = ClusterSpec(cluster_spec)
        self.task_type, self.task_id, self.rpc_layer = task_type, task_id, rpc_layer

    def cluster_spec(self) -> ClusterSpec:
        return self._spec


class TFConfigClusterResolver(ClusterResolver):
    """Reads the cluster from the ``TF_CONFIG`` environment variable."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        raw = os.environ.get("TF_CONFIG", "") or "{}"
        try:
            config = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ValueError(f"TF_CONFIG is not valid JSON ({e}); set it to "
                             '\'{"cluster": {"worker": [...]}, "task": {"type": "worker", '
                             '"index": 0}}\'.') from None
        task = config.get("task", {})
        self._spec = ClusterSpec(config.get("cluster", {}))
        self.task_type = task_type if task_type is not None else task.get("type")
        self.task_id = task_id if task_id is not None else task.get("index")
        self.rpc_layer = rpc_layer or config.get("rpc_layer")
        if self._spec and self.task_type is not None:
            if self.task_type not in self._spec.jobs:
                raise ValueError(f"TF_CONFIG's task type {self.task_type!r} is not a job of "
                                 f"the cluster {self._spec.jobs}.")
            if not 0 <= int(self.task_id or 0) < self._spec.num_tasks(self.task_type):
                raise ValueError(f"TF_CONFIG's task index {self.task_id} is out of range for "
                                 f"job {self.task_type!r}.")

    def cluster_spec(self) -> ClusterSpec:
        return self._spec
