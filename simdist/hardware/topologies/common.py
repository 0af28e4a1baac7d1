"""Helpers shared by the topology presets: node naming and graph attributes.

Glossary:
  device node -- a GPU/TPU/CPU, named as TensorFlow names devices
                 (``/job:worker/replica:0/task:1/device:GPU:3``), attributes ``kind``
                 (``GPU``, ``TPU``, ``CPU``) and ``spec`` (a key of hardware.specs.SPECS).
  switch node -- anything that only forwards bytes (PCIe switch, NVSwitch, NIC, IB switch);
                 ``kind`` says which.
  graph attributes -- ``name``; ``devices`` (accelerators in rank order); ``hosts`` (CPU
                 nodes, where parameter servers live); optional hints that algorithms use:
                 ``ring_order`` (a ring over direct links), ``local_size`` (devices per
                 node), ``dims`` (torus shape); ``rings`` (rank orders, one per channel)
                 with ``ring_ranks`` (the same rings as ranks, see RingRanks).
  RingRanks   -- a preset's rings as an int array of ranks, with the device list and rings
                 they were made for: used only while the graph still names those exact
                 rings and devices (compared by value), so an edited graph falls back to
                 reading the names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # networkx loads when a preset builds its first graph, not on import
    import networkx as nx


def device_name(kind: str, index: int, task: int = 0, job: str = "localhost") -> str:
    """A canonical TensorFlow device name."""
    return f"/job:{job}/replica:0/task:{task}/device:{kind}:{index}"


def new_graph(name: str) -> nx.Graph:
    import networkx as nx

    graph = nx.Graph(name=name)
    graph.graph.update(devices=[], hosts=[])
    return graph


def add_device(graph: nx.Graph, name: str, kind: str, spec: str) -> str:
    graph.add_node(name, kind=kind, spec=spec)
    (graph.graph["hosts"] if kind == "CPU" else graph.graph["devices"]).append(name)
    return name


def add_switch(graph: nx.Graph, name: str, kind: str) -> str:
    graph.add_node(name, kind=kind)
    return name


class RankLists(list):
    """Rings as lists of ranks (the ``rings`` parameter a hint gives), with ``array``, the
    same ranks checked and read only: pricing takes it instead of converting 8 rings of
    65,536 ranks back. Like the hint itself, read only."""

    array: np.ndarray


class RingRanks:
    """The rings a preset built, as ranks (positions in its device list)."""

    def __init__(self, devices, ranks: np.ndarray):
        self.devices = list(devices)
        self.ranks = np.array(ranks, dtype=np.int64)
        self.ranks.setflags(write=False)
        self.lists = RankLists(self.ranks.tolist())
        self.lists.array = self.ranks
        self.rings = [[self.devices[r] for r in ring] for ring in self.lists]

    def ranks_for(self, rings, devices) -> np.ndarray | None:
        """The rank array when ``rings`` over ``devices`` are still the ones built (equal
        names in the same order), else None."""
        if len(devices) != len(self.devices) or len(rings) != len(self.rings):
            return None
        if list(devices) != self.devices:
            return None
        for ring, built in zip(rings, self.rings):
            if list(ring) != built:
                return None
        return self.ranks
