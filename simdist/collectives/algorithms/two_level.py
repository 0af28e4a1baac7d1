"""Two-dimensional rings: two-level hierarchical (node, then network) and the 2D torus.

Glossary:
  inner group -- ranks ``j*L .. j*L+L-1`` (the GPUs of node j, or row j of a torus).
  outer group -- ranks ``i, L+i, 2L+i ..`` (local GPU i of every node, or column i).
Phases:
  1. reduce-scatter along each inner ring: fast local links carry (L-1)/L of the data;
  2. all-reduce (ring) along each outer ring of the 1/L slice each rank owns: only 1/L of
     the data crosses the slow network, by all L local ranks at once (every NIC busy);
  3. all-gather along the inner rings (copies: all replicas get identical bits).
``two_level`` mirrors Horovod's hierarchical all-reduce (NCCL reduce-scatter in the node,
all-reduce across, all-gather in the node); ``torus_2d`` is the TPU 2D all-reduce (rings
along x, then y), as in Ying et al. 2018 "Image classification at supercomputer scale".
"""

from __future__ import annotations

import numpy as np

from simdist.collectives.algorithms import _rings
from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule


def _check(p, inner):
    if inner < 1 or p % inner:
        raise ValueError(f"{p} devices cannot be split into groups of {inner}; pass a "
                         "local_size (or dims) that divides the device count.")


def _phases(p, inner, steps=None):
    _check(p, inner)
    n_outer = p // inner
    nodes = [[j * inner + i for i in range(inner)] for j in range(n_outer)]
    cols = [[j * inner + i for j in range(n_outer)] for i in range(inner)]
    local = list(range(inner))
    across = list(range(n_outer))
    p1 = [_rings.reduce_scatter_steps(o, local, lambda s: s * n_outer, n_outer, steps)
          for o in nodes]
    p2a = [_rings.reduce_scatter_steps(o, across, lambda s, i=i: i * n_outer + s, 1, steps)
           for i, o in enumerate(cols)]
    p2b = [_rings.all_gather_steps(o, across, lambda s, i=i: i * n_outer + s, 1, steps)
           for i, o in enumerate(cols)]
    p3 = [_rings.all_gather_steps(o, local, lambda s: s * n_outer, n_outer, steps)
          for o in nodes]
    return (_rings.merge("inner-reduce-scatter", *p1),
            _rings.merge("outer-reduce-scatter", *p2a),
            _rings.merge("outer-all-gather", *p2b), _rings.merge("inner-all-gather", *p3))


def _default_local(p):
    return next(k for k in (8, 4, 2, 1) if p % k == 0)


def build_two_level(p, local_size=None):
    inner = _default_local(p) if local_size is None else int(local_size)
    steps = [s for phase in _phases(p, inner) for s in phase]
    return Schedule("all_reduce", "two_level", p, p, steps, params={"local_size": inner})


def patterns_two_level(p, local_size=None):
    inner = _default_local(p) if local_size is None else int(local_size)
    _check(p, inner)
    n_outer = p // inner
    grid = np.arange(p, dtype=np.int64).reshape(n_outer, inner)  # row j: node j's ranks
    local = np.arange(inner, dtype=np.int64) * n_outer
    across = np.arange(inner, dtype=np.int64)[:, None] * n_outer + np.arange(n_outer)
    phases = [_rings.ring_pattern("inner-reduce-scatter", grid, local, True, n_outer),
              _rings.ring_pattern("outer-reduce-scatter", grid.T, across, True),
              _rings.ring_pattern("outer-all-gather", grid.T, across, False),
              _rings.ring_pattern("inner-all-gather", grid, local, False, n_outer)]
    return [ph for ph in phases if ph is not None]


def _square_dims(p):
    x = next(d for d in range(int(p ** 0.5), p + 1) if d and p % d == 0 and d * d >= p)
    return x, p // x


def build_torus(p, dims=None):
    x, y = _square_dims(p) if dims is None else map(int, dims)
    if x * y != p:
        raise ValueError(f"torus_2d: dims {dims} do not multiply to {p} devices.")
    steps = [s for phase in _phases(p, x) for s in phase]
    return Schedule("all_reduce", "torus_2d", p, p, steps)


def patterns_torus(p, dims=None):
    x, y = _square_dims(p) if dims is None else map(int, dims)
    return patterns_two_level(p, x)


def _local_hint(topology, devices):
    size = topology.graph.graph.get("local_size")
    return {"local_size": size} if size and len(devices) % size == 0 else {}


def _dims_hint(topology, devices):
    dims = topology.graph.graph.get("dims")
    return {"dims": dims} if dims and dims[0] * dims[1] == len(devices) else {}


def _divisors(p):
    return [d for d in range(1, p + 1) if p % d == 0]


register(Algorithm(
    "two_level", "all_reduce",
    "Two-level: reduce-scatter in each node, ring all-reduce across nodes, all-gather.",
    build_two_level,
    mirrors="horovod/common/ops/nccl_operations.cc NCCLHierarchicalAllreduce",
    fast_patterns=patterns_two_level, hints=_local_hint, chunk_count=lambda p, **_: p,
    param_space=lambda p: {"local_size": _divisors(p)}))
register(Algorithm(
    "torus_2d", "all_reduce",
    "2D torus: ring reduce-scatter along x, ring all-reduce along y, all-gather along x.",
    build_torus, mirrors="TPU 2D all-reduce (Ying et al. 2018)",
    fast_patterns=patterns_torus, hints=_dims_hint, chunk_count=lambda p, **_: p,
    param_space=lambda p: {"dims": [(d, p // d) for d in _divisors(p)]}))
