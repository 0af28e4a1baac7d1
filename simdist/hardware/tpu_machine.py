"""Simulated Cloud TPU slices: the client's CPU, and TPU hosts that appear once connected.

Glossary:
  TPUMachine   -- a machine whose TPU cores (``/job:worker/replica:0/task:t/device:TPU:i``)
                  and TPU hosts' CPUs join its devices when a program connects to the TPU
                  (``tf.config.experimental_connect_to_cluster``); before that only the
                  client's CPU exists, as on a Colab or GCE VM.
  TPU_SLICES   -- preset name -> the slice's figures; ``SIMDIST_MACHINE=tpu-v3-8`` picks one
                  (registered in ``MACHINES`` beside the GPU presets).
  tpu_initialized -- set by ``tf.tpu.experimental.initialize_tpu_system``.
Slices (Google Cloud TPU docs, "System architecture" and "TPU v4" pages): v2-8 and v3-8
are 4 chips (2x2) of 2 cores on one host; v4-8 is 4 chips (2x2x1) of one megacore on one
host; v4-32 is 16 chips (2x2x4) on 4 hosts. Figures in specs.py and topologies/links.py.
Mirrors what tensorflow/python/tpu/tpu_system_metadata.py reads of a connected TPU system.
"""

from __future__ import annotations

from typing import NamedTuple

from simdist.hardware.device import Device
from simdist.hardware.machine import MACHINES, LogicalDevice, Machine
from simdist.hardware.specs import SPECS
from simdist.hardware.topologies import links
from simdist.hardware.topologies.tpu_slice import tpu_slice


class TPUSlice(NamedTuple):   # not a dataclass: ~1 ms less at the first op
    """The figures of one TPU slice preset."""

    name: str
    chip: str
    chips: tuple
    cores_per_chip: int
    ici: dict
    on_chip: dict
    chips_per_host: int = 4

    @property
    def num_hosts(self) -> int:
        x, y, z = self.chips
        return x * y * z // self.chips_per_host

    @property
    def num_cores(self) -> int:
        x, y, z = self.chips
        return x * y * z * self.cores_per_chip


TPU_SLICES = {
    "tpu-v2-8": TPUSlice("v2-8", "TPUv2", (2, 2, 1), 2, links.TPU_V2_ICI,
                         links.TPU_V2_ON_CHIP),
    "tpu-v3-8": TPUSlice("v3-8", "TPUv3", (2, 2, 1), 2, links.TPU_V3_ICI,
                         links.TPU_V3_ON_CHIP),
    "tpu-v4-8": TPUSlice("v4-8", "TPUv4", (2, 2, 1), 1, links.TPU_V4_ICI, links.TPU_V4_ICI),
    "tpu-v4-32": TPUSlice("v4-32", "TPUv4", (2, 2, 4), 1, links.TPU_V4_ICI, links.TPU_V4_ICI),
}


class TPUMachine(Machine):
    """The client VM of a Cloud TPU slice: a CPU, plus the slice once connected."""

    def __init__(self, tpu_slice: TPUSlice, **kwargs):
        super().__init__(gpus=0, **kwargs)
        self.tpu_slice = tpu_slice
        self.tpu_job: str | None = None
        self.tpu_initialized = False

    def connect_tpu(self, job: str = "worker") -> None:
        """Add the slice's cores and hosts to the devices (idempotent for the same job).

        ``job`` is ``worker`` for a TPU reached over the network and ``localhost`` for a
        TPU VM's own chips (``TPUClusterResolver(tpu='local')``), as TF names them.
        """
        if self.tpu_job == job:
            return
        s = self.tpu_slice
        graph = tpu_slice(s.chips, s.cores_per_chip, s.chip, s.ici, s.on_chip,
                          s.chips_per_host, job)
        devices = dict(self.devices)
        for name, attrs in graph.nodes(data=True):
            if attrs.get("kind") in ("TPU", "CPU") and name not in devices:
                devices[name] = Device(name, SPECS[attrs["spec"]], self.trace)
        self._devices = devices
        self._topology_spec, self._topology = graph, None
        self.tpu_job = job
        if job != "localhost":
            # TF's connect_to_cluster makes the master (/job:worker/task:0) the default.
            self.job = job

    def list_logical_devices(self, device_type: str | None = None) -> list[LogicalDevice]:
        """Local devices by short name, a connected TPU's by full name (as TF lists them)."""
        out = []
        for d in self.devices.values():
            if device_type is not None and d.device_type != device_type.upper():
                continue
            local = d.name.startswith("/job:localhost/") and d.device_type == "CPU"
            name = f"/device:{d.device_type}:{d.index}" if local else d.name
            out.append(LogicalDevice(name, d.device_type))
        return out


def _tpu_preset(key: str):
    return lambda **kw: TPUMachine(TPU_SLICES[key], **kw)


MACHINES.update({key: _tpu_preset(key) for key in TPU_SLICES})
