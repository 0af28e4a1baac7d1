"""``tf.distribute.Server`` (also ``tf.train.Server``): one task of a cluster, simulated.

Glossary:
  Server      -- in TF, an in-process gRPC server for one task (``job_name``, ``task_index``)
                 of a ``ClusterSpec``; TF's parameter-server tutorial starts one per worker
                 and ps in the coordinator's own process. Here a Server is a record that the
                 task exists: the strategy simulates its devices and clock, no socket opens.
  target      -- ``"grpc://<the task's address>"``, what a client connects to.
  ServerDef   -- what the server was built from: the cluster, job, task, protocol and the
                 ConfigProto of its sessions (``default_session_config``).
  running     -- the servers started in this process, by (job, task): the simulated cluster.

Mirrors tensorflow/python/training/server_lib.py and tensorflow/core/protobuf/
tensorflow_server.proto (ServerDef).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from simdist._world import register_resetter
from simdist.distribute.cluster_spec import ClusterSpec
from simdist.framework import errors
from simdist.framework.config_pb2 import ConfigProto

_PROTOCOLS = ("grpc", "grpc+verbs", "grpc+mpi", "grpc+gdr")
_running: dict = {}
_lock = threading.Lock()


@dataclass
class ServerDef:
    """``tf.train.ServerDef``: the cluster, this task, the protocol and the session config."""

    cluster: object = None
    job_name: str = ""
    task_index: int = 0
    protocol: str = ""
    default_session_config: ConfigProto = field(default_factory=ConfigProto)


def _make_server_def(server_or_cluster_def, job_name, task_index, protocol, config):
    """TF's _make_server_def: fill in the job and task the cluster leaves no doubt about."""
    if isinstance(server_or_cluster_def, ServerDef):
        return server_or_cluster_def
    spec = ClusterSpec(server_or_cluster_def)
    if job_name is None:
        if len(spec.jobs) == 1:
            job_name = spec.jobs[0]
        else:
            raise ValueError("Must specify an explicit `job_name`.")
    if task_index is None:
        indices = spec.task_indices(job_name) if job_name in spec.jobs else []
        if len(indices) == 1:
            task_index = indices[0]
        else:
            raise ValueError("Must specify an explicit `task_index`.")
    if protocol is None:
        protocol = "grpc"
    if config is not None and not isinstance(config, ConfigProto):
        raise TypeError("Argument `config` must be a tf.compat.v1.ConfigProto, got "
                        f"{type(config).__name__}.")
    session_config = ConfigProto()
    if config is not None:
        session_config.CopyFrom(config)
    return ServerDef(spec, job_name, task_index, protocol, session_config)


class Server:
    """An in-process server for one task of a cluster (simulated: no network is opened).

    Raises:
      ValueError: the job or task is ambiguous (several jobs and no ``job_name``).
      InternalError: the job or task is not in the cluster (TF's type and words).
      UnimplementedError: an unknown protocol.
    """

    def __init__(self, server_or_cluster_def, job_name=None, task_index=None, protocol=None,
                 config=None, start=True):
        self._server_def = _make_server_def(server_or_cluster_def, job_name, task_index,
                                            protocol, config)
        spec, job = self._server_def.cluster, self._server_def.job_name
        task = self._server_def.task_index
        if job not in spec.jobs:
            raise errors.InternalError(None, None, f'Job "{job}" was not defined in cluster')
        if task not in spec.task_indices(job):
            raise errors.InternalError(None, None,
                                       f'Task {task} was not defined in job "{job}"')
        if self._server_def.protocol not in _PROTOCOLS:
            raise errors.UnimplementedError(
                None, None, f'Could not start server with protocol "{self._server_def.protocol}"'
                f"; use one of {list(_PROTOCOLS)}.")
        self._address = spec.task_address(job, task)
        self._started = False
        if start:
            self.start()

    def start(self):
        """Start the (simulated) server: its task is now part of this process's cluster."""
        with _lock:
            _running[(self._server_def.job_name, self._server_def.task_index)] = self
        self._started = True

    def join(self):
        """TF blocks here forever serving; a simulated server serves nothing, so it returns."""

    @property
    def server_def(self) -> ServerDef:
        return self._server_def

    @property
    def target(self) -> str:
        """``grpc://host:port`` of this task."""
        return f"{self._server_def.protocol}://{self._address}"

    @staticmethod
    def create_local_server(config=None, start=True):
        """A one-task server on localhost (``tf.distribute.Server.create_local_server``)."""
        return Server({"localhost": ["localhost:0"]}, protocol="grpc", config=config,
                      start=start)

    def __repr__(self):
        return (f"<tf.distribute.Server job={self._server_def.job_name} "
                f"task={self._server_def.task_index} target={self.target}>")


@register_resetter
def _reset():
    with _lock:
        _running.clear()
