"""``tf.tpu.experimental.initialize_tpu_system`` / ``shutdown_tpu_system`` and ``Topology``.

Glossary:
  Topology            -- the physical layout initialize_tpu_system returns: ``mesh_shape``
                         ``[x, y, z, cores_per_chip]`` and, per host task and TPU ordinal,
                         the core's ``device_coordinates``.
  TPUSystemMetadata   -- ``num_cores``, ``num_hosts``, ``num_of_cores_per_host``,
                         ``topology``, ``devices`` (what TPUStrategy reads of the system).
  initialized systems -- by TPU name; initializing one twice warns as TF does (variables
                         on the TPU would be lost).
Mirrors tensorflow/python/tpu/tpu_strategy_util.py, tensorflow/python/tpu/topology.py and
tensorflow/python/tpu/tpu_system_metadata.py.
"""

from __future__ import annotations

import collections
import warnings

import numpy as np

from simdist._world import register_resetter
from simdist.distribute.tpu_cluster_resolver import TPUClusterResolver, tpu_machine
from simdist.framework import context, errors
from simdist.hardware.topologies.tpu_slice import plane_ring

_INITIALIZED: set = set()


@register_resetter
def _reset():
    _INITIALIZED.clear()

TPUSystemMetadata = collections.namedtuple(
    "TPUSystemMetadata",
    ["num_cores", "num_hosts", "num_of_cores_per_host", "topology", "devices"])


class Topology:
    """The layout of a TPU slice (``tf.tpu.experimental.Topology``)."""

    def __init__(self, mesh_shape, device_coordinates):
        self._mesh_shape = np.asarray(mesh_shape, dtype=np.int32)
        self._device_coordinates = np.asarray(device_coordinates, dtype=np.int32)
        if self._device_coordinates.ndim != 3:
            raise ValueError("`device_coordinates` must be a rank 3 int32 array with "
                             "dimensions [num_tasks, num_tpus_per_task, axis]")

    @classmethod
    def of_slice(cls, s) -> Topology:
        """The topology of a tpu_machine.TPUSlice, cores in the simulated device order."""
        x, y, z = s.chips
        coords = [(i, j, k, c) for k in range(z) for (i, j) in plane_ring(x, y)
                  for c in range(s.cores_per_chip)]
        per_task = s.num_cores // s.num_hosts
        return cls([x, y, z, s.cores_per_chip],
                   np.asarray(coords).reshape(s.num_hosts, per_task, 4))

    mesh_shape = property(lambda self: self._mesh_shape)
    mesh_rank = property(lambda self: len(self._mesh_shape))
    device_coordinates = property(lambda self: self._device_coordinates)
    num_tasks = property(lambda self: self._device_coordinates.shape[0])
    num_tpus_per_task = property(lambda self: self._device_coordinates.shape[1])

    def _where(self, device_coordinates):
        hits = np.argwhere(np.all(self._device_coordinates == np.asarray(device_coordinates),
                                  axis=-1))
        if not len(hits):
            raise ValueError(f"No TPU core at coordinates {list(device_coordinates)} in a mesh "
                             f"of shape {self._mesh_shape.tolist()}.")
        return hits[0]

    def task_ordinal_at_coordinates(self, device_coordinates) -> int:
        """The host task of the core at ``device_coordinates``."""
        return int(self._where(device_coordinates)[0])

    def tpu_device_ordinal_at_coordinates(self, device_coordinates) -> int:
        """The TPU ordinal (``TPU:i``) on its host of the core at ``device_coordinates``."""
        return int(self._where(device_coordinates)[1])

    def cpu_device_name_at_coordinates(self, device_coordinates, job=None) -> str:
        task = self.task_ordinal_at_coordinates(device_coordinates)
        return f"/job:{job or 'worker'}/replica:0/task:{task}/device:CPU:0"

    def tpu_device_name_at_coordinates(self, device_coordinates, job=None) -> str:
        task, ordinal = self._where(device_coordinates)
        return f"/job:{job or 'worker'}/replica:0/task:{int(task)}/device:TPU:{int(ordinal)}"

    @property
    def missing_devices(self):
        return np.zeros((0, self.mesh_rank), dtype=np.int32)

    def __repr__(self):
        return (f"Topology(mesh_shape={self._mesh_shape.tolist()}, num_tasks={self.num_tasks}, "
                f"num_tpus_per_task={self.num_tpus_per_task})")


def _resolver(cluster_resolver, what):
    if cluster_resolver is None:
        cluster_resolver = TPUClusterResolver("")
    if not isinstance(cluster_resolver, TPUClusterResolver):
        raise TypeError(f"{what}: cluster_resolver must be a "
                        "tf.distribute.cluster_resolver.TPUClusterResolver, got "
                        f"{type(cluster_resolver).__name__}.")
    return cluster_resolver


def initialize_tpu_system(cluster_resolver=None) -> Topology:
    """Initialize the TPU system and return its Topology.

    Raises:
      NotFoundError: the machine simulates no TPU (TF's message).
      RuntimeError: inside a tf.function, where TF returns a serialized topology.
      TypeError: a resolver that is not a TPUClusterResolver.
    """
    resolver = _resolver(cluster_resolver, "initialize_tpu_system")
    if not context.executing_eagerly():
        raise RuntimeError("simdist runs initialize_tpu_system eagerly only; call it before "
                           "any tf.function, at the start of the program.")
    machine = tpu_machine()
    if machine is None:
        raise errors.NotFoundError(
            None, None, "TPUs not found in the cluster. Failed in initialization: No OpKernel "
                        "was registered to support Op 'ConfigureDistributedTPU' (the "
                        "simulated machine has no TPU; set SIMDIST_MACHINE=tpu-v3-8).")
    if resolver._tpu in _INITIALIZED:
        warnings.warn(f"TPU system {resolver._tpu} has already been initialized. "
                      "Reinitializing the TPU can cause previously created variables on "
                      "TPU to be lost.", stacklevel=2)
    resolver._connect()
    topology = Topology.of_slice(machine.tpu_slice)
    _INITIALIZED.add(resolver._tpu)
    machine.tpu_initialized = True
    resolver.set_tpu_topology(topology)
    return topology


def shutdown_tpu_system(cluster_resolver=None) -> None:
    """Shut the TPU system down (it must be initialized again before use).

    Raises:
      InvalidArgumentError: the machine simulates no TPU (TF's kernel error).
    """
    resolver = _resolver(cluster_resolver, "shutdown_tpu_system")
    machine = tpu_machine()
    if resolver._tpu not in _INITIALIZED:
        warnings.warn(f"You are shutting down a TPU system {resolver._tpu} that has not been "
                      "initialized.", stacklevel=2)
    if machine is None:
        raise errors.InvalidArgumentError(
            None, None, "No OpKernel was registered to support Op 'ShutdownDistributedTPU' "
                        "(the simulated machine has no TPU).")
    _INITIALIZED.discard(resolver._tpu)
    machine.tpu_initialized = False


def system_metadata(resolver) -> TPUSystemMetadata:
    """What TPUStrategy reads of the connected TPU system."""
    machine = resolver._machine
    if machine is None or machine.tpu_job is None:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0: no TPU device is "
                         "connected. Call tf.config.experimental_connect_to_cluster(resolver) "
                         "and tf.tpu.experimental.initialize_tpu_system(resolver) first, on a "
                         "machine that simulates a TPU (SIMDIST_MACHINE=tpu-v3-8).")
    s = machine.tpu_slice
    devices = machine.devices_of_type("TPU")
    return TPUSystemMetadata(s.num_cores, s.num_hosts, s.num_cores // s.num_hosts,
                             Topology.of_slice(s), tuple(devices))
