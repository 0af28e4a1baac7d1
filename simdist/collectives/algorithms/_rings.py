"""Ring building blocks shared by ring, two-level, 2D-torus, reduce-scatter and all-gather.

Glossary:
  order    -- the ranks around the ring; position k sends to position k+1.
  labels   -- ``labels[k]`` is the slot position k owns after the reduce-scatter (and owns
              before the all-gather); ``chunk_of(slot)`` is the slot's first chunk.
  channels -- several rings run at once on disjoint chunks (NCCL's channels).
  fold     -- the values a ring all-reduce leaves, computed chunk by chunk (``fold``): a
              chunk's reduce-scatter is a chain of combines around the ring, so it is
              folded in one accumulator, in blocks that stay in the CPU cache, then copied
              to every rank, as the all-gather does. Same combines in the same order with
              the same operands as running the steps: bit-identical, with less memory
              traffic.
  pattern  -- the cost model's form of a ring phase, built with array arithmetic: step 0's
              transfers, ``repeat`` m-1, and ``rotate`` (each step, position j carries what
              position j-1 carried the step before), so a 65,536-rank ring costs no Python
              loop per rank.
Mirrors NCCL's ring algorithm (src/device/all_reduce.h, runRing): p-1 reduce steps, in
which each rank adds the chunk it receives to its own and forwards it, then p-1 copy steps.
"""

from __future__ import annotations

import numpy as np

from simdist.collectives.schedule import Pattern, Step, Transfer


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


# Elements of one chunk folded at a time: a block of this many bytes (and the inputs
# streaming through it) stays in a core's cache while the ring's combines run over it.
FOLD_BLOCK_BYTES = 1 << 21


def fold(orders, buffers, initial, bounds, fn, itemsize, table=None):
    """The values of a ring all-reduce over channel rings ``orders`` into ``buffers``.

    Chunk ``table[k][q]`` (ring k's label at position q; by default ``orders[k][q] * c +
    k``, the rank's own slot of channel k) starts at position q+1;
    at step s position q+2+s combines it with its own value, ``fn(own, received)``, as the
    executor does, and position q ends with the whole reduction, which the all-gather
    copies to every rank. Real and integer dtypes only: NumPy's complex add and multiply
    may round (or pick a NaN) differently in a block's tail or in place.
    """
    c = len(orders)
    block = max(1, FOLD_BLOCK_BYTES // max(itemsize, 1))
    for k, order in enumerate(orders):
        m = len(order)
        for q in range(m):
            chunk = order[q] * c + k if table is None else table[k][q]
            owner = buffers[order[q]]
            chain = [initial[order[(q + s) % m]] for s in range(2, m + 1)]
            others = [buffers[r] for r in order if r != order[q]]
            first = initial[order[(q + 1) % m]]
            for lo in range(bounds[chunk], bounds[chunk + 1], block):
                hi = min(lo + block, bounds[chunk + 1])
                acc = owner[lo:hi]
                if m == 1:
                    acc[...] = first[lo:hi]
                for i, own in enumerate(chain):
                    fn(own[lo:hi], first[lo:hi] if i == 0 else acc, out=acc)
                for other in others:
                    other[lo:hi] = acc


def ring_pattern(phase, orders, table, reduce, nchunks=1):
    """One ring phase as a rotating Pattern (None when the rings have a single rank).

    ``orders[k]`` is ring k's ranks; ``table[k][q]`` is the chunk of ``labels[q]`` for ring
    k (``chunk_of(labels[q])``). Matches ``merge(phase, *[reduce_scatter_steps(...)])``
    (``reduce``) or ``all_gather_steps`` step by step.
    """
    orders = np.asarray(orders, dtype=np.int64)
    c, m = orders.shape
    if m < 2:
        return None
    table = np.broadcast_to(np.asarray(table, dtype=np.int64), (c, m))
    # Position j sends labels[j-1-s] (reduce-scatter) or labels[j-s] (all-gather) in step s.
    first = np.roll(table, 1, axis=1) if reduce else table
    back = (np.arange(m) - 1) % m
    rotate = (np.arange(c)[:, None] * m + back[None, :]).ravel()
    t = c * m
    return Pattern(phase, orders.ravel(), np.roll(orders, -1, axis=1).ravel(),
                   np.ascontiguousarray(first).ravel(), np.full(t, nchunks, dtype=np.int64),
                   np.full(t, bool(reduce)), m - 1, rotate)
