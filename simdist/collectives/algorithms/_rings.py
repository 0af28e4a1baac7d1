"""Ring building blocks shared by ring, two-level, 2D-torus, reduce-scatter and all-gather.

Glossary:
  order    -- the ranks around the ring; position k sends to position k+1.
  labels   -- ``labels[k]`` is the slot position k owns after the reduce-scatter (and owns
              before the all-gather); ``chunk_of(slot)`` is the slot's first chunk.
  channels -- several rings run at once on disjoint chunks (NCCL's channels).
Mirrors NCCL's ring algorithm (src/device/all_reduce.h, runRing): p-1 reduce steps, in
which each rank adds the chunk it receives to its own and forwards it, then p-1 copy steps.
"""

from __future__ import annotations

from simdist.collectives.schedule import Step, Transfer


def reduce_scatter_steps(order, labels, chunk_of, nchunks=1, steps=None):
    """The p-1 reduce steps: slot ``labels[k]`` starts at position k+1 and ends at k."""
    m = len(order)
    count = m - 1 if steps is None else min(steps, m - 1)
    return [[Transfer(order[j], order[(j + 1) % m], chunk_of(labels[(j - 1 - s) % m]), True,
                      nchunks) for j in range(m)] for s in range(count)]


def all_gather_steps(order, labels, chunk_of, nchunks=1, steps=None):
    """The p-1 copy steps: each position forwards the slot it received last step."""
    m = len(order)
    count = m - 1 if steps is None else min(steps, m - 1)
    return [[Transfer(order[j], order[(j + 1) % m], chunk_of(labels[(j - s) % m]), False,
                      nchunks) for j in range(m)] for s in range(count)]


def merge(phase, *step_lists):
    """Run several rings' step lists side by side: step s of each becomes one Step."""
    longest = max((len(x) for x in step_lists), default=0)
    return [Step(phase, [t for x in step_lists if s < len(x) for t in x[s]])
            for s in range(longest)]
