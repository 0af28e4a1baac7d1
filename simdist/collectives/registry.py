"""The one table of collective algorithms.

Glossary:
  Algorithm  -- a named way to run one collective: ``.schedule(p, n, **params)`` builds
                its Schedule; ``.patterns(p, **params)`` gives the steps in the compact form
                the cost model prices (symmetric algorithms give one pattern per phase, with
                a repeat count, so pricing thousands of devices is cheap); ``.hints`` reads
                parameters (ring order, node size, torus shape) from a topology;
                ``.chunk_count`` gives the chunk count without building the schedule;
                ``.fast_values`` computes the values the schedule leaves from its
                structure (the ring folds one chunk at a time), bit-identical to running
                its steps (tested), for the one-process, one-device-array case (it
                returns False to leave a case to the executor).
                ``.layout`` is its collective's buffer layout and outputs (layout.py),
                or its ``own_layout`` (TF's ring cuts 64-byte aligned chunks);
                ``.supports(p)`` says which replica counts it runs on; ``.param_space(p)``
                lists the values each parameter may take on p ranks (the tests draw them
                with ``simdist.testing.strategies.algorithm_params``); ``.mirrors`` names
                the TF / NCCL / MPI code it follows.
  ALGORITHMS -- name -> Algorithm. All-reduce algorithms have short names (``ring``);
                the other collectives are ``<collective>.<name>`` (``all_gather.ring``).
Adding a collective algorithm is one file under ``algorithms/`` that calls ``register``
(and one line in ``algorithms/__init__.py``): the API, pricing, the app and the tests read
the entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from simdist.collectives.layout import LAYOUTS, Layout
from simdist.collectives.schedule import Schedule
from simdist.hardware import bounded_memo

COLLECTIVES = tuple(LAYOUTS)


def any_count(p: int) -> bool:
    """Every replica count: the default of ``Algorithm.supports``."""
    return p >= 1


def power_of_two(p: int) -> bool:
    """Replica counts 1, 2, 4, 8 ... (recursive halving / doubling without a fold)."""
    return p >= 1 and p & (p - 1) == 0


def no_params(p: int) -> dict:
    """The default ``param_space``: the algorithm takes no parameters."""
    return {}


@dataclass
class Algorithm:
    """One collective algorithm: everything the API, pricing, the app and the tests need."""

    name: str
    collective: str
    description: str
    build: Callable[..., Schedule]
    mirrors: str
    fast_patterns: Callable | None = None
    fast_values: Callable | None = None
    hints: Callable | None = None
    chunk_count: Callable | None = None
    supports: Callable[[int], bool] = any_count
    param_space: Callable[[int], dict] = no_params
    own_layout: Layout | None = None

    @property
    def layout(self) -> Layout:
        """How this algorithm's collective lays out buffers and reads its outputs."""
        return self.own_layout if self.own_layout is not None else LAYOUTS[self.collective]

    def num_chunks(self, num_devices: int, **params) -> int:
        """Chunks per buffer, without building the schedule when ``chunk_count`` says."""
        if self.chunk_count is not None and num_devices > 1:
            return int(self.chunk_count(int(num_devices), **params))
        return self.schedule(num_devices, **params).num_chunks

    def schedule(self, num_devices: int, num_elements: int | None = None, **params) -> Schedule:
        """The schedule for ``num_devices`` ranks (chunks are cut at run time, so it does not
        depend on ``num_elements``; the argument is accepted for symmetry with NCCL calls).

        Raises:
          ValueError: for a device count below 1 or parameters the algorithm rejects.
        """
        if int(num_devices) != num_devices or num_devices < 1:
            raise ValueError(f"{self.name}: num_devices must be a positive integer, got "
                             f"{num_devices!r}.")
        p = int(num_devices)
        key = _frozen(params) if p <= _KEPT_RANKS else None
        if key is None:
            sched = self.build(p, **params)
            sched.params = dict(params)
            return sched
        # a step all-reduces the same shapes again: built once
        built = bounded_memo.kept(_built, (self.build, p, key),
                                  lambda: self.build(p, **params), _KEPT)
        return replace(built, steps=list(built.steps), params=dict(params))

    def patterns(self, num_devices: int, **params):
        """Steps as cost-model patterns (compact when the algorithm is symmetric)."""
        if self.fast_patterns is not None and num_devices > 1:
            return self.fast_patterns(int(num_devices), **params)
        return self.schedule(num_devices, **params).patterns()

    def topology_hints(self, topology, devices) -> dict:
        return self.hints(topology, devices) if self.hints else {}

    def __repr__(self) -> str:
        return f"<Algorithm {self.name}: {self.description}>"


ALGORITHMS: dict[str, Algorithm] = {}

# Schedules built for small rank counts, by (build function, ranks, parameters): each call
# gets its own Schedule (and step list) around the kept steps, which nothing writes.
_built: dict = {}
_KEPT, _KEPT_RANKS = 256, 64


def _frozen(value):
    """``value`` (parameters: numbers, text, lists of them) as a hashable key, or None."""
    if value is None or type(value) in (int, float, str, bool):
        return value
    if isinstance(value, dict):
        items = [(k, _frozen(v)) for k, v in sorted(value.items())]
        return None if any(v is None and value[k] is not None for k, v in items) \
            else ("dict", tuple(items))
    if isinstance(value, (list, tuple)):
        items = tuple(_frozen(v) for v in value)
        return None if any(v is None and x is not None for v, x in zip(items, value)) \
            else ("seq", items)
    return None


def register(algorithm: Algorithm) -> Algorithm:
    ALGORITHMS[algorithm.name] = algorithm
    return algorithm


def lookup(collective: str, name: str) -> Algorithm:
    """The algorithm ``name`` for ``collective`` (``"ring"`` finds ``all_gather.ring``).

    Raises:
      ValueError: for an unknown name, listing the names valid for that collective.
    """
    if isinstance(name, Algorithm):
        algo = name
    else:
        key = str(name).lower().replace("-", "_")
        algo = ALGORITHMS.get(f"{collective}.{key}") or ALGORITHMS.get(key)
        if algo is None and key.startswith("all_reduce."):
            algo = ALGORITHMS.get(key.split(".", 1)[1])
    if algo is None or algo.collective != collective:
        valid = sorted(a.name for a in ALGORITHMS.values() if a.collective == collective)
        raise ValueError(f"Unknown {collective} algorithm {name!r}; choose one of {valid}.")
    return algo
