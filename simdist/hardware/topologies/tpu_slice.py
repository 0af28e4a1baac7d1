"""A TPU slice: chips on a 2D or 3D ICI torus, TensorCores on chips, chips under hosts.

Glossary:
  chips     -- ``(x, y, z)``: the slice's chip grid (a v3-8 is 2x2x1, a v4-32 2x2x4).
  core      -- a TensorCore TF lists as one TPU device (v2/v3: 2 per chip; v4 megacore: 1).
  rank      -- device order: z-plane by z-plane, in each plane the chips around a ring over
               direct ICI links, in each chip its cores; so consecutive ranks are neighbours.
  host      -- a TPU VM worker (``/job:worker/replica:0/task:t``); each owns
               ``chips_per_host`` chips and names its cores TPU:0.. locally, as TF does.
  dims      -- the hint the ``torus_2d`` all-reduce reads: inner rings over the cores of a
               chip and outer rings over a plane's chips (one plane), or inner rings over a
               plane and outer rings along z (a 3D slice).
Links: ICI between neighbouring chips (a wrap-around link doubles a link of a 2-chip axis),
an on-chip link between the cores of a chip, PCIe 3.0 x16 from each chip to its host (an
assumption: host links are not on the spec sheets). Figures in links.py.
Mirrors the layout tensorflow/python/tpu/topology.py describes (mesh_shape ``[x, y, z,
cores_per_chip]``) for the slices of Google Cloud's "TPU v4" / "System architecture" pages.
"""

from __future__ import annotations

from simdist.hardware.topologies import links
from simdist.hardware.topologies.common import add_device, device_name, new_graph


def plane_ring(x: int, y: int) -> list[tuple[int, int]]:
    """The chips of an ``x`` by ``y`` plane in an order where neighbours share ICI links.

    Raises:
      ValueError: a plane with no such ring simdist builds (y must be 1 or 2).
    """
    if y == 1:
        return [(i, 0) for i in range(x)]
    if y == 2:
        return [(i, 0) for i in range(x)] + [(i, 1) for i in reversed(range(x))]
    raise ValueError(f"tpu_slice builds planes of x by 1 or x by 2 chips, not {x}x{y}.")


def tpu_slice(chips=(2, 2, 1), cores_per_chip: int = 2, chip: str = "TPUv3",
              ici=links.TPU_V3_ICI, on_chip=links.TPU_V3_ON_CHIP, chips_per_host: int = 4,
              job: str = "worker"):
    """The topology graph of one TPU slice (``graph.graph['dims']`` for torus_2d)."""
    x, y, z = (tuple(chips) + (1, 1))[:3]
    if min(x, y, z) < 1 or cores_per_chip < 1 or chips_per_host < 1:
        raise ValueError("tpu_slice needs chips >= 1 on every axis, cores_per_chip >= 1 and "
                         "chips_per_host >= 1.")
    ring = plane_ring(x, y)
    order = [(i, j, k) for k in range(z) for (i, j) in ring]
    graph = new_graph(f"tpu-slice-{x}x{y}x{z}-{chip}")
    cores_of: dict[tuple, list[str]] = {}
    per_host = chips_per_host * cores_per_chip
    for n, coord in enumerate(order):
        task = n // chips_per_host
        if n % chips_per_host == 0:
            add_device(graph, device_name("CPU", 0, task, job), "CPU", "CPU")
        names = []
        for c in range(cores_per_chip):
            rank = n * cores_per_chip + c
            names.append(add_device(graph, device_name("TPU", rank % per_host, task, job),
                                    "TPU", chip))
        cores_of[coord] = names
        for a, b in zip(names, names[1:]):
            graph.add_edge(a, b, **links.link(on_chip))
        for name in names:
            graph.add_edge(name, device_name("CPU", 0, task, job), **links.link(links.PCIE3_X16))
    for (i, j, k), names in cores_of.items():
        for axis, size in enumerate((x, y, z)):
            if size == 1:
                continue
            step = [0, 0, 0]
            step[axis] = 1
            other = cores_of[((i + step[0]) % x, (j + step[1]) % y, (k + step[2]) % z)]
            # Each core reaches the neighbour chip through its own chip's ICI ports; the
            # wrap-around of a 2-chip axis is a second link to the same neighbour.
            count = 2 if size == 2 else 1
            for a, b in zip(names, other):
                if not graph.has_edge(a, b):
                    graph.add_edge(a, b, **links.link(ici, count))
    plane = len(ring) * cores_per_chip
    dims = (plane, z) if z > 1 else (cores_per_chip, len(ring))
    graph.graph.update(dims=dims, chips=(x, y, z), cores_per_chip=cores_per_chip)
    return graph
