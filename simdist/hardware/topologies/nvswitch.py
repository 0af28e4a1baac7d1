"""NVSwitch nodes: every GPU has one fat link into a non-blocking switch fabric.

Glossary:
  NVSwitch fabric -- modelled as one switch node; each GPU's link carries the GPU's total
                     NVLink bandwidth per direction (the fabric itself is non-blocking).
Sources: DGX A100: 8 A100, NVLink 3, 12 links x 25 GB/s = 300 GB/s per direction per GPU
("600 GB/s" bidirectional), PCIe 4.0 to host (NVIDIA DGX A100 user guide / A100 data
sheet). DGX H100: 8 H100, NVLink 4, 18 links = 450 GB/s per direction ("900 GB/s"),
PCIe 5.0 to host (DGX H100 user guide / H100 data sheet).
"""

from __future__ import annotations

from simdist.hardware.topologies import links
from simdist.hardware.topologies.common import add_device, add_switch, device_name, new_graph

NVLINK = {"A100": links.NVLINK3_GPU, "H100": links.NVLINK4_GPU, "V100": links.NVLINK2}
HOST_PCIE = {"A100": links.PCIE4_X16, "H100": links.PCIE5_X16, "V100": links.PCIE3_X16}


def build_node(graph, num_gpus: int, gpu: str, task: int = 0, job: str = "localhost"):
    """Add one NVSwitch node's GPUs, switch and host CPU to ``graph``; returns the GPUs."""
    nvlink = NVLINK.get(gpu, links.NVLINK3_GPU)
    switch = add_switch(graph, f"nvswitch:{job}:{task}", "nvswitch")
    cpu = add_device(graph, device_name("CPU", 0, task, job), "CPU", "CPU")
    graph.add_edge(cpu, switch, **links.link(HOST_PCIE.get(gpu, links.PCIE4_X16)))
    gpus = []
    for i in range(num_gpus):
        g = add_device(graph, device_name("GPU", i, task, job), "GPU", gpu)
        graph.add_edge(g, switch, **links.link(nvlink))
        gpus.append(g)
    return gpus


def nvswitch(num_gpus: int = 8, gpu: str = "A100"):
    """One node of ``num_gpus`` GPUs on an NVSwitch fabric (any count: a generic node)."""
    if num_gpus < 1:
        raise ValueError("nvswitch needs num_gpus >= 1.")
    graph = new_graph(f"nvswitch-{num_gpus}x{gpu}")
    build_node(graph, num_gpus, gpu)
    graph.graph["local_size"] = num_gpus
    return graph


def dgx_a100():
    """DGX A100: 8 A100 on NVSwitch (NVLink 3, 300 GB/s per GPU per direction)."""
    graph = nvswitch(8, "A100")
    graph.graph["name"] = "dgx-a100"
    return graph


def dgx_h100():
    """DGX H100: 8 H100 on NVSwitch (NVLink 4, 450 GB/s per GPU per direction)."""
    graph = nvswitch(8, "H100")
    graph.graph["name"] = "dgx-h100"
    return graph
