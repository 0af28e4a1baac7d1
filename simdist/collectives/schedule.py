"""A collective algorithm as data: steps of concurrent chunk transfers.

Glossary:
  buffer   -- one flat array per rank (ranks 0..p-1 are the devices; ranks p.. are extra
              ``servers``, e.g. parameter servers). Each buffer is cut into ``num_chunks``
              chunks; chunk ``c`` is elements ``bounds[c]:bounds[c+1]``.
  Transfer -- ``src`` sends chunks ``chunk .. chunk+nchunks-1`` to ``dst``; ``combine``
              True reduces them into the receiver's chunks (``dst = op(dst, src)``), False
              copies over them. ``dst_chunk`` (default ``chunk``) is where they land.
  Step     -- transfers that run concurrently; all read the values held at the start of
              the step. ``phase`` names the part of the algorithm (``reduce-scatter``...).
  Pattern  -- a step in array form, with ``repeat``: how many consecutive steps share its
              transfers (same src, dst, sizes in chunks, combine). ``rotate`` says how the
              chunks move from one of those steps to the next (step i+1's ``chunk`` is step
              i's ``chunk[rotate]``: a ring's p-1 reduce-scatter steps only rotate which
              chunk each link carries); ``None`` means the repeated steps are identical.
  Schedule -- the steps plus what the executor needs: chunk count, in-place or not
              (all-to-all reads the untouched inputs), servers, and where results land.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Transfer:
    """One message: ``src`` sends ``nchunks`` chunks from ``chunk`` to ``dst``."""

    src: int
    dst: int
    chunk: int
    combine: bool
    nchunks: int = 1
    dst_chunk: int | None = None

    @property
    def target(self) -> int:
        return self.chunk if self.dst_chunk is None else self.dst_chunk


@dataclass
class Step:
    """Concurrent transfers; ``phase`` says which part of the algorithm they belong to."""

    phase: str
    transfers: list[Transfer]

    def as_pattern(self, repeat: int = 1) -> Pattern:
        t = self.transfers
        return Pattern(self.phase, np.array([x.src for x in t], dtype=np.int64),
                       np.array([x.dst for x in t], dtype=np.int64),
                       np.array([x.chunk for x in t], dtype=np.int64),
                       np.array([x.nchunks for x in t], dtype=np.int64),
                       np.array([x.combine for x in t], dtype=bool), repeat)


@dataclass
class Pattern:
    """A step as arrays (for the cost model), standing for ``repeat`` similar steps."""

    phase: str
    src: np.ndarray
    dst: np.ndarray
    chunk: np.ndarray
    nchunks: np.ndarray
    combine: np.ndarray
    repeat: int = 1
    rotate: np.ndarray | None = None

    def expand(self) -> list[Pattern]:
        """The ``repeat`` steps one by one (``repeat`` 1 each), for step-by-step pricing."""
        out, chunk = [], self.chunk
        for _ in range(self.repeat):
            out.append(Pattern(self.phase, self.src, self.dst, chunk, self.nchunks,
                               self.combine))
            if self.rotate is not None:
                chunk = chunk[self.rotate]
        return out


@dataclass
class Schedule:
    """Everything needed to run or price one collective algorithm on ``num_devices``."""

    collective: str
    algorithm: str
    num_devices: int
    num_chunks: int
    steps: list[Step]
    num_servers: int = 0
    inplace: bool = True
    root: int | None = None
    params: dict = field(default_factory=dict)

    @property
    def num_buffers(self) -> int:
        return self.num_devices + self.num_servers

    @property
    def num_steps(self) -> int:
        return len(self.steps)

    def transfers(self):
        """Every (step index, transfer) in order."""
        for i, step in enumerate(self.steps):
            for t in step.transfers:
                yield i, t

    def patterns(self) -> list[Pattern]:
        return [s.as_pattern() for s in self.steps]

    def sent_elements(self, bounds) -> np.ndarray:
        """Elements each rank sends in the whole schedule, for chunk ``bounds``."""
        out = np.zeros(self.num_buffers, dtype=np.int64)
        for _, t in self.transfers():
            out[t.src] += bounds[t.chunk + t.nchunks] - bounds[t.chunk]
        return out

    def __repr__(self) -> str:
        return (f"Schedule({self.collective}/{self.algorithm}, p={self.num_devices}, "
                f"{self.num_steps} steps, {self.num_chunks} chunks)")


def even_bounds(num_elements: int, num_chunks: int) -> np.ndarray:
    """Chunk boundaries as ``numpy.array_split`` cuts: the first ``n % k`` chunks get one more."""
    base, extra = divmod(num_elements, num_chunks)
    sizes = np.full(num_chunks, base, dtype=np.int64)
    sizes[:extra] += 1
    return np.concatenate([[0], np.cumsum(sizes)])
