"""``tf.tpu.experimental.DeviceAssignment``: which TPU cores each replica's computation uses.

Glossary:
  computation_shape -- the block of the mesh ``[x, y, z, core]`` one replica occupies; its
                       cores are the replica's logical cores (model parallelism), numbered
                       in C order of their offsets in the block.
  core_assignment   -- ``[num_replicas, num_cores_per_replica, mesh_rank]`` coordinates.
  build             -- tiles the mesh with blocks of ``computation_shape`` and takes the
                       first ``num_replicas`` in the slice's device order (simdist's ring
                       order; TF's own placement order can differ for large meshes).
Mirrors tensorflow/python/tpu/device_assignment.py.
"""

from __future__ import annotations

import itertools

import numpy as np


class DeviceAssignment:
    """The cores of each replica of a TPU computation."""

    def __init__(self, topology, core_assignment):
        core_assignment = np.asarray(core_assignment, dtype=np.int32)
        if core_assignment.ndim != 3:
            raise ValueError("core_assignment must be a rank 3 numpy array, "
                             f"got shape {core_assignment.shape}")
        if core_assignment.shape[-1] != topology.mesh_rank:
            raise ValueError("core_assignment.shape[-1] must have size equal to topology "
                             f"rank ({topology.mesh_rank}), got "
                             f"core_assignment.shape={core_assignment.shape}")
        self._topology = topology
        self._core_assignment = core_assignment

    topology = property(lambda self: self._topology)
    core_assignment = property(lambda self: self._core_assignment)
    num_replicas = property(lambda self: self._core_assignment.shape[0])
    num_cores_per_replica = property(lambda self: self._core_assignment.shape[1])

    def coordinates(self, replica: int, logical_core: int):
        """The physical ``[x, y, z, core]`` of a replica's logical core."""
        return tuple(self._core_assignment[replica, logical_core, :].tolist())

    def lookup_replicas(self, task_id: int, logical_core: int) -> list:
        """The replicas whose ``logical_core`` is on host ``task_id``.

        Raises:
          ValueError: no replica has that logical core on that task (TF's message).
        """
        found = [r for r in range(self.num_replicas)
                 if self._topology.task_ordinal_at_coordinates(
                     self.coordinates(r, logical_core)) == task_id]
        if not found:
            raise ValueError(f"Can not find any replica in task: {task_id} contains "
                             f"logical_core: {logical_core} ")
        return found

    def tpu_ordinal(self, replica: int = 0, logical_core: int = 0) -> int:
        return self._topology.tpu_device_ordinal_at_coordinates(
            self.coordinates(replica, logical_core))

    def host_device(self, replica: int = 0, logical_core: int = 0, job=None) -> str:
        return self._topology.cpu_device_name_at_coordinates(
            self.coordinates(replica, logical_core), job=job)

    def tpu_device(self, replica: int = 0, logical_core: int = 0, job=None) -> str:
        return self._topology.tpu_device_name_at_coordinates(
            self.coordinates(replica, logical_core), job=job)

    @classmethod
    def build(cls, topology, computation_shape=None, computation_stride=None,
              num_replicas=1, device_order_mode=None) -> DeviceAssignment:
        """Place ``num_replicas`` blocks of ``computation_shape`` cores on the mesh.

        Raises:
          ValueError: a shape that does not fit the mesh, or too many replicas (TF's text).
        """
        mesh = topology.mesh_shape.tolist()
        rank = len(mesh)
        shape = [1] * rank if computation_shape is None else [int(d) for d in
                                                               computation_shape]
        if len(shape) == rank - 1:  # TF accepts [x, y, z] and appends one core
            shape.append(1)
        if len(shape) != rank or any(d < 1 for d in shape):
            raise ValueError(f"computation shape must be a list with {rank} positive "
                             f"entries; got {computation_shape}")
        if computation_stride is not None and any(int(s) != 1 for s in computation_stride):
            raise ValueError("simdist places replicas side by side: computation_stride "
                             "other than the default is not simulated.")
        if any(m % d for m, d in zip(mesh, shape)):
            raise ValueError(f"computation shape {shape} does not divide the TPU mesh of "
                             f"shape {mesh}")
        tiles = [m // d for m, d in zip(mesh, shape)]
        available = int(np.prod(tiles))
        if not 0 < num_replicas <= available:
            raise ValueError(
                f"requested {num_replicas} replicas but only {available} replicas with shape "
                f"{shape} and computation_stride {[1] * rank} fit in a TPU mesh of shape "
                f"{mesh}")
        order = {tuple(c): i for i, c in
                 enumerate(topology.device_coordinates.reshape(-1, rank).tolist())}
        blocks = []
        for tile in itertools.product(*[range(t) for t in tiles]):
            start = [t * d for t, d in zip(tile, shape)]
            cores = [[s + o for s, o in zip(start, offset)]
                     for offset in itertools.product(*[range(d) for d in shape])]
            blocks.append(cores)
        blocks.sort(key=lambda cores: order[tuple(cores[0])])
        return cls(topology, np.asarray(blocks[:num_replicas], dtype=np.int32))
