"""The executor: runs any Schedule on real per-rank arrays.

Glossary:
  buffers  -- one flat array per rank (devices, then servers), updated in place.
  snapshot -- a transfer reads the values its source held at the start of the step: the
              payload is a view, copied only when another transfer of the same step writes
              that region (so concurrent exchanges, e.g. recursive doubling, are correct
              and the common ring case copies nothing extra).
  combine  -- ``op(dst, payload, out=dst)``: the receiver's value is the left operand; the
              order in which transfers of a step land is their order in the step.
  initial  -- the ranks' starting values, read in place until a chunk is first written
              (no upfront copy of every input: see ``_Lazy``).
  exchange -- for a cluster of real processes: which ranks this process owns and the
              Peers to trade with. A transfer between two ranks of this process runs as
              here; one from here to another process is sent, one from another process is
              received: one message per step and pair of processes, applied in the step's
              order, so the results are bit-identical to the one-process run.
Array work keeps to the Array API plus ``hardware.array_api`` (the combine's ``out=``, the
snapshot's copy), so NumPy, CuPy and array_api_strict run the same code.
"""

from __future__ import annotations

import threading

from simdist.collectives.ops import combine_fn
from simdist.collectives.schedule import Schedule
from simdist.hardware.array_api import copy, mover, namespace, numpy_dtype


def execute(schedule: Schedule, buffers: list, op: str, bounds, inputs=None,
            exchange=None, initial=None) -> list:
    """Run ``schedule`` over ``buffers`` (modified in place) and return them.

    Args:
      schedule: the algorithm's steps.
      buffers: one flat array per rank (``schedule.num_buffers`` of them).
      op: canonical op name (see ops.normalize_op).
      bounds: chunk boundaries (``num_chunks + 1`` integers).
      inputs: for out-of-place schedules, the untouched arrays transfers read from.
      exchange: an Exchange when the ranks live in several processes (None: all here).
      initial: the starting values of the first ``len(initial)`` buffers, which then
        start empty and are filled chunk by chunk (see ``_Lazy``): no upfront copy.
    """
    fn = combine_fn(op, namespace(*buffers[:1]), numpy_dtype(buffers[0]) if buffers else None)
    move = mover(buffers)  # None unless ranks live on several real devices (CuPy)
    bounds = [int(b) for b in bounds]
    lazy = _Lazy(buffers, initial, bounds, schedule.num_chunks)
    read_from = buffers if schedule.inplace else inputs
    for step in schedule.steps:
        transfers = step.transfers
        written = None
        if schedule.inplace:
            written = set()
            for t in transfers:
                for c in range(t.target, t.target + t.nchunks):
                    written.add((t.dst, c))
        payloads = []
        for t in transfers:
            if exchange is not None and not exchange.owns(t.src):
                payloads.append(None)  # another process reads it; received below if needed
                continue
            lo, hi = bounds[t.chunk], bounds[t.chunk + t.nchunks]
            if schedule.inplace and not lazy.ready(t.src, t.chunk, t.nchunks):
                payloads.append(initial[t.src][lo:hi])  # never written: no snapshot needed
                continue
            view = read_from[t.src][lo:hi]
            if written and any((t.src, c) in written for c in range(t.chunk, t.chunk + t.nchunks)):
                view = copy(view)  # someone overwrites this region in this very step
            payloads.append(view)
        if exchange is not None:
            payloads = exchange.trade(transfers, payloads)
        for t, payload in zip(transfers, payloads):
            lo, hi = bounds[t.target], bounds[t.target + t.nchunks]
            if hi == lo or payload is None:
                continue
            target = buffers[t.dst][lo:hi]
            if move is not None:  # the transfer itself: onto the receiver's GPU
                payload = move(payload, target)
            if t.combine:
                own = target if lazy.ready(t.dst, t.target, t.nchunks) else \
                    initial[t.dst][lo:hi]   # the first write: op(initial, payload), no copy
                # The lower rank's operand first on both sides of an exchange: sums are
                # commutative but a NaN's bits come from the first NaN operand, so two
                # partners adding in their own orders could end with different NaNs.
                if t.src < t.dst:
                    fn(payload, own, out=target)
                else:
                    fn(own, payload, out=target)
            else:
                target[...] = payload
            lazy.mark(t.dst, t.target, t.nchunks)
    lazy.finish()
    return buffers


class _Lazy:
    """Which chunks of the first ``len(initial)`` buffers hold their value yet.

    A buffer given ``initial`` values starts empty: a chunk's first write either computes
    ``op(initial, payload)`` straight into it or copies over it, a read of an unwritten
    chunk reads ``initial`` itself, and ``finish`` copies the chunks nobody wrote. Each
    element is thus copied at most once (a ring all-reduce copies none upfront), and the
    arithmetic is the same as copying every input first: results are bit-identical.
    ``ready`` is all-or-nothing per range: a half-written range is completed first.
    """

    def __init__(self, buffers, initial, bounds, num_chunks):
        self.buffers, self.initial, self.bounds = buffers, initial, bounds
        n = 0 if initial is None else len(initial)
        self.flags = [bytearray(num_chunks) for _ in range(n)]

    def ready(self, rank, chunk, count) -> bool:
        if rank >= len(self.flags):
            return True
        flags = self.flags[rank]
        if flags.find(0, chunk, chunk + count) < 0:
            return True
        if flags.find(1, chunk, chunk + count) < 0:
            return False
        self._fill(rank, chunk, count)
        return True

    def mark(self, rank, chunk, count) -> None:
        if rank < len(self.flags):
            self.flags[rank][chunk:chunk + count] = b"\x01" * count

    def finish(self) -> None:
        for rank, flags in enumerate(self.flags):
            self._fill(rank, 0, len(flags))

    def _fill(self, rank, chunk, count) -> None:
        """Copy the initial values of the unwritten chunks in ``chunk..chunk+count-1``."""
        flags, b = self.flags[rank], self.bounds
        for c in range(chunk, chunk + count):
            if not flags[c]:
                self.buffers[rank][b[c]:b[c + 1]] = self.initial[rank][b[c]:b[c + 1]]
                flags[c] = 1


class Exchange:
    """The ranks one process owns (``owner[rank]`` is its process) and its Peers."""

    def __init__(self, owner: list, me: int, peers):
        self.owner, self.me, self.peers = list(owner), me, peers
        self._step = 0
        self._send_error = None
        self._sending_to = None   # the peer the sender thread is sending to now

    def owns(self, rank: int) -> bool:
        return self.owner[rank] == self.me

    def trade(self, transfers, payloads) -> list:
        """Send this process's payloads for other processes, receive theirs for this one.

        Returns the step's payloads with every transfer into this process's ranks filled
        (those between two other processes stay None: nobody here needs them).
        """
        self._step += 1
        outgoing: dict = {}
        incoming: dict = {}
        for k, t in enumerate(transfers):
            src, dst = self.owner[t.src], self.owner[t.dst]
            if src == self.me and dst != self.me:
                outgoing.setdefault(dst, []).append(payloads[k])
            elif dst == self.me and src != self.me:
                incoming.setdefault(src, []).append(k)
        # Sends run beside the receives: two processes sending each other more than a
        # socket buffer at once would otherwise both block.
        sender = threading.Thread(target=self._send_all, args=(outgoing, self._step),
                                  daemon=True)
        sender.start()
        out = list(payloads)
        for peer, slots in incoming.items():
            for k, value in zip(slots, self.peers.recv(peer, self._step), strict=True):
                out[k] = value
        # bounded: a peer that hangs without reading would block a large send forever
        sender.join(self.peers.timeout)
        if sender.is_alive():
            self.peers.lost(self._sending_to,
                            f"read nothing sent to it for {self.peers.timeout:g} s")
        if self._send_error is not None:
            raise self._send_error
        return out

    def _send_all(self, outgoing, step):
        self._send_error = None
        try:
            for peer, items in outgoing.items():
                self._sending_to = peer
                self.peers.send(peer, step, items)
        except Exception as e:  # noqa: BLE001 - re-raised by the trading thread
            self._send_error = e
