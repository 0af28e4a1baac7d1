"""NVLink point-to-point topologies: a ring of GPUs, and the DGX-1 hybrid cube-mesh.

Glossary:
  hybrid cube-mesh -- DGX-1's 8 V100s: two fully connected quads {0-3} {4-7} plus links
                      0-4, 1-5, 2-6, 3-7; some pairs use two bonded NVLinks, so each GPU
                      uses all 6 of its NVLink 2 links.
Sources: NVIDIA "DGX-1 with Tesla V100 System Architecture" white paper (figure 2) and
``nvidia-smi topo -m`` on a DGX-1V (NV1/NV2 = one/two bonded links); 25 GB/s per link per
direction (V100 data sheet). GPUs also reach the host over PCIe 3.0 x16.
"""

from __future__ import annotations

from simdist.hardware.topologies import links
from simdist.hardware.topologies.common import add_device, add_switch, device_name, new_graph

# (a, b, bonded links) as nvidia-smi topo -m shows them on a DGX-1V.
DGX1_NVLINKS = [
    (0, 1, 1), (0, 2, 1), (0, 3, 2), (0, 4, 2), (1, 2, 2), (1, 3, 1), (1, 5, 2),
    (2, 3, 2), (2, 6, 1), (3, 7, 1), (4, 5, 1), (4, 6, 1), (4, 7, 2), (5, 6, 2),
    (5, 7, 1), (6, 7, 2),
]
# A ring over direct NVLinks only (one NCCL finds on DGX-1).
DGX1_RING = [0, 3, 2, 1, 5, 6, 7, 4]
# Three Hamiltonian cycles that together use each NVLink exactly once (found by exhaustive
# search over the 30 cycles of the cube-mesh); run both ways they give the 6 rings that keep
# all 6 links of every GPU busy in both directions, as NCCL's channels do on a DGX-1.
DGX1_CYCLES = [(0, 1, 2, 3, 7, 5, 6, 4), (0, 2, 6, 7, 4, 5, 1, 3), DGX1_RING]


def _host_pcie(graph, gpus, groups):
    """Each group of GPUs under one PCIe switch per pair, under one CPU socket per group."""
    for s, group in enumerate(groups):
        cpu = add_device(graph, device_name("CPU", s), "CPU", "CPU")
        if s:
            graph.add_edge(device_name("CPU", 0), cpu, kind="upi", bandwidth=20e9,
                           latency=1e-6, links=1)  # Intel UPI/QPI ~20 GB/s per direction
        for j in range(0, len(group), 2):
            sw = add_switch(graph, f"pcie-switch:{s}.{j // 2}", "pcie-switch")
            graph.add_edge(cpu, sw, **links.link(links.PCIE3_X16))
            for g in group[j:j + 2]:
                graph.add_edge(gpus[g], sw, **links.link(links.PCIE3_X16))


def nvlink_ring(num_gpus: int = 4, gpu: str = "V100", links_per_pair: int = 1):
    """GPUs in a ring of NVLink 2 links (``links_per_pair`` bonded), PCIe to one CPU."""
    if num_gpus < 1:
        raise ValueError("nvlink_ring needs num_gpus >= 1.")
    graph = new_graph(f"nvlink-ring-{num_gpus}x{gpu}")
    gpus = [device_name("GPU", i) for i in range(num_gpus)]
    for i in range(num_gpus):
        add_device(graph, gpus[i], "GPU", gpu)
    for i in range(num_gpus if num_gpus > 2 else num_gpus - 1):
        graph.add_edge(gpus[i], gpus[(i + 1) % num_gpus],
                       **links.link(links.NVLINK2, links_per_pair))
    _host_pcie(graph, gpus, [list(range(num_gpus))])
    graph.graph.update(ring_order=gpus, local_size=num_gpus)
    return graph


def dgx1(gpu: str = "V100"):
    """DGX-1 (8 V100): hybrid cube-mesh NVLink 2, two CPU sockets over PCIe 3.0."""
    graph = new_graph("dgx1")
    gpus = [device_name("GPU", i) for i in range(8)]
    for g in gpus:
        add_device(graph, g, "GPU", gpu)
    for a, b, n in DGX1_NVLINKS:
        graph.add_edge(gpus[a], gpus[b], **links.link(links.NVLINK2, n))
    _host_pcie(graph, gpus, [[0, 1, 2, 3], [4, 5, 6, 7]])
    rings = [[gpus[i] for i in c] for c in DGX1_CYCLES]
    rings += [r[:1] + r[1:][::-1] for r in rings]
    graph.graph.update(ring_order=[gpus[i] for i in DGX1_RING], rings=rings, local_size=8)
    return graph
