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
              traffic. A buffer whose ranks' inputs fit in one block is folded at once
              (``gathered``): every element's operands in the ring's order gathered into
              one row each, then combined row after row (the same combines, operands
              and order, element by element), and the result copied to every rank.
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
from simdist.hardware import bounded_memo


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
    if type(buffers[0]) is np.ndarray and len(initial) * bounds[-1] <= block and \
            _fold_gathered(orders, buffers, initial, bounds, fn, table):
        return
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


def _fold_gathered(orders, buffers, initial, bounds, fn, table) -> bool:
    """``fold`` of a buffer at once (see the module docstring); False where the rings'
    chunks do not cover the buffer once or the rings do not visit the same ranks."""
    plan = _gather_plan(orders, bounds, table, len(initial[0]))
    if plan is None or any(type(a) is not np.ndarray for a in initial):
        return False
    index, ranks = plan
    first, *rest = np.concatenate(initial).take(index)   # row s: each element's s-th operand
    acc = buffers[ranks[0]]
    if not rest:
        acc[...] = first
    for i, row in enumerate(rest):
        fn(row, first if i == 0 else acc, out=acc)
    for r in ranks[1:]:
        buffers[r][...] = acc
    return True


_GATHER_PLANS: dict = {}   # (orders, bounds, table, n) -> (index, ranks) or None


def _gather_plan(orders, bounds, table, n):
    """(index into the inputs joined: ``index[s, e]`` is element e of the rank whose value
    is its s-th operand, the ranks that get the result) or None; kept per ring layout."""
    key = (tuple(map(tuple, orders)), tuple(bounds),
           None if table is None else tuple(map(tuple, table)), n)
    return bounded_memo.kept(_GATHER_PLANS, key,
                             lambda: _make_gather_plan(orders, bounds, table, n), 64)


def _make_gather_plan(orders, bounds, table, n):
    c, m = len(orders), len(orders[0])
    ranks = sorted(orders[0])
    if m == 0 or bounds[-1] != n or any(sorted(o) != ranks for o in orders):
        return None
    rank_of = np.empty((m, n), dtype=np.int64)
    covered = np.zeros(n, dtype=np.int64)
    for k, order in enumerate(orders):
        for q in range(m):
            chunk = order[q] * c + k if table is None else table[k][q]
            lo, hi = bounds[chunk], bounds[chunk + 1]
            covered[lo:hi] += 1
            for s in range(m):   # operand s: the value of position q + 1 + s
                rank_of[s, lo:hi] = order[(q + 1 + s) % m]
    if not (covered == 1).all():
        return None
    index = rank_of * n + np.arange(n, dtype=np.int64)
    index.setflags(write=False)
    return index, ranks


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
