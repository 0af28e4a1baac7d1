"""Multi-node clusters: NVSwitch nodes joined by InfiniBand through a fat-tree.

Glossary:
  NIC      -- a node's InfiniBand adapter; GPUs reach it over PCIe 4.0 (GPUs split evenly
              over ``nics_per_node`` NICs, as DGX A100 pairs GPUs with NICs per PCIe switch).
  fat-tree -- leaf switches (``nodes_per_leaf`` nodes each) under one spine; the spine
              links carry the sum of their leaf's ports, i.e. full bisection bandwidth.
  rings    -- NCCL-style channels: one ring per NIC, each entering and leaving every node
              through a different NIC, so all NICs carry traffic at once.
  uplinks  -- route hints: node -> the next node towards the core (GPU -> its NIC -> leaf
              -> spine), with the graph's signature when built; a Topology routes pairs of
              GPUs on different nodes along them while the graph is unchanged.
Sources: InfiniBand HDR 200 Gb/s, NDR 400 Gb/s per port (ConnectX-6/7 briefs); NVIDIA
Quantum (40 ports) and Quantum-2 (64 ports) switch briefs for the leaf radix.
"""

from __future__ import annotations

from simdist.hardware.topologies import links
from simdist.hardware.topologies.common import add_switch, new_graph
from simdist.hardware.topologies.nvswitch import build_node


def fat_tree(num_nodes: int = 2, gpus_per_node: int = 8, gpu: str = "A100",
             nics_per_node: int = 4, infiniband: str = "HDR", nodes_per_leaf: int = 16):
    """``num_nodes`` NVSwitch nodes, ``nics_per_node`` IB NICs each, on a fat-tree."""
    if infiniband.upper() not in links.INFINIBAND:
        raise ValueError(f"Unknown InfiniBand generation {infiniband!r}; "
                         f"choose one of {sorted(links.INFINIBAND)}.")
    if num_nodes < 1 or gpus_per_node < 1 or not 1 <= nics_per_node <= gpus_per_node:
        raise ValueError("fat_tree needs num_nodes >= 1 and 1 <= nics_per_node <= "
                         "gpus_per_node.")
    ib = links.INFINIBAND[infiniband.upper()]
    graph = new_graph(f"fat-tree-{num_nodes}x{gpus_per_node}{gpu}-{nics_per_node}x{infiniband}")
    spine = add_switch(graph, "ib-spine", "ib-switch") if num_nodes > nodes_per_leaf else None
    per_nic = gpus_per_node // nics_per_node
    up = {}  # node -> the next node on its way to the core (GPU -> NIC -> leaf -> spine)
    for task in range(num_nodes):
        gpus = build_node(graph, gpus_per_node, gpu, task, "worker")
        leaf = f"ib-leaf:{task // nodes_per_leaf}"
        if leaf not in graph:
            add_switch(graph, leaf, "ib-switch")
            if spine:
                ports = min(nodes_per_leaf, num_nodes) * nics_per_node
                graph.add_edge(leaf, spine, **links.link(ib, ports, latency=links.IB_SWITCH_HOP))
                up[leaf] = spine
        for k in range(nics_per_node):
            nic = add_switch(graph, f"nic:{task}.{k}", "nic")
            graph.add_edge(nic, leaf, **links.link(ib))
            up[nic] = leaf
            for g in gpus[k * per_nic:(k + 1) * per_nic] if k < nics_per_node - 1 else \
                    gpus[k * per_nic:]:
                graph.add_edge(g, nic, **links.link(links.PCIE4_X16))
                up[g] = nic
    devices = graph.graph["devices"]
    graph.graph.update(local_size=gpus_per_node, rings=_rings(num_nodes, gpus_per_node,
                                                             nics_per_node, devices))
    # Route hints (route_batch._uplinks): every link latency is positive and a detour
    # through the NVSwitch adds two NVLink hops, so between GPUs of different nodes the
    # path up to their first shared switch and down again is the unique lowest-latency
    # one (tested against Dijkstra); pairs inside a node are settled before it is read.
    from simdist.hardware.topology import signature

    graph.graph.update(uplinks=up, uplinks_signature=signature(graph))
    return graph


def _rings(num_nodes, gpus_per_node, nics, devices):
    """One ring per NIC: inside each node start at the GPU after NIC k's first GPU."""
    if num_nodes == 1:
        return [list(devices)]
    per_nic = gpus_per_node // nics
    rings = []
    for k in range(nics):
        # Leave node t from GPU k*per_nic (on NIC k), enter node t+1 at the GPU after it,
        # so channel k crosses the network only through NIC k of each node.
        start = (k * per_nic + 1) % gpus_per_node
        local = [(start + i) % gpus_per_node for i in range(gpus_per_node)]
        rings.append([devices[t * gpus_per_node + g] for t in range(num_nodes) for g in local])
    return rings
