"""An NCCL-like tuner: pick ring or tree for a message size on a topology, and say why.

Glossary:
  candidate -- ring (topology's rings as channels) and double binary tree, the tree cut in
               pieces of about ``TREE_PIECE`` bytes per half (NCCL pipelines tree chunks).
  choice    -- the candidate with the lowest modelled time. NCCL's tuner does the same with
               its own model (src/graph/tuning.cc, ncclTopoTuneModel: latency + size / bw
               per algorithm and protocol, lowest time wins); here the model is this
               package's cost model on the actual topology.
Typical outcome: tree for small messages on many devices (log p latency terms instead of
2(p-1)), ring for large messages (each byte crosses each link once per phase).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simdist.collectives.cost import Cost
from simdist.collectives.pricing import price

TREE_PIECE = 512 * 1024
CANDIDATES = ("ring", "tree")


@dataclass
class Choice:
    """The tuner's pick: ``algorithm``, its ``params``, its ``cost``, all candidates' times."""

    algorithm: str
    params: dict
    cost: Cost
    times: dict = field(default_factory=dict)
    explanation: str = ""

    def __str__(self) -> str:
        return self.explanation


def tree_pipeline(nbytes: int) -> int:
    """Pieces per tree half: about TREE_PIECE bytes each, between 1 and 64."""
    return int(min(64, max(1, -(-nbytes // 2 // TREE_PIECE))))


def tune(nbytes: int, topology=None, num_devices: int | None = None,
         collective: str = "all_reduce", candidates=CANDIDATES) -> Choice:
    """Choose the fastest of ``candidates`` for an all-reduce of ``nbytes`` bytes.

    Raises:
      ValueError: for a collective other than all_reduce, or a negative size.
    """
    if collective != "all_reduce":
        raise ValueError(f"The tuner chooses all-reduce algorithms; got {collective!r}.")
    if nbytes < 0:
        raise ValueError(f"nbytes must be >= 0, got {nbytes}.")
    return _tune_impl(int(nbytes), topology, num_devices, tuple(candidates))


def _tune_impl(nbytes, topology, num_devices, candidates):
    costs, params = {}, {}
    for name in candidates:
        params[name] = {"pipeline": tree_pipeline(nbytes)} if name == "tree" else {}
        costs[name] = price("all_reduce", name, nbytes, topology, num_devices, **params[name])
    best = min(costs, key=lambda k: costs[k].time)
    c = costs[best]
    others = ", ".join(f"{k} {v.time * 1e6:.1f} us" for k, v in costs.items() if k != best)
    why = ("latency dominates" if c.latency >= c.bandwidth + c.compute
           else "bandwidth dominates")
    text = (f"{best} for {nbytes} B on {c.num_devices} devices ({c.topology}): "
            f"{c.time * 1e6:.1f} us vs {others}; {why} ({c.num_steps} steps, latency "
            f"{c.latency * 1e6:.1f} us, bandwidth {c.bandwidth * 1e6:.1f} us, compute "
            f"{c.compute * 1e6:.1f} us), busbw {c.busbw / 1e9:.1f} GB/s.")
    return Choice(best, params[best], c, {k: v.time for k, v in costs.items()}, text)
