"""The cost model: alpha-beta per hop over routed paths, shared links, receiver compute.

Glossary:
  latency term   -- the sum of the link latencies along a transfer's route (alpha).
  bandwidth term -- the transfer's bytes over its bottleneck share: each directed link's
                    bandwidth is split among the bytes of ALL transfers crossing it in that
                    step, so the term is max over hops of (bytes on link / link bandwidth).
  compute term   -- a reducing transfer costs the receiver a read of two chunks and a write
                    of one at its memory bandwidth (3 x bytes / mem_bw), summed over all the
                    reductions it does in the step (NCCL reduces in the copy kernel, and
                    that kernel is memory-bound).
  step time      -- the slowest transfer's latency + bandwidth + compute; the reported terms
                    are that critical transfer's.
  algbw, busbw   -- as nccl-tests defines them (doc/PERFORMANCE.md): algbw = size / time;
                    busbw = algbw x factor: 2(n-1)/n all-reduce, (n-1)/n reduce-scatter,
                    all-gather and all-to-all, 1 broadcast and reduce. ``size`` is the
                    nccl-tests size: the per-rank buffer (the larger one for reduce-scatter
                    and all-gather, the total per rank for all-to-all).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simdist.collectives import symmetry
from simdist.collectives.schedule import Pattern

BUSBW_FACTOR = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "all_to_all": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
    "reduce": lambda n: 1.0,
}


@dataclass
class StepCost:
    """The price of one step (or of ``repeat`` identical steps, each taking ``time``)."""

    phase: str
    time: float
    latency: float
    bandwidth: float
    compute: float
    transfers: int
    bytes: int
    repeat: int = 1


@dataclass
class Cost:
    """The price of one collective: per-step terms, total time, algbw and busbw."""

    collective: str
    algorithm: str
    topology: str
    num_devices: int
    nbytes: int
    steps: list[StepCost] = field(default_factory=list)

    @property
    def time(self) -> float:
        return float(sum(s.time * s.repeat for s in self.steps))

    total = time

    @property
    def latency(self) -> float:
        return float(sum(s.latency * s.repeat for s in self.steps))

    @property
    def bandwidth(self) -> float:
        return float(sum(s.bandwidth * s.repeat for s in self.steps))

    @property
    def compute(self) -> float:
        return float(sum(s.compute * s.repeat for s in self.steps))

    @property
    def num_steps(self) -> int:
        return int(sum(s.repeat for s in self.steps))

    @property
    def algbw(self) -> float:
        """Bytes per second as nccl-tests reports algbw (size / time)."""
        return self.nbytes / self.time if self.time > 0 else float("inf")

    @property
    def busbw(self) -> float:
        """algbw times the collective's bus factor (nccl-tests PERFORMANCE.md)."""
        return self.algbw * BUSBW_FACTOR[self.collective](self.num_devices)

    def summary(self) -> str:
        return (f"{self.collective}/{self.algorithm} on {self.topology}, p={self.num_devices}, "
                f"{self.nbytes} B: {self.time * 1e6:.1f} us in {self.num_steps} steps "
                f"(latency {self.latency * 1e6:.1f} us, bandwidth {self.bandwidth * 1e6:.1f} "
                f"us, compute {self.compute * 1e6:.1f} us); algbw {self.algbw / 1e9:.2f} GB/s,"
                f" busbw {self.busbw / 1e9:.2f} GB/s")


def price_steps(topo, placement, pattern: Pattern, bounds, itemsize: int,
                mem_bw: np.ndarray, compute: bool = True):
    """Every distinct step of a pattern as StepCosts (``repeat`` counts the equal ones in
    a row) and step 0's per-transfer times."""
    t = len(pattern.src)
    if t == 0:
        return [StepCost(pattern.phase, 0.0, 0.0, 0.0, 0.0, 0, 0, pattern.repeat)], np.zeros(0)
    bounds = np.asarray(bounds, dtype=np.int64)
    nbytes = (bounds[pattern.chunk + pattern.nchunks] - bounds[pattern.chunk]) * itemsize
    nbytes = nbytes.astype(float)
    r = symmetry.routes(topo, placement, pattern.src, pattern.dst)
    runs, times = symmetry.repeated_steps(topo, r, pattern, nbytes, mem_bw, compute)
    total_bytes = int(nbytes.sum())  # rotating the chunks keeps the set of sizes
    return [StepCost(pattern.phase, time, lat, bw, comp, t, total_bytes, count)
            for time, lat, bw, comp, count in runs], times


def receiver_mem_bw(topo, placement) -> np.ndarray:
    """Memory bandwidth of each rank's node (infinite, i.e. free, when unknown)."""
    return topo.mem_bw_array(placement)


def price_patterns(topo, placement, patterns, bounds, itemsize, collective, algorithm,
                   num_devices, nbytes, compute=True):
    """Price a list of patterns into a :class:`Cost`; also returns per-transfer times."""
    mem_bw = receiver_mem_bw(topo, placement)
    cost = Cost(collective, algorithm, topo.name, num_devices, int(nbytes))
    times = []
    for pattern in patterns:
        steps, per = price_steps(topo, placement, pattern, bounds, itemsize, mem_bw, compute)
        cost.steps.extend(steps)
        times.append(per)
    return cost, times
