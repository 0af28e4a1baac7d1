"""PCIe tree: GPUs under PCIe switches under one CPU root complex.

Glossary:
  root complex -- the host CPU; every PCIe switch hangs off it with one x16 uplink, so
                  GPUs under different switches share those uplinks (the bottleneck).
Figures: PCIe 3.0/4.0 x16 per direction (PCI-SIG, see links.py). The layout (two GPUs per
PLX switch) is the common 4- and 8-GPU PCIe server of the V100 generation.
"""

from __future__ import annotations

from simdist.hardware.topologies import links
from simdist.hardware.topologies.common import add_device, add_switch, device_name, new_graph

PCIE = {"3": links.PCIE3_X16, "4": links.PCIE4_X16, "5": links.PCIE5_X16}


def pcie_tree(num_gpus: int = 4, gpu: str = "V100", gpus_per_switch: int = 2,
              generation: str = "3"):
    """``num_gpus`` GPUs, ``gpus_per_switch`` under each PCIe switch, switches under the CPU."""
    if num_gpus < 1 or gpus_per_switch < 1:
        raise ValueError("pcie_tree needs num_gpus >= 1 and gpus_per_switch >= 1.")
    spec = PCIE[str(generation)]
    graph = new_graph(f"pcie-tree-{num_gpus}x{gpu}")
    cpu = add_device(graph, device_name("CPU", 0), "CPU", "CPU")
    for i in range(num_gpus):
        sw = f"pcie-switch:{i // gpus_per_switch}"
        if sw not in graph:
            add_switch(graph, sw, "pcie-switch")
            graph.add_edge(cpu, sw, **links.link(spec))
        graph.add_edge(add_device(graph, device_name("GPU", i), "GPU", gpu), sw,
                       **links.link(spec))
    graph.graph["local_size"] = num_gpus
    return graph
