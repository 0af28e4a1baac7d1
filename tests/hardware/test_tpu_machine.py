"""TPU slice presets against the spec sheets named in simdist/hardware/specs.py and
topologies/links.py: per-chip HBM and bf16 FLOP/s (Google Cloud TPU "System architecture":
v2 16 GiB / 45 TFLOPS, v3 32 GiB / 123 TFLOPS, v4 32 GiB / 275 TFLOPS per chip), ICI links
per chip (4 on v2/v3's 2D torus, 6 on v4's 3D torus), and the ring orders the torus_2d
all-reduce relies on."""

import networkx as nx
import numpy as np
import pytest

from simdist import collectives
from simdist.hardware.machine import machine_from_string
from simdist.hardware.specs import GiB
from simdist.hardware.topology import Topology

CHIP = {"tpu-v2-8": (16 * GiB, 45e12, 4), "tpu-v3-8": (32 * GiB, 123e12, 4),
        "tpu-v4-8": (32 * GiB, 275e12, 6), "tpu-v4-32": (32 * GiB, 275e12, 6)}


def connected(preset):
    m = machine_from_string(preset)
    m.connect_tpu()
    return m


@pytest.mark.parametrize("preset", sorted(CHIP))
def test_chip_figures_match_the_spec_sheets(preset):
    m = connected(preset)
    hbm, bf16, _ = CHIP[preset]
    cores = m.devices_of_type("TPU")
    per_chip = m.tpu_slice.cores_per_chip
    assert sum(d.memory_limit for d in cores[:per_chip]) == hbm
    assert sum(d.spec.flops_fp16 for d in cores[:per_chip]) == pytest.approx(bf16)


@pytest.mark.parametrize("preset", sorted(CHIP))
def test_ici_links_per_chip(preset):
    graph = connected(preset).topology.graph
    links = {}
    for u, v, attrs in graph.edges(data=True):
        if attrs["kind"] == "ici":
            for node in (u, v):
                links[node] = links.get(node, 0) + attrs["links"]
    # Each core carries its chip's links to the neighbour chips' matching cores; a slice
    # uses at most the chip's ports, and all of them once every axis has a neighbour
    # (v4-8 is one plane: its 2 z ports lead out of the slice).
    ports = CHIP[preset][2]
    used = ports - 2 * (graph.graph["chips"][2] == 1 and ports == 6)
    assert set(links.values()) == {used}
    assert len(links) == len(graph.graph["devices"])


@pytest.mark.parametrize("preset", sorted(CHIP))
def test_torus_rings_use_direct_links_and_sum_right(preset):
    m = connected(preset)
    topo = m.topology
    graph = topo.graph
    x, y = graph.graph["dims"]
    devices = graph.graph["devices"]
    rows = [devices[j * x:(j + 1) * x] for j in range(y)]
    cols = [devices[i::x] for i in range(x)]
    for ring in rows + cols:
        for a, b in zip(ring, ring[1:] + ring[:1]):
            assert a == b or graph.has_edge(a, b), (a, b)
    rng = np.random.RandomState(0)
    values = [rng.normal(size=37).astype(np.float64) for _ in devices]
    result = collectives.all_reduce(values, algorithm="torus_2d", topology=Topology(graph),
                                    devices=devices, **{"dims": (x, y)})
    for v in result.values:
        np.testing.assert_allclose(v, np.sum(values, axis=0), rtol=1e-12)
    assert nx.is_connected(graph)


def test_pod_slice_spreads_chips_over_hosts():
    m = connected("tpu-v4-32")
    tasks = {}
    for d in m.devices_of_type("TPU"):
        tasks.setdefault(d.task, []).append(d.index)
    assert tasks == {t: [0, 1, 2, 3] for t in range(4)}
    assert m.topology.graph.graph["chips"] == (2, 2, 4)
