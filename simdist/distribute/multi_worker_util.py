"""Who is who in a multi-worker cluster: validation, chief, worker count, id in the cluster.

Glossary:
  allowed jobs   -- chief, worker, evaluator, ps (anything else is refused).
  chief          -- the ``chief`` task, else ``worker`` 0; an evaluator is its own chief.
  worker count   -- chief + workers (an evaluator counts the evaluators: it trains alone).
  id in cluster  -- the chief is 0, worker i is i + (1 if a chief exists).
  leaders        -- the task that leads collectives (chief, else worker 0) and the
                    coordination service (ps 0, else the collective leader).

Mirrors tensorflow/python/distribute/multi_worker_util.py.
"""

from __future__ import annotations

from simdist.distribute.cluster_spec import ClusterDef, ClusterSpec

ALLOWED_TASK_TYPES = ("chief", "worker", "evaluator", "ps", None)


def normalize_cluster_spec(cluster_spec) -> ClusterSpec:
    """A ClusterSpec from a dict, a ClusterDef or a ClusterSpec."""
    if isinstance(cluster_spec, (dict, ClusterDef)):
        return ClusterSpec(cluster_spec)
    if not isinstance(cluster_spec, ClusterSpec):
        raise ValueError("`cluster_spec' should be dict or a `tf.train.ClusterSpec` or a "
                         "`tf.train.ClusterDef` object")
    return cluster_spec


def task_count(cluster_spec, task_type) -> int:
    """How many tasks ``task_type`` has (0 for a job not in the cluster)."""
    try:
        return cluster_spec.num_tasks(task_type)
    except ValueError:
        return 0


def validate_cluster_spec(cluster_spec, task_type, task_id) -> None:
    """TF's checks of a cluster and this task; ValueError naming what is wrong."""
    cluster_spec = normalize_cluster_spec(cluster_spec)
    if any(job not in ALLOWED_TASK_TYPES for job in cluster_spec.jobs):
        raise ValueError(f"Disallowed task type found in cluster spec. Allowed types are "
                         f"{ALLOWED_TASK_TYPES} and the cluster spec is {cluster_spec}.")
    if task_type not in ALLOWED_TASK_TYPES:
        raise ValueError(f"Unrecognized task_type: {task_type}, valid task types are: "
                         f"{ALLOWED_TASK_TYPES}")
    if task_type and task_type not in cluster_spec.jobs and task_type != "evaluator":
        raise ValueError(f"`task_type` {task_type!r} not found in cluster_spec.")
    for job in ("chief", "evaluator"):
        if task_count(cluster_spec, job) > 1:
            raise ValueError(f"There must be at most one {job!r} job.")
    if task_type in cluster_spec.jobs and task_id >= task_count(cluster_spec, task_type):
        raise ValueError(f"The `task_id` {task_id} exceeds the maximum id of {task_type}.")


def is_chief(cluster_spec=None, task_type=None, task_id=None) -> bool:
    """Whether this task is the chief (or an evaluator, which is its own chief)."""
    validate_cluster_spec(cluster_spec, task_type, task_id)
    jobs = normalize_cluster_spec(cluster_spec).as_dict()
    if task_type in ("chief", "evaluator"):
        return True
    return "chief" not in jobs and task_type == "worker" and task_id == 0


def collective_leader(cluster_spec, task_type, task_id) -> str:
    """The device prefix of the task that leads collectives ("" for none)."""
    cluster_spec = normalize_cluster_spec(cluster_spec)
    if not cluster_spec.as_dict():
        return ""
    validate_cluster_spec(cluster_spec, task_type, task_id)
    if task_type == "evaluator":
        return ""
    job = "chief" if "chief" in cluster_spec.jobs else "worker"
    return f"/job:{job}/replica:0/task:0"


def coordination_leader(cluster_spec) -> str:
    """The device prefix of the task that runs the coordination service."""
    cluster_spec = normalize_cluster_spec(cluster_spec)
    if not cluster_spec.as_dict():
        return ""
    for job in ("ps", "chief", "worker"):
        if job in cluster_spec.jobs:
            return f"/job:{job}/replica:0/task:0"
    return ""


def worker_count(cluster_spec, task_type) -> int:
    """How many tasks train together with a ``task_type`` task."""
    validate_cluster_spec(cluster_spec, task_type, task_id=0)
    jobs = normalize_cluster_spec(cluster_spec).as_dict()
    if task_type not in ("chief", "worker", "evaluator"):
        raise ValueError(f"Unexpected `task_type` {task_type!r}")
    if task_type == "evaluator":
        return len(jobs["evaluator"])
    return len(jobs.get("chief", [])) + len(jobs.get("worker", []))


def id_in_cluster(cluster_spec, task_type, task_id) -> int:
    """This task's rank among the training tasks (chief 0, then the workers)."""
    validate_cluster_spec(cluster_spec, task_type, task_id)
    jobs = normalize_cluster_spec(cluster_spec).as_dict()
    if task_type == "chief":
        return 0
    if task_type == "worker":
        return task_id + len(jobs.get("chief", []))
    if task_type == "evaluator":
        return task_id
    raise ValueError(f"There is no id for task_type {task_type!r}")
