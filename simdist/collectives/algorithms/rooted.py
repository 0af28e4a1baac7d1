"""Rooted collectives: broadcast from one rank, reduce to one rank.

Glossary:
  binomial -- ceil(log2 p) steps; in step s every rank that already has the data (relative
              rank < 2^s) sends it 2^s further (broadcast), or the mirror image (reduce).
  chain    -- ranks in a line from the root, the buffer cut into ``pipeline`` pieces that
              follow each other one hop per step: bandwidth-optimal for large messages,
              which is how NCCL's ring broadcast / reduce work.
Mirrors NCCL src/device/broadcast.h and reduce.h (ring = pipelined chain) and MPICH's
binomial-tree MPIR_Bcast_intra_binomial / MPIR_Reduce_intra_binomial.
"""

from __future__ import annotations

from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule, Step, Transfer


def _check(p, root, pipeline=1):
    if not 0 <= int(root) < p:
        raise ValueError(f"root must be in 0..{p - 1}, got {root}.")
    if int(pipeline) < 1:
        raise ValueError(f"pipeline must be >= 1, got {pipeline}.")
    return int(root), int(pipeline)


def _binomial(p, root, reduce):
    steps, mask = [], 1
    while mask < p:
        steps.append([(rel, rel + mask) for rel in range(mask) if rel + mask < p])
        mask *= 2
    if reduce:
        # Reverse the broadcast tree: leaves first, each parent adds its child's partial sum.
        return [Step("reduce", [Transfer((b + root) % p, (a + root) % p, 0, True)
                                for a, b in pairs]) for pairs in reversed(steps)]
    return [Step("broadcast", [Transfer((a + root) % p, (b + root) % p, 0, False)
                               for a, b in pairs]) for pairs in steps]


def _chain(p, root, k, reduce):
    line = [(root + i) % p for i in range(p)]
    if reduce:
        line = line[::-1]  # pieces flow towards the root, adding at every hop
    slots: dict[int, list] = {}
    for c in range(k):
        for h in range(p - 1):
            slots.setdefault(c + h, []).append(Transfer(line[h], line[h + 1], c, reduce))
    return [Step("reduce" if reduce else "broadcast", slots[s]) for s in sorted(slots)]


def build_bcast_binomial(p, root=0):
    root, _ = _check(p, root)
    return Schedule("broadcast", "binomial", p, 1, _binomial(p, root, False), root=root)


def build_reduce_binomial(p, root=0):
    root, _ = _check(p, root)
    return Schedule("reduce", "binomial", p, 1, _binomial(p, root, True), root=root)


def build_bcast_chain(p, root=0, pipeline=1):
    root, k = _check(p, root, pipeline)
    return Schedule("broadcast", "chain", p, k, _chain(p, root, k, False), root=root)


def build_reduce_chain(p, root=0, pipeline=1):
    root, k = _check(p, root, pipeline)
    return Schedule("reduce", "chain", p, k, _chain(p, root, k, True), root=root)


def _rooted(p):
    return {"root": range(p)}


def _chained(p):
    return {"root": range(p), "pipeline": range(1, 5)}


register(Algorithm("broadcast.binomial", "broadcast",
                   "Binomial-tree broadcast: ceil(log2 p) steps, senders double each step.",
                   build_bcast_binomial, mirrors="MPICH MPIR_Bcast_intra_binomial",
                   param_space=_rooted))
register(Algorithm("broadcast.chain", "broadcast",
                   "Pipelined chain broadcast (NCCL ring broadcast): pieces hop rank to rank.",
                   build_bcast_chain, mirrors="nccl src/device/broadcast.h",
                   param_space=_chained))
register(Algorithm("reduce.binomial", "reduce",
                   "Binomial-tree reduce to the root: ceil(log2 p) steps.",
                   build_reduce_binomial, mirrors="MPICH MPIR_Reduce_intra_binomial",
                   param_space=_rooted))
register(Algorithm("reduce.chain", "reduce",
                   "Pipelined chain reduce (NCCL ring reduce): pieces add up hop by hop.",
                   build_reduce_chain, mirrors="nccl src/device/reduce.h",
                   param_space=_chained))
