"""``tf.train.ClusterSpec``: the jobs of a cluster and the network address of each task.

Glossary:
  job         -- a named group of tasks ("chief", "worker", "ps", "evaluator").
  task        -- one process of a job, known by its index and its "host:port" address; a
                 job's indices may be sparse ({1: "w1:2222"}).
  ClusterDef  -- the protocol-buffer form (``tf.train.ClusterDef``): jobs sorted by name,
                 each a JobDef with a ``tasks`` map index -> address.

Mirrors tensorflow/python/training/server_lib.py (ClusterSpec) and
tensorflow/core/protobuf/cluster.proto (ClusterDef, JobDef).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class JobDef:
    """One job of a ClusterDef: its name and its tasks (index -> address)."""

    name: str = ""
    tasks: dict = field(default_factory=dict)


@dataclass
class ClusterDef:
    """``tf.train.ClusterDef``: the jobs of a cluster, as the protocol buffer holds them."""

    job: list = field(default_factory=list)


def _as_str(x, what: str) -> str:
    """``x`` as a str (bytes decoded), or TF's TypeError naming ``what``."""
    if isinstance(x, bytes):
        return x.decode()
    if isinstance(x, str):
        return x
    raise TypeError(f"{what} {x!r} must be bytes or unicode")


class ClusterSpec:
    """A cluster as a set of tasks organized into jobs (``tf.train.ClusterSpec``)."""

    def __init__(self, cluster):
        if isinstance(cluster, ClusterSpec):
            cluster = cluster.as_cluster_def()
        if isinstance(cluster, dict):
            self._cluster_spec = {job: self._job_tasks_from(job, tasks)
                                  for job, tasks in cluster.items()}
            self._cluster_def = self._make_cluster_def()
        elif isinstance(cluster, ClusterDef):
            # Through a ClusterDef the jobs come back sorted by name, as TF's protobuf does.
            self._cluster_def = ClusterDef([JobDef(j.name, dict(j.tasks)) for j in cluster.job])
            self._cluster_spec = {j.name: dict(j.tasks) for j in self._cluster_def.job}
        else:
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterDef` protocol buffer")

    @staticmethod
    def _job_tasks_from(job, tasks) -> dict:
        if isinstance(tasks, (list, tuple)):
            return dict(enumerate(tasks))
        if isinstance(tasks, dict):
            return {int(i): task for i, task in tasks.items()}
        raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary from "
                        "integers to strings.")

    def _make_cluster_def(self) -> ClusterDef:
        jobs = []
        for job, tasks in sorted(self._cluster_spec.items(), key=lambda kv: str(kv[0])):
            name = _as_str(job, "Job name")
            jobs.append(JobDef(name, {i: _as_str(a, "Task address")
                                      for i, a in sorted(tasks.items())}))
        return ClusterDef(jobs)

    def __bool__(self) -> bool:
        return bool(self._cluster_spec)

    def __eq__(self, other):
        # As TF: the index maps compare with ``other`` (a ClusterSpec, or a dict of dicts).
        return self._cluster_spec == other

    def __ne__(self, other):
        return self._cluster_spec != other

    __hash__ = None

    def __repr__(self):
        d = self.as_dict()
        return "ClusterSpec({" + ", ".join(f"{k!r}: {d[k]!r}" for k in sorted(d)) + "})"

    def as_dict(self) -> dict:
        """Job name -> list of addresses (dense indices) or dict index -> address (sparse)."""
        out = {}
        for job in self.jobs:
            indices = self.task_indices(job)
            if not indices:
                out[job] = {}
            elif max(indices) + 1 == len(indices):
                out[job] = self.job_tasks(job)
            else:
                out[job] = {i: self.task_address(job, i) for i in indices}
        return out

    def as_cluster_def(self) -> ClusterDef:
        """The ``tf.train.ClusterDef`` of this cluster."""
        return self._cluster_def

    @property
    def jobs(self) -> list:
        """The job names, in the order they were given."""
        return list(self._cluster_spec)

    def _job(self, job_name) -> dict:
        try:
            return self._cluster_spec[job_name]
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def num_tasks(self, job_name) -> int:
        """How many tasks ``job_name`` has (ValueError for an unknown job)."""
        return len(self._job(job_name))

    def task_indices(self, job_name) -> list:
        """The sorted task indices of ``job_name``."""
        return sorted(self._job(job_name))

    def task_address(self, job_name, task_index):
        """The address of task ``task_index`` of ``job_name``."""
        job = self._job(job_name)
        try:
            return job[task_index]
        except KeyError:
            raise ValueError(f"No task with index {task_index!r} in job {job_name!r}") from None

    def job_tasks(self, job_name) -> list:
        """The addresses of ``job_name`` by index, None where a sparse job has no task."""
        job = self._job(job_name)
        out = [None] * (max(job) + 1)
        for i, task in job.items():
            out[i] = task
        return out
