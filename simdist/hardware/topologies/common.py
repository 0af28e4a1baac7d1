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
                 node), ``dims`` (torus shape).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
