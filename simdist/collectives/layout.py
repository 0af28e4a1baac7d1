"""Buffer layouts: how each collective lays the replicas' arrays out in flat buffers, cuts
them into chunks and reads its results back.

Glossary:
  Layout   -- one per collective (``LAYOUTS[collective]``; an Algorithm reaches its own as
              ``algorithm.layout``): ``bounds`` cuts the buffers into the schedule's chunks,
              ``buffers`` makes one flat buffer per rank, ``outputs`` reads each replica's
              result, ``nbytes`` is the nccl-tests ``size`` of the call.
  whole    -- all-reduce, broadcast and reduce cut the whole buffer into ``num_chunks``
              even chunks (``numpy.array_split`` sizes): every rank holds every element.
  slotted  -- reduce-scatter, all-gather and all-to-all give replica r slot r of the
              buffer (its rows of axis 0, or its own input for all-gather), each slot cut
              into ``num_chunks // p`` chunks, so a schedule's chunk ``r * per_slot + k``
              lies in replica r's slot whatever the array's shape.
  initial  -- the inputs the executor reads in place until a chunk is first written
              (buffers then start empty: no upfront copy); ``filled=True`` copies the
              inputs in instead, for callers that run only part of a schedule (viz).
Semantics follow NCCL and TF: reduce-scatter's slots are array_split's rows; all-gather
concatenates along axis 0 in replica order; all-to-all cuts axis 0 in p equal slots.
"""

from __future__ import annotations

import numpy as np

from simdist.collectives.ops import finalize
from simdist.collectives.placement import row_slots, slot_bounds
from simdist.collectives.schedule import even_bounds
from simdist.hardware import array_api


class Layout:
    """The whole buffer on every rank, cut into even chunks (all-reduce)."""

    collective = "all_reduce"
    slotted = False

    def bounds(self, arrays, num_chunks: int) -> np.ndarray:
        """Chunk boundaries for the replicas' ``arrays`` (each ``num_chunks + 1`` long)."""
        if self.slotted:
            return slot_bounds(self.slot_sizes(arrays), max(num_chunks // len(arrays), 1))
        return even_bounds(arrays[0].size, num_chunks)

    def size_bounds(self, num_elements: int, p: int, num_chunks: int,
                    itemsize: int = 1) -> np.ndarray:
        """Chunk boundaries priced for an ``num_elements`` buffer with no shape (pricing;
        ``itemsize`` for layouts that align chunks in bytes)."""
        if self.slotted:
            return slot_bounds(list(np.diff(even_bounds(num_elements, p))),
                               max(num_chunks // p, 1))
        return even_bounds(num_elements, num_chunks)

    def slot_sizes(self, arrays) -> list[int]:
        """Elements in each replica's slot: its rows of axis 0 as array_split cuts them."""
        return row_slots(arrays[0].shape, len(arrays))

    def buffers(self, arrays, bounds, num_servers: int = 0, filled: bool = False):
        """(one flat buffer per rank, the executor's ``initial`` values or None)."""
        xp = array_api.namespace(*arrays)  # NumPy for host-held dtypes (keeps_on_host)
        flat = _flat(xp, arrays)
        n, dtype = flat[0].size, flat[0].dtype
        if filled:
            return ([array_api.copy(f) for f in flat]
                    + [xp.zeros(n, dtype=dtype) for _ in range(num_servers)]), None
        # Buffers start empty: the executor writes each chunk from the inputs on first
        # touch (op(input, payload) or a copy), so no input is copied upfront.
        return [xp.empty(n, dtype=dtype) for _ in range(len(flat) + num_servers)], flat

    def outputs(self, buffers, arrays, bounds, schedule, op) -> list:
        """Each replica's result, shaped as its input (``op`` finalizes a MEAN)."""
        p, xp = len(arrays), array_api.namespace(*buffers[:1])
        size, shape = arrays[0].size, arrays[0].shape
        if xp is np:   # the arrays' own reshape (np.reshape's dispatch costs more)
            return [finalize(op, b[:size], p).reshape(shape) for b in buffers[:p]]
        return [xp.reshape(finalize(op, b[:size], p), shape) for b in buffers[:p]]

    def nbytes(self, arrays) -> int:
        """The nccl-tests ``size`` of the call (see cost.py): one replica's buffer."""
        return arrays[0].size * array_api.itemsize(arrays[0])


def _flat(xp, arrays) -> list:
    """Each array as one axis (a view where it can be)."""
    if xp is np:   # the arrays' own reshape (np.reshape's dispatch costs more)
        return [a.reshape(-1) for a in arrays]
    return [xp.reshape(a, (-1,)) for a in arrays]


class _Copy(Layout):
    """Broadcast: the root's whole buffer, copied; results are the buffers as they end."""

    collective = "broadcast"

    def outputs(self, buffers, arrays, bounds, schedule, op) -> list:
        xp = array_api.namespace(*buffers[:1])
        return [xp.reshape(b, arrays[0].shape) for b in buffers[:len(arrays)]]


class _Reduce(Layout):
    """Reduce: only the root's buffer holds the result; the others get None."""

    collective = "reduce"

    def outputs(self, buffers, arrays, bounds, schedule, op) -> list:
        p, xp = len(arrays), array_api.namespace(*buffers[:1])
        return [xp.reshape(finalize(op, buffers[r], p), arrays[0].shape)
                if r == schedule.root else None for r in range(p)]


class _ReduceScatter(Layout):
    """Replica r keeps its reduced slot: its rows of axis 0."""

    collective = "reduce_scatter"
    slotted = True

    def outputs(self, buffers, arrays, bounds, schedule, op) -> list:
        p, shape = len(arrays), arrays[0].shape
        per_slot = (len(bounds) - 1) // p
        # Rows per replica as array_split cuts axis 0 (not from element counts: a zero-size
        # row, shape (n, 0), holds no elements but still counts as a row).
        rows = np.diff(even_bounds(shape[0], p))
        xp = array_api.namespace(*buffers[:1])
        return [xp.reshape(finalize(op, buffers[r][int(bounds[r * per_slot]):
                                                   int(bounds[(r + 1) * per_slot])], p),
                           (int(rows[r]),) + shape[1:]) for r in range(p)]


class _AllGather(_Copy):
    """Replica r's input is slot r of a buffer as long as all inputs together."""

    collective = "all_gather"
    slotted = True

    def slot_sizes(self, arrays) -> list[int]:
        return [a.size for a in arrays]

    def buffers(self, arrays, bounds, num_servers: int = 0, filled: bool = False):
        # Every rank starts with its own slot written and the rest zero (the all-gather
        # only copies, so nothing else is read before it is written).
        xp = array_api.namespace(*arrays)
        p = len(arrays)
        per_slot = (len(bounds) - 1) // p
        out = []
        for r, a in enumerate(arrays):
            buf = xp.zeros(int(bounds[-1]), dtype=a.dtype)
            buf[int(bounds[r * per_slot]):int(bounds[(r + 1) * per_slot])] = xp.reshape(a, (-1,))
            out.append(buf)
        return out, None

    def outputs(self, buffers, arrays, bounds, schedule, op) -> list:
        rows = sum(a.shape[0] for a in arrays)
        xp = array_api.namespace(*buffers[:1])
        return [xp.reshape(b, (rows,) + arrays[0].shape[1:]) for b in buffers[:len(arrays)]]

    def nbytes(self, arrays) -> int:
        """All-gather's ``size`` is the output: every replica's input together."""
        return sum(a.size for a in arrays) * array_api.itemsize(arrays[0])


class _AllToAll(_Copy):
    """Replica i's slot j goes to replica j's slot i: slots are p equal parts of axis 0."""

    collective = "all_to_all"
    slotted = True


LAYOUTS: dict[str, Layout] = {layout.collective: layout for layout in (
    Layout(), _ReduceScatter(), _AllGather(), _Copy(), _Reduce(), _AllToAll())}
