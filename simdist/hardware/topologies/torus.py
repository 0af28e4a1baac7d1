"""TPU 2D torus: x by y chips, each linked to its four neighbours with wrap-around.

Glossary:
  ICI  -- the inter-chip interconnect; one link per neighbour per direction.
  dims -- ``(x, y)``; chip (i, j) has rank ``j * x + i`` (rows along x).
Source: TPU v4 (Google, ISCA 2023 "TPU v4: An Optically Reconfigurable Supercomputer");
per-link figure in links.py. (A v4 slice is a 3D torus; the 2D slice is the classic v2/v3
layout the 2D all-reduce was designed for.)
"""

from __future__ import annotations

from simdist.hardware.topologies import links
from simdist.hardware.topologies.common import add_device, device_name, new_graph


def tpu_torus(x: int = 4, y: int = 4, chip: str = "TPUv4"):
    """An ``x`` by ``y`` torus of TPU chips."""
    if x < 1 or y < 1:
        raise ValueError("tpu_torus needs x >= 1 and y >= 1.")
    graph = new_graph(f"tpu-torus-{x}x{y}")
    chips = [device_name("TPU", j * x + i) for j in range(y) for i in range(x)]
    for c in chips:
        add_device(graph, c, "TPU", chip)
    for j in range(y):
        for i in range(x):
            here = chips[j * x + i]
            for other in (chips[j * x + (i + 1) % x], chips[((j + 1) % y) * x + i]):
                if other != here and not graph.has_edge(here, other):
                    graph.add_edge(here, other, **links.link(links.TPU_V4_ICI))
    graph.graph.update(dims=(x, y), local_size=x)
    return graph
