"""Cluster resolvers: who the tasks of a cluster are, and which one this process plays.

Glossary:
  ClusterResolver          -- the abstract base: ``cluster_spec()``, ``master()``,
                              ``task_type``/``task_id``/``rpc_layer`` (settable),
                              ``environment``, ``num_accelerators()``.
  TFConfigClusterResolver  -- reads ``TF_CONFIG`` (``{"cluster": {...}, "task": {"type",
                              "index"}, "rpc_layer", "session_master"}``) each time it is
                              asked, not when made; unset means no cluster. Malformed JSON
                              raises json's JSONDecodeError when read, as in TF.
  SimpleClusterResolver    -- the same answers from explicit arguments.
  UnionResolver            -- several resolvers' clusters merged (lists concatenated, sparse
                              jobs joined; a task index twice is a KeyError).
  master                   -- "rpc_layer://address" of a task ("" for a one-task cluster).

Mirrors tensorflow/python/distribute/cluster_resolver/cluster_resolver.py and
tfconfig_cluster_resolver.py.
"""

from __future__ import annotations

import abc
import collections
import json
import os

from simdist.distribute.cluster_spec import ClusterSpec

_TF_CONFIG = "TF_CONFIG"


def format_master_url(master, rpc_layer=None) -> str:
    """``rpc_layer://master``, or ``master`` alone without an rpc layer."""
    return f"{rpc_layer}://{master}" if rpc_layer else master


class ClusterResolver(abc.ABC):
    """The abstract base of every cluster resolver."""

    @abc.abstractmethod
    def cluster_spec(self) -> ClusterSpec:
        """The cluster, as a ``tf.train.ClusterSpec``."""

    @abc.abstractmethod
    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The address of a task, with its rpc layer."""

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """Accelerator type -> count among this process's logical devices.

        As TF: with a task type and id, only devices named for that task count (a local
        process's devices are ``/job:localhost``, so none do for a TF_CONFIG task).
        """
        from simdist.hardware.machine import get_machine

        counts = collections.defaultdict(int)
        for device in get_machine().devices.values():
            if device.device_type == "CPU":
                continue
            if task_type is not None and task_id is not None and (
                    f"/job:{task_type}" not in device.name
                    or f"/task:{task_id}" not in device.name):
                continue
            counts[device.device_type] += 1
        return counts

    @property
    def environment(self) -> str:
        """Where the cluster runs ("" locally, "google" on Cloud)."""
        return ""

    @property
    def task_type(self):
        return getattr(self, "_task_type", None)

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        return getattr(self, "_task_id", None)

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return getattr(self, "_rpc_layer", None)

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer


class SimpleClusterResolver(ClusterResolver):
    """A resolver that answers what it was given."""

    def __init__(self, cluster_spec, master="", task_type=None, task_id=None,
                 environment="", num_accelerators=None, rpc_layer=None):
        if not isinstance(cluster_spec, ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        if not isinstance(master, str):
            raise TypeError("master must be a string.")
        self._cluster_spec, self._master = cluster_spec, master
        self._task_type, self._task_id, self._rpc_layer = task_type, task_id, rpc_layer
        self._environment, self._num_accelerators = environment, num_accelerators

    def cluster_spec(self) -> ClusterSpec:
        return self._cluster_spec

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The given task's address, else the ``master`` given at construction."""
        if task_type is not None and task_id is not None:
            master = self._cluster_spec.task_address(task_type, task_id)
        else:
            master = self._master
        return format_master_url(master, rpc_layer or self._rpc_layer)

    @property
    def environment(self) -> str:
        return self._environment

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """The ``num_accelerators`` given at construction ({} if none)."""
        return {} if self._num_accelerators is None else self._num_accelerators


def _load_tf_config() -> dict:
    # Read at every question, as TF does: a resolver follows later changes of TF_CONFIG.
    return json.loads(os.environ.get(_TF_CONFIG, "{}"))


def _tf_config_value(key, default=None):
    config = _load_tf_config()
    return config[key] if key in config else default


class TFConfigClusterResolver(ClusterResolver):
    """Reads the cluster and this task from the ``TF_CONFIG`` environment variable."""

    def __init__(self, task_type=None, task_id=None, rpc_layer=None, environment=None):
        self._task_type, self._task_id = task_type, task_id
        self._rpc_layer, self._environment = rpc_layer, environment

    @property
    def task_type(self):
        if self._task_type is not None:
            return str(self._task_type)
        task = _tf_config_value("task", {})
        return str(task["type"]) if "type" in task else None

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        if self._task_id is not None:
            return int(self._task_id)
        task = _tf_config_value("task", {})
        return int(task["index"]) if "index" in task else None

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return _tf_config_value("rpc_layer") if self._rpc_layer is None else self._rpc_layer

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer

    @property
    def environment(self):
        return self._environment

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """Accelerators of this task (the TF_CONFIG task unless another is named)."""
        return super().num_accelerators(self.task_type if task_type is None else task_type,
                                        self.task_id if task_id is None else task_id,
                                        config_proto)

    def cluster_spec(self) -> ClusterSpec:
        """The ``cluster`` of TF_CONFIG (an empty ClusterSpec without one)."""
        config = _load_tf_config()
        return ClusterSpec(config.get("cluster", {}))

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """TF_CONFIG's ``session_master``, else this (or the named) task's address.

        A cluster of one task (or none) has no master to connect to: "".
        """
        session_master = _tf_config_value("session_master")
        if session_master is not None:
            return session_master
        spec = self.cluster_spec()
        if not spec.jobs or (len(spec.jobs) == 1 and len(spec.job_tasks(spec.jobs[0])) == 1):
            return ""
        task_type = self.task_type if task_type is None else task_type
        task_id = self.task_id if task_id is None else task_id
        rpc_layer = self.rpc_layer if rpc_layer is None else rpc_layer
        return format_master_url(spec.task_address(task_type, task_id), rpc_layer)


class UnionClusterResolver(ClusterResolver):
    """The union of several resolvers' clusters; the first answers everything else."""

    def __init__(self, *args, **kwargs):
        self._rpc_layer = kwargs.pop("rpc_layer", None)
        self._task_type = kwargs.pop("task_type", None)
        self._task_id = kwargs.pop("task_id", None)
        if kwargs:
            raise ValueError(f"Unexpected kwargs provided {kwargs!r}")
        if not args:
            raise ValueError("At least one ClusterResolver is required.")
        if not all(isinstance(r, ClusterResolver) for r in args):
            raise TypeError("All arguments must be a sub-class of `ClusterResolver.`")
        self._cluster_resolvers = args

    def cluster_spec(self) -> ClusterSpec:
        """Every resolver's jobs merged: dense jobs concatenated, sparse ones joined."""
        dicts = [r.cluster_spec().as_dict() for r in self._cluster_resolvers]
        # A job stays a list only while every resolver gives it as one.
        merged = {}
        for d in dicts:
            for job, tasks in d.items():
                if job not in merged or isinstance(tasks, dict):
                    merged[job] = [] if job not in merged and isinstance(tasks, list) else {}
        for d in dicts:
            for job, tasks in d.items():
                if isinstance(merged[job], list):
                    merged[job].extend(tasks)
                    continue
                tasks = dict(enumerate(tasks)) if isinstance(tasks, list) else dict(tasks)
                clash = set(tasks) & set(merged[job])
                if clash:
                    raise KeyError(f"Duplicate keys detected when merging two ClusterSpecs: "
                                   f"{clash!r}")
                merged[job].update(tasks)
        return ClusterSpec(merged)

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The named task's address in the union, else the first resolver's master."""
        if task_type is not None and task_id is not None:
            master = self.cluster_spec().task_address(task_type, task_id)
            return format_master_url(master, rpc_layer or self._rpc_layer)
        return self._cluster_resolvers[0].master(rpc_layer=rpc_layer)

    @property
    def task_type(self):
        return self._task_type or self._cluster_resolvers[0].task_type

    @task_type.setter
    def task_type(self, task_type):
        self._task_type = task_type

    @property
    def task_id(self):
        return self._task_id or self._cluster_resolvers[0].task_id

    @task_id.setter
    def task_id(self, task_id):
        self._task_id = task_id

    @property
    def rpc_layer(self):
        return self._rpc_layer or self._cluster_resolvers[0].rpc_layer

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer):
        self._rpc_layer = rpc_layer

    @property
    def environment(self):
        return self._cluster_resolvers[0].environment

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """The first resolver's answer."""
        return self._cluster_resolvers[0].num_accelerators(task_type, task_id, config_proto)


UnionResolver = UnionClusterResolver


def __getattr__(name):
    # tpu_cluster_resolver builds on this module: importing it from here on first use
    # (not at the bottom of this module) works whichever of the two is imported first.
    if name == "TPUClusterResolver":
        from simdist.distribute.tpu_cluster_resolver import TPUClusterResolver

        return TPUClusterResolver
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"TPUClusterResolver"})
