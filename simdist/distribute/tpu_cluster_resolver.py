"""``TPUClusterResolver``: finds the simulated Cloud TPU (``SIMDIST_MACHINE=tpu-v3-8``).

Glossary:
  tpu      -- ``None`` or ``''``: the TPU of this VM's environment (Colab, GCE); ``'local'``:
              the chips of a TPU VM; a name or ``grpc://host:port``: a TPU reached over the
              network. Each resolves to the simulated slice of the current machine.
  master   -- the gRPC address of the first TPU host (``''`` for ``'local'``).
  job      -- ``worker`` (the job TF names a network TPU's hosts), ``localhost`` for a TPU VM.
Errors when the machine simulates no TPU are TF's: ``ValueError('Please provide a TPU Name
to connect to.')`` for an empty name (TF's cloud_tpu_client), ``ValueError('No TPUs with
the specified names exist.')`` for a name (TF's master()), and for ``'local'`` a resolver
whose ``num_accelerators()`` is ``{'TPU': 0}``, so initialize_tpu_system raises NotFoundError.

Mirrors tensorflow/python/distribute/cluster_resolver/tpu/tpu_cluster_resolver.py.
"""

from __future__ import annotations

from simdist.distribute.cluster_resolver import ClusterResolver
from simdist.distribute.cluster_spec import ClusterSpec
from simdist.hardware import machine as machine_lib

_PORT = 8470  # the gRPC port of a Cloud TPU worker


def tpu_machine():
    """The current machine if it simulates a TPU slice, else None."""
    m = machine_lib.get_machine()
    return m if hasattr(m, "tpu_slice") else None


class TPUClusterResolver(ClusterResolver):
    """The cluster of a (simulated) Cloud TPU (``tf.distribute.cluster_resolver``)."""

    def __init__(self, tpu=None, zone=None, project=None, job_name="worker",
                 coordinator_name=None, coordinator_address=None, credentials="default",
                 service=None, discovery_url=None):
        if isinstance(tpu, (list, tuple)):
            tpu = tpu[0] if len(tpu) == 1 else tpu
        if not isinstance(tpu, (str, type(None))):
            raise TypeError(f"tpu must be a string (a TPU name, 'local' or a grpc:// "
                            f"address), got {tpu!r}.")
        self._machine = tpu_machine()
        if tpu != "local":
            if not tpu and self._machine is None:
                raise ValueError("Please provide a TPU Name to connect to.")
            if self._machine is None and not tpu.startswith("grpc://"):
                raise ValueError("No TPUs with the specified names exist. simdist simulates "
                                 "a TPU when SIMDIST_MACHINE names one (tpu-v2-8, tpu-v3-8, "
                                 "tpu-v4-8, tpu-v4-32).")
        self._tpu = tpu if tpu else (self._machine.tpu_slice.name if self._machine else "")
        self.task_type = job_name
        self.task_id = 0
        self._job_name = job_name
        self._coordinator_name = coordinator_name
        self._tpu_topology = None

    @property
    def _job(self) -> str:
        return "localhost" if self._tpu == "local" else self._job_name

    def _hosts(self) -> int:
        return self._machine.tpu_slice.num_hosts if self._machine is not None else 0

    def master(self, task_type=None, task_id=None, rpc_layer=None) -> str:
        """The gRPC address of the TPU's first host ('' for a TPU VM's own chips)."""
        if self._tpu == "local" or self._machine is None:
            return ""
        return f"grpc://10.0.0.2:{_PORT}"

    def get_master(self) -> str:
        return self.master()

    def get_job_name(self) -> str:
        return self._job_name

    def cluster_spec(self) -> ClusterSpec:
        """``{'worker': [one address per TPU host]}``, empty for ``'local'``."""
        if self._tpu == "local" or self._machine is None:
            return ClusterSpec({})
        return ClusterSpec({self._job_name: [f"10.0.0.{2 + t}:{_PORT}"
                                             for t in range(self._hosts())]})

    def num_accelerators(self, task_type=None, task_id=None, config_proto=None) -> dict:
        """TPU cores per host (``{'TPU': 8}`` on a v3-8; 0 when none is simulated)."""
        if self._machine is None:
            return {"TPU": 0}
        s = self._machine.tpu_slice
        return {"TPU": s.num_cores // s.num_hosts}

    def get_tpu_system_metadata(self):
        """The cores, hosts and topology of the TPU (after initialize_tpu_system)."""
        from simdist.distribute.tpu_strategy_util import system_metadata

        return system_metadata(self)

    def set_tpu_topology(self, serialized_tpu_topology) -> None:
        self._tpu_topology = serialized_tpu_topology

    @property
    def environment(self) -> str:
        return "google"

    def tpu_hardware_feature(self):
        return None

    def _connect(self) -> None:
        """Make the slice's devices exist (experimental_connect_to_cluster's work)."""
        if self._machine is not None:
            self._machine.connect_tpu(self._job)

    def __repr__(self):
        return f"TPUClusterResolver(tpu={self._tpu!r})"
