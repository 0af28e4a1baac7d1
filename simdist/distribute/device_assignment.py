"""``tf.tpu.experimental.DeviceAssignment``: which TPU cores each replica's computation uses.

Glossary:
  computation_shape -- the block of the mesh ``[x, y, z, core]`` one replica occupies; its
                       cores are the replica's logical cores (model parallelism), numbered
                       in C order of their offsets in the block.
  core_assignment   -- ``[num_replicas, num_cores_per_replica, mesh_rank]`` coordinates.
  computation_stride -- the spacing of a replica's cores on each axis: a shape [2, 1, 1, 1]
                       with stride [2, 1, 1, 1] takes cores x and x + 2; the blocks of
                       ``shape * stride`` (the footprint) are interleaved, so as many
                       replicas still fit.
  build             -- TF's placement: replicas counted core axis first, then x, y, z, over
                       a replica grid as close to a cube as possible; with a whole-chip
                       computation, no stride and every replica used (or
                       DeviceOrderMode.RING), replicas and their cores follow 3-D rings
                       instead (TF's _ring_3d). Checked against TF 2.21
                       (tests/distribute/test_device_assignment.py).
Mirrors tensorflow/python/tpu/device_assignment.py.
"""

from __future__ import annotations

import enum
import math

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
        """TF's device_assignment(): see the module docstring.

        Raises:
          ValueError: shapes of the wrong rank, non-positive entries, a footprint that
            does not fit the mesh, too many replicas, RING where it cannot tile (TF's text).
        """
        return cls(topology, _assign(topology, computation_shape, computation_stride,
                                     num_replicas, DeviceOrderMode(device_order_mode or 0)))


class DeviceOrderMode(enum.IntEnum):
    """How replicas are ordered (``tf.tpu.experimental.DeviceOrderMode``)."""

    AUTO = 0   # rings where TF can tile the mesh with them
    RING = 1
    MESH = 2


def _vector(value, rank, what):
    v = np.array([1] * rank if value is None else value, dtype=np.int32)
    if v.shape != (rank,):
        raise ValueError(f"{what} must have shape [{rank}]; got {v.shape}")
    if any(v < 1):
        raise ValueError(f"{what} must be positive; got {what}={v}")
    return v


def _assign(topology, computation_shape, computation_stride, num_replicas, mode):
    """The core assignment ``[num_replicas, cores per replica, rank]`` (TF's algorithm)."""
    mesh = np.asarray(topology.mesh_shape, dtype=np.int32)
    rank = len(mesh)
    shape = _vector(computation_shape, rank, "computation_shape")
    stride = _vector(computation_stride, rank, "computation_stride")
    footprint = shape * stride
    if any(footprint > mesh):
        raise ValueError(f"computation footprint {footprint} does not fit in TPU topology "
                         f"shape {mesh}")
    replica_counts = (mesh // footprint) * stride
    max_replicas = int(np.prod(replica_counts))
    if num_replicas > max_replicas:
        raise ValueError(
            f"requested {num_replicas} replicas but only {max_replicas} replicas with shape "
            f"{shape} and computation_stride {stride} fit in a TPU mesh of shape {mesh}")
    replica_shape = _replica_shape(replica_counts, num_replicas) if num_replicas > 0 \
        else [0] * rank
    tiling = (rank == 4 and shape[-1] == mesh[-1] and np.prod(stride) == 1
              and num_replicas == max_replicas)
    if mode != DeviceOrderMode.AUTO:
        if mode == DeviceOrderMode.RING and not tiling:
            raise ValueError(
                "device_order_mode=DeviceOrderMode.RING is not compatible with the 3D tiling "
                "current topology.  Try setting device_order_mode=DeviceOrderMode.AUTO")
        tiling = mode == DeviceOrderMode.RING
    if tiling:
        return _ring_tiling(shape, replica_shape, mesh, num_replicas)
    return _strided_blocks(shape, stride, footprint, replica_shape, num_replicas)


def _replica_shape(replica_counts, num_replicas):
    """Replicas per axis, as close to a cube as the counts allow: the most constrained axis
    first, the core axis before x, y, z."""
    rank = len(replica_counts)
    shape = [0] * rank
    remaining, dims = num_replicas, rank
    for x, ni in sorted((int(x), (i + 1) % rank) for i, x in enumerate(replica_counts)):
        i = (ni + rank - 1) % rank
        shape[i] = min(int(math.ceil(remaining ** (1.0 / dims))), x)
        remaining = -(-remaining // shape[i])
        dims -= 1
    return shape


def _strided_blocks(shape, stride, footprint, replica_shape, num_replicas):
    """Replica ``r`` counted in the core axis first, then x, y, z; its block starts at the
    footprint it falls in plus its place inside the stride, its cores ``stride`` apart."""
    rank = len(shape)
    offsets = np.full([num_replicas, rank], -1, dtype=np.int32)
    for replica in range(num_replicas):
        t, pos = replica, []
        for dim in [replica_shape[-1]] + list(replica_shape[:-1]):
            pos.append(t % dim)
            t //= dim
        at = np.array(pos[1:] + pos[:1])
        offsets[replica] = (at // stride) * footprint + at % stride
    axes = [np.arange(0, shape[i] * stride[i], stride[i]) for i in range(rank)]
    cores = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, rank)
    return cores[np.newaxis] + offsets[:, np.newaxis, :]


def _ring_tiling(shape, replica_shape, mesh, num_replicas):
    """3-D tiling: replicas follow a ring over the blocks, each block's chips a ring."""
    inner = _ring_3d(*shape[:3])
    outer = _ring_3d(*replica_shape[:3])
    cores = mesh[-1]
    out = []
    for replica in range(num_replicas):
        ox, oy, oz = outer[replica]
        out.append([[ox * shape[0] + inner[i // cores][0], oy * shape[1] + inner[i // cores][1],
                     oz * shape[2] + inner[i // cores][2], i % cores]
                    for i in range(int(np.prod(shape)))])
    return out


def _open_ring_2d(x_size, y_size, z):
    """An x-by-y plane's ring at height ``z`` without chip (0, 0): snake along x, back up
    the first column."""
    ret = []
    for i in range(y_size // 2):
        ret.extend((j, 2 * i, z) for j in range(1, x_size))
        ret.extend((j, 2 * i + 1, z) for j in range(x_size - 1, 0, -1))
    ret.extend((0, i, z) for i in range(y_size - 1, 0, -1))
    return ret


def _ring_3d(x_size, y_size, z_size):
    """Ring order of an x-by-y-by-z mesh: plane rings stacked in z, joined in a corner."""
    if x_size == 1 and y_size == 1:
        return [(0, 0, i) for i in range(z_size)]
    if x_size == 1 and z_size == 1:
        return [(0, i, 0) for i in range(y_size)]
    if y_size == 1 and z_size == 1:
        return [(i, 0, 0) for i in range(x_size)]
    if any(n > 1 and n % 2 for n in (x_size, y_size, z_size)):   # odd: plain C order
        return [(x, y, z) for z in range(z_size) for y in range(y_size)
                for x in range(x_size)]
    ret = [(0, 0, 0)]
    if z_size == 1:
        return ret + _open_ring_2d(x_size, y_size, 0)
    if y_size == 1:
        return ret + [(x, y, z) for (x, z, y) in _open_ring_2d(x_size, z_size, 0)]
    if x_size == 1:
        return ret + [(x, y, z) for (y, z, x) in _open_ring_2d(y_size, z_size, 0)]
    for i in range(z_size):
        r = _open_ring_2d(x_size, y_size, i)
        ret.extend(r if i % 2 == 0 else reversed(r))
    return ret + [(0, 0, i) for i in range(z_size - 1, 0, -1)]
