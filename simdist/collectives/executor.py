"""The executor: runs any Schedule on real per-rank arrays.

Glossary:
  buffers  -- one flat array per rank (devices, then servers), updated in place.
  snapshot -- a transfer reads the values its source held at the start of the step: the
              payload is a view, copied only when another transfer of the same step writes
              that region (so concurrent exchanges, e.g. recursive doubling, are correct
              and the common ring case copies nothing extra).
  combine  -- ``op(dst, payload, out=dst)``: the receiver's value is the left operand; the
              order in which transfers of a step land is their order in the step.
All array work goes through ``backend.xp`` so the CuPy backend runs the same code.
"""

from __future__ import annotations

from simdist.collectives.ops import combine_fn
from simdist.collectives.schedule import Schedule


def execute(schedule: Schedule, buffers: list, op: str, bounds, inputs=None) -> list:
    """Run ``schedule`` over ``buffers`` (modified in place) and return them.

    Args:
      schedule: the algorithm's steps.
      buffers: one flat array per rank (``schedule.num_buffers`` of them).
      op: canonical op name (see ops.normalize_op).
      bounds: chunk boundaries (``num_chunks + 1`` integers).
      inputs: for out-of-place schedules, the untouched arrays transfers read from.
    """
    fn = combine_fn(op)
    bounds = [int(b) for b in bounds]
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
            view = read_from[t.src][bounds[t.chunk]:bounds[t.chunk + t.nchunks]]
            if written and any((t.src, c) in written for c in range(t.chunk, t.chunk + t.nchunks)):
                view = view.copy()  # someone overwrites this region in this very step
            payloads.append(view)
        for t, payload in zip(transfers, payloads):
            lo, hi = bounds[t.target], bounds[t.target + t.nchunks]
            if hi == lo:
                continue
            target = buffers[t.dst][lo:hi]
            if t.combine:
                fn(target, payload, out=target)
            else:
                target[...] = payload
    return buffers
