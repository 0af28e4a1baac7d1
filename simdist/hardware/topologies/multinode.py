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

import numpy as np

from simdist.hardware.topologies import common, links
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
    ranks = common.RingRanks(devices, _ring_ranks(num_nodes, gpus_per_node, nics_per_node))
    graph.graph.update(local_size=gpus_per_node, rings=[list(r) for r in ranks.rings],
                       ring_ranks=ranks)
    # Route hints (route_batch._uplinks): every link latency is positive and a detour
    # through the NVSwitch adds two NVLink hops, so between GPUs of different nodes the
    # path up to their first shared switch and down again is the unique lowest-latency
    # one (tested against Dijkstra); pairs inside a node are settled before it is read.
    # Both hints are also kept as node ids / ranks (arrays), as the preset knows them
    # while building: a first pricing then needs no name lookups for them.
    from simdist.hardware.link_table import LinkTable

    table = LinkTable.read(graph)
    graph.graph.update(uplinks=up, uplink_ids=_uplink_ids(table, up),
                       uplinks_signature=table.signature)
    return graph


def _uplink_ids(table, up) -> np.ndarray:
    """``up`` as node ids (read-only): entry i is node i's uplink, -1 for none."""
    ids = table.node_id
    out = np.full(len(table.nodes), -1, dtype=np.int64)
    out[np.fromiter(map(ids.__getitem__, up), dtype=np.int64, count=len(up))] = np.fromiter(
        map(ids.__getitem__, up.values()), dtype=np.int64, count=len(up))
    out.setflags(write=False)
    return out


def _ring_ranks(num_nodes, gpus_per_node, nics) -> np.ndarray:
    """One ring per NIC, as ranks (positions in ``devices``): inside each node start at
    the GPU after NIC k's first GPU."""
    if num_nodes == 1:
        return np.arange(gpus_per_node, dtype=np.int64)[None, :]
    per_nic = gpus_per_node // nics
    nodes = np.arange(num_nodes, dtype=np.int64)[:, None] * gpus_per_node
    rings = []
    for k in range(nics):
        # Leave node t from GPU k*per_nic (on NIC k), enter node t+1 at the GPU after it,
        # so channel k crosses the network only through NIC k of each node.
        start = (k * per_nic + 1) % gpus_per_node
        local = (start + np.arange(gpus_per_node, dtype=np.int64)) % gpus_per_node
        rings.append((nodes + local[None, :]).ravel())
    return np.stack(rings)
