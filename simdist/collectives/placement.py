"""Where a collective's ranks sit on a topology, and how its buffers are cut into chunks.

Glossary:
  devices   -- topology nodes of ranks 0..p-1 (default: the topology's first p devices).
  servers   -- extra ranks (parameter servers) go to the topology's host CPUs in turn.
  slots     -- for reduce-scatter, all-gather and all-to-all the buffer is p slots along
               axis 0 (``numpy.array_split`` row counts), each cut into the schedule's
               chunks-per-slot; all-reduce, broadcast and reduce cut the flat buffer evenly.
"""

from __future__ import annotations

import numpy as np

from simdist.collectives.schedule import even_bounds
from simdist.hardware.topology import Topology, TopologyError


def place(topo: Topology, num_devices: int, devices=None, num_servers: int = 0) -> list:
    """Topology node of every rank (devices then servers).

    Raises:
      TopologyError: when the topology has too few devices or lacks a named one.
    """
    if devices is None:
        if num_devices > len(topo.devices):
            raise TopologyError(
                f"Topology {topo.name!r} has {len(topo.devices)} devices but the collective "
                f"has {num_devices} replicas; pass a larger topology or devices=[...].")
        devices = topo.devices[:num_devices]  # the topology's own nodes: no checks needed
    else:
        devices = [getattr(d, "name", d) for d in devices]
        if len(devices) != num_devices:
            raise ValueError(f"Got {len(devices)} devices for {num_devices} replicas.")
        topo.require_all(devices)
    return add_servers(topo, devices, num_servers)


def add_servers(topo: Topology, nodes, num_servers: int) -> list:
    """``nodes`` (already placed: topology nodes) followed by ``num_servers`` server ranks
    on the topology's host CPUs in turn (on the nodes themselves when it has no hosts)."""
    hosts = topo.hosts or list(nodes)
    return list(nodes) + [hosts[s % len(hosts)] for s in range(num_servers)]


def slot_bounds(slot_sizes, per_slot: int) -> np.ndarray:
    """Chunk bounds when slot r (of ``slot_sizes[r]`` elements) is cut into ``per_slot``."""
    out = [0]
    for size in slot_sizes:
        sub = even_bounds(int(size), per_slot)
        out.extend(out[-1] + sub[1:])
    return np.asarray(out, dtype=np.int64)


def row_slots(shape, p: int) -> list[int]:
    """Elements in each of p slots that split axis 0 as numpy.array_split does."""
    rows = shape[0] if shape else 1
    unit = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    return [int(s) * unit for s in even_bounds(rows, p)[1:] - even_bounds(rows, p)[:-1]]
