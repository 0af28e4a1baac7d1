"""Cost-only mode: price a collective without moving any values.

Glossary:
  price(...) -- builds the algorithm's step patterns (compact for symmetric algorithms:
                a ring is two patterns with repeat p-1), routes each distinct transfer once
                on the topology and prices every pattern with array arithmetic, so a ring
                over thousands of devices costs milliseconds per pattern, not per step.
  repeats    -- a price is a pure function of its arguments on an unedited topology, so
                it is kept on the Topology (``cache_key``; at most ``MEMO_LIMIT`` per
                kind): a training loop's all-reduces of the same sizes, and the tuner's
                candidates for them, are priced once. Each call gets its own Cost.
"""

from __future__ import annotations

import numpy as np

from simdist.collectives import placement as placement_lib
from simdist.collectives.cost import Cost, price_patterns
from simdist.collectives.registry import COLLECTIVES, lookup
from simdist.hardware.topology import as_topology


def price(collective: str, algorithm: str, nbytes: int, topology=None,
          num_devices: int | None = None, dtype="float32", devices=None, compute=True,
          **params) -> Cost:
    """The simulated time, per-step terms, algbw and busbw of one collective call.

    Args:
      collective: ``all_reduce``, ``reduce_scatter``, ``all_gather``, ``broadcast``,
        ``reduce`` or ``all_to_all``.
      algorithm: a name from ALGORITHMS valid for ``collective`` (``"ring"``, ``"tree"``...).
      nbytes: the nccl-tests ``size`` (per-rank buffer; output size for all-gather).
      topology: graph, preset name, Topology, or None (p A100s on an NVSwitch).
      num_devices: ranks (default: every device of the topology).
      compute: include the receivers' reduction compute term.
      **params: algorithm parameters (``rings``, ``pipeline``, ``local_size``, ``root``...).

    Raises:
      TypeError: ``nbytes`` is not a number (a string, a bool ...).
      ValueError: unknown collective/algorithm; ``nbytes`` negative, fractional, not
        finite, above MAX_NBYTES, or not a whole number of ``dtype`` elements.
    """
    if collective not in COLLECTIVES:
        raise ValueError(f"Unknown collective {collective!r}; choose one of {COLLECTIVES}.")
    itemsize = np.dtype(dtype).itemsize
    size = _check_nbytes(nbytes, itemsize, dtype)
    algo = lookup(collective, algorithm)
    if num_devices is None and devices is not None:
        num_devices = len(devices)
    topo = as_topology(topology, num_devices)
    p = len(topo.devices) if num_devices is None else int(num_devices)
    key = cache_key(collective, algo.name, size, p, itemsize, devices, compute, params)
    if key is None:
        return _price_impl(collective, algo, size, topo, p, itemsize, devices, compute, params)
    return own_copy(topo.memo("price", key, lambda: _price_impl(
        collective, algo, size, topo, p, itemsize, devices, compute, params), MEMO_LIMIT))


# Prices kept per Topology and kind (a full cache starts over: memory stays bounded).
MEMO_LIMIT = 4096


def cache_key(*parts):
    """A hashable key of the call's arguments (lists, tuples, dicts and arrays by value),
    or None when one of them cannot be one (such a call is priced afresh)."""
    try:
        key = _frozen(parts)
        hash(key)
    except TypeError:
        return None
    return key


def _frozen(value):
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return ("dict",) + tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    return value


def own_copy(cost: Cost) -> Cost:
    """A Cost the caller may change without touching the cached one."""
    out = _shallow(cost)   # dataclasses.replace's copy, without its per-field keywords
    out.steps = [_shallow(s) for s in cost.steps]
    return out


def _shallow(obj):
    """``copy.copy`` of a plain dataclass instance (what its ``__reduce_ex__`` rebuilds:
    a new object with the same ``__dict__``), without the copy protocol's look-ups."""
    out = object.__new__(type(obj))
    out.__dict__.update(obj.__dict__)
    return out


# 2**62 bytes (4 EiB): far above any real message, and element counts stay exact in int64.
MAX_NBYTES = 2 ** 62


def _check_nbytes(nbytes, itemsize: int, dtype) -> int:
    """``nbytes`` as an int: a whole, finite, in-range number of ``dtype`` elements."""
    if isinstance(nbytes, (bool, np.bool_)) or not isinstance(
            nbytes, (int, float, np.integer, np.floating)):
        raise TypeError(f"nbytes must be a number of bytes (an int), got {nbytes!r} of type "
                        f"{type(nbytes).__name__}.")
    if isinstance(nbytes, (float, np.floating)):
        if not np.isfinite(nbytes) or not float(nbytes).is_integer():
            raise ValueError(f"nbytes must be a whole number of bytes, got {nbytes!r}.")
        nbytes = int(nbytes)
    nbytes = int(nbytes)
    if nbytes < 0:
        raise ValueError(f"nbytes must be >= 0, got {nbytes}.")
    if nbytes > MAX_NBYTES:
        raise ValueError(f"nbytes={nbytes} is more than simdist prices (at most "
                         f"MAX_NBYTES = 2**62 bytes).")
    if nbytes % itemsize:
        raise ValueError(
            f"nbytes={nbytes} is not a whole number of {np.dtype(dtype).name} elements "
            f"({itemsize} bytes each): pass a multiple of {itemsize}, or dtype='uint8' to "
            "price any byte count.")
    return nbytes


def _price_impl(collective, algo, nbytes, topo, p, itemsize, devices, compute, params):
    nodes = placement_lib.place(topo, p, devices)
    params = {**algo.topology_hints(topo, nodes), **params}
    patterns = algo.patterns(p, **params)
    num_chunks, servers = _shape_of(algo, p, params)
    nodes = placement_lib.add_servers(topo, nodes, servers)  # nodes already checked
    bounds = algo.layout.size_bounds(nbytes // itemsize, p, num_chunks, itemsize)
    cost, _ = price_patterns(topo, nodes, patterns, bounds, itemsize, collective, algo.name,
                             p, nbytes, compute)
    return cost


def _shape_of(algo, p, params):
    """(chunk count, server count) without building a big schedule when avoidable
    (algorithms with compact patterns use no servers)."""
    if algo.fast_patterns is not None and algo.chunk_count is not None:
        return algo.num_chunks(p, **params), 0
    sched = algo.schedule(p, **params)
    return sched.num_chunks, sched.num_servers
