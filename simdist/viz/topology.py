"""Topology presets sized for the app, and where to draw their nodes.

Glossary:
  preset        -- a name from ``simdist.hardware.topology.TOPOLOGIES`` (the one registry).
  sized         -- the preset's builder called with arguments that give at least ``n``
                   devices (fixed machines such as ``dgx1`` have 8 and no size argument).
  layout        -- x, y of every node: devices on a circle in rank order (so a ring looks
                   like a ring), switches and hosts on an inner circle between the spokes;
                   labels go outward (``outward_position``), away from the links. A preset
                   whose shape is not a circle has its own (``LAYOUTS``: the TPU torus is
                   drawn as its x * y grid).
"""

from __future__ import annotations

import functools
import inspect
import math
import re

import networkx as nx

from simdist.hardware.topology import TOPOLOGIES, Topology, as_topology

MAX_DEVICES = 64


def presets() -> list[str]:
    """Every topology preset simdist knows, in registry order."""
    return list(TOPOLOGIES)


def _params(preset: str) -> set[str]:
    return set(inspect.signature(TOPOLOGIES[preset]).parameters)


def max_devices(preset: str) -> int:
    """The most devices the app lets a preset have (fixed machines: their own count)."""
    params = _params(preset)
    if params & {"num_gpus", "num_nodes", "x"}:
        return MAX_DEVICES
    return len(as_topology(TOPOLOGIES[preset]()).devices)


def _torus_shape(n: int) -> tuple[int, int]:
    """The most square x * y == n (or ceil(sqrt n)^2 when n is prime and large)."""
    for x in range(int(math.isqrt(n)), 0, -1):
        if n % x == 0 and (x > 1 or n <= 3):
            return x, n // x
    side = math.isqrt(n - 1) + 1
    return side, side


@functools.lru_cache(maxsize=64)
def sized_topology(preset: str, num_devices: int) -> Topology:
    """The preset's topology with at least ``num_devices`` devices.

    Raises:
      ValueError: for an unknown preset or more devices than the preset can have.
    """
    if preset not in TOPOLOGIES:
        raise ValueError(f"Unknown topology {preset!r}; presets are {presets()}.")
    n = int(num_devices)
    if not 1 <= n <= max_devices(preset):
        raise ValueError(f"{preset} takes 1..{max_devices(preset)} devices, got {n}.")
    params = _params(preset)
    build = TOPOLOGIES[preset]
    if "num_gpus" in params:
        graph = build(num_gpus=n)
    elif "num_nodes" in params:
        per = min(n, 8)
        graph = build(num_nodes=-(-n // per), gpus_per_node=per, nics_per_node=min(per, 4))
    elif "x" in params:
        x, y = _torus_shape(n)
        graph = build(x=x, y=y)
    else:
        graph = build()
    return as_topology(graph)


def grid_layout(graph: nx.Graph, devices: list) -> dict:
    """Node -> (x, y) for a 2D torus: device ``r * x + c`` at column c, row r (row 0 on top),
    as ``tpu_torus`` numbers them; the wrap-around links are drawn bowed around the grid."""
    cols, rows = _torus_shape(len(devices))
    span = max(cols, rows) - 1 or 1
    return {d: (2 * (i % cols) / span - (cols - 1) / span,
                (rows - 1) / span - 2 * (i // cols) / span) for i, d in enumerate(devices)}


_NODE_OF = re.compile(r"task:(\d+)/|^nic:(\d+)\.|worker:(\d+)$")


def node_of(name: str):
    m = _NODE_OF.search(name)
    return None if m is None else int(next(g for g in m.groups() if g is not None))


def cluster_layout(graph: nx.Graph, devices: list) -> dict:
    """Node -> (x, y) for several machines: each machine drawn as ``layout`` draws one (its
    GPUs on a circle round its switch), machines side by side, the shared network
    switches centred below them."""
    groups: dict = {}
    for v in graph.nodes:
        groups.setdefault(node_of(v), []).append(v)
    shared = groups.pop(None, [])
    machines = sorted(groups)
    m = max(len(machines), 1)
    scale = min(0.6, 0.7 / m)               # a gap between machines for their labels
    pos = {}
    for i, key in enumerate(machines):
        members = groups[key]
        own = [d for d in devices if d in members]
        sub = layout(graph.subgraph(members), own)
        _nics_outside(graph, sub, own)
        cx = -1 + (2 * i + 1) / m
        pos.update({v: (cx + scale * x, 0.25 + scale * y) for v, (x, y) in sub.items()})
    low = min((y for _, y in pos.values()), default=0.0)
    for j, v in enumerate(shared):
        pos[v] = ((j + 0.5) / len(shared) * 2 - 1 if len(shared) > 1 else 0.0, low - 0.35)
    return pos


def _nics_outside(graph: nx.Graph, sub: dict, devices: list) -> None:
    """Move each NIC just outside the circle of GPUs, beside the GPUs it serves, so the
    machine's centre holds only its switch and a transfer that leaves the machine is seen
    leaving it."""
    for v in sub:
        if graph.nodes[v].get("kind") != "nic":
            continue
        near = [sub[d] for d in graph.neighbors(v) if d in devices]
        if not near:
            continue
        x, y = sum(a for a, _ in near) / len(near), sum(b for _, b in near) / len(near)
        r = math.hypot(x, y) or 1.0
        sub[v] = (1.3 * x / r, 1.3 * y / r)


LAYOUTS = {"tpu-torus": grid_layout, "fat-tree": cluster_layout}


@functools.lru_cache(maxsize=64)
def _layout_cached(preset: str, num_devices: int) -> dict:
    topo = sized_topology(preset, num_devices)
    return LAYOUTS.get(preset, layout)(topo.graph, topo.devices)


def cached_layout(preset: str, num_devices: int) -> dict:
    return _layout_cached(preset, num_devices)


def layout(graph: nx.Graph, devices: list) -> dict:
    """Node -> (x, y): devices on the unit circle (rank 0 on top, clockwise), others inside."""
    pos = {}
    n = len(devices)
    for i, d in enumerate(devices):
        a = math.pi / 2 - 2 * math.pi * i / max(n, 1)
        pos[d] = (math.cos(a), math.sin(a))
    # The busiest switch sits in the centre; other switches and hosts on an inner circle.
    others = sorted((v for v in graph.nodes if v not in pos), key=graph.degree, reverse=True)
    if others:
        pos[others.pop(0)] = (0.0, 0.0)
    # Half a device's spacing off the devices' angles, so an inner node never sits on the
    # spoke from the centre to a device (where it and its label would hide the link).
    turn = math.pi / max(n, 1)
    for i, v in enumerate(others):
        a = math.pi / 2 - 2 * math.pi * (i + 0.5) / len(others) - turn
        pos[v] = (0.45 * math.cos(a), 0.45 * math.sin(a))
    return pos


def outward_position(x: float, y: float, centre=(0.0, 0.0), radius: float = 1.0) -> str:
    """Plotly's textposition that puts a label on the far side of (x, y) from ``centre``
    (a drawing's, or its machine's in a cluster; ``radius``: that circle's)."""
    x, y = (x - centre[0]) / radius, (y - centre[1]) / radius
    vertical = "top" if y > 0.3 else "bottom" if y < -0.3 else "middle"
    horizontal = "right" if x > 0.3 else "left" if x < -0.3 else "center"
    if vertical == "middle" and horizontal == "center":
        return "bottom center"
    return f"{vertical} {horizontal}"


def short_name(node: str) -> str:
    """``/job:localhost/replica:0/task:0/device:GPU:3`` -> ``GPU:3`` (task kept when > 0)."""
    if "/device:" not in node:
        return node
    head, _, dev = node.rpartition("/device:")
    task = head.rpartition("task:")[2]
    job = head.split("/")[1].removeprefix("job:") if head.startswith("/job:") else ""
    return dev if job == "localhost" else f"{job}{task}/{dev}"
