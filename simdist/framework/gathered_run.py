"""An op program's run with its charges gathered: the kernels first, then each device's ops.

Glossary:
  block     -- consecutive steps that run under one NumPy errstate: quiet kernels (each
               would set ``all="ignore"`` itself) or loud ones (the caller's state: they
               may warn or raise as the op does); one ``np.errstate`` per block, not one
               per loud op.
  charges   -- each op's ``(op type, FLOPs, bytes, low precision)`` as its step charges
               it, fixed by the capture (a program runs only on inputs of the captured
               shapes and devices); laid after the kernels, in op order, one
               ``Device.run_ops`` per run of consecutive ops on one device (a segment).
               Nothing between the kernels reads a clock or the trace (no Python of the
               caller runs), so the clocks and trace events equal a charge per op.
  run       -- consecutive segments on one device (ops the skip rule applies to, a
               variable write's, ops again ...) as one ``Device.run_ops``: the same clock
               (each start is the previous op's end, added one at a time either way) and
               events. Used when every step ran and the skip rule lets the device charge
               its ops (then all its segments charge); else each segment is charged or not.
  prefix    -- a kernel that raises leaves the ops before it charged (and only those), as
               the op-by-op run does.
  skip rule -- a device charges an op only while its trace records or its ops cost a
               launch, and not inside ``execute.scratch()`` (execute._charge's rule), read
               once per run: nothing inside a run changes it. A variable write always
               charges (``Device.run``).
  enabled   -- ``disabled()`` runs every program op by op (tests compare both).

Used by op_capture.Program (the tape-free runs of backward sweeps and the runs of library
calls under a tape). Mirrors tensorflow/core/common_runtime/executor.cc (a graph's kernels
run back to back; the device's timeline is what it records).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import execute
from simdist.framework.switch import Switch

_switch = Switch()
disabled = _switch.off
_scratch = execute._scratch
_log = execute._log_placement


class Gathered:
    """A program's steps in errstate blocks and its charges in device segments."""

    __slots__ = ("blocks", "segments", "before", "runs")

    def __init__(self, steps, loud, charges):
        """``steps``: ``step(slots)`` callables that compute without charging; ``loud``:
        per step, True (the caller's errstate), False (all ignored) or None (either);
        ``charges``: per step, ``(device, (op type, FLOPs, bytes, low))`` or None, or
        ``(device, charge, True)`` for a charge the skip rule does not apply to (a
        variable write's, as ``Device.run`` makes it)."""
        self.blocks: list = []
        for step, noisy in zip(steps, loud):
            if not self.blocks or noisy is not None and self.blocks[-1][0] is not noisy:
                if self.blocks and self.blocks[-1][0] is None:
                    self.blocks[-1][0] = noisy   # a leading block of neutral steps
                else:
                    self.blocks.append([noisy, []])
            self.blocks[-1][1].append(step)
        self.blocks = [(bool(noisy), tuple(block)) for noisy, block in self.blocks]
        # (device, [charge, ...], index of its first op, skip rule does not apply, the
        # device's memo of the charges: Device.run_ops)
        self.segments: list = []
        self.before = [0]          # ops charged once the first k steps ran
        n = 0
        for entry in charges:
            if entry is not None:
                dev, charge, always = entry[0], entry[1], len(entry) > 2
                last = self.segments[-1] if self.segments else None
                if last is None or last[0] is not dev or last[3] is not always:
                    self.segments.append((dev, [], n, always, []))
                self.segments[-1][1].append(charge)
                n += 1
            self.before.append(n)
        # (device, [charge, ...], the device's memo, its segments): consecutive segments on
        # one device, merged
        self.runs: list = []
        for segment in self.segments:
            if self.runs and self.runs[-1][0] is segment[0]:
                self.runs[-1][1].extend(segment[1])
                self.runs[-1][3].append(segment)
            else:
                self.runs.append((segment[0], list(segment[1]), [], [segment]))

    def run(self, slots, outer) -> None:
        """Run every step on ``slots`` (``outer``: the caller's errstate), then charge."""
        done = 0
        try:
            for loud, steps in self.blocks:
                with np.errstate(**outer) if loud else np.errstate(all="ignore"):
                    for step in steps:
                        step(slots)
                        done += 1
        finally:
            self._charge(self.before[done])

    def _charge(self, n: int) -> None:
        """Charge the first ``n`` charges' ops (all of them: by runs)."""
        scratch = _scratch.value
        if n == self.before[-1] and not scratch:
            for dev, charges, memo, segments in self.runs:
                if dev.trace.enabled or dev.spec.launch_s != 0:
                    dev.run_ops(charges, memo)
                else:   # only the variable writes' charges
                    for _, part, _, always, part_memo in segments:
                        if always:
                            dev.run_ops(part, part_memo)
            return
        for dev, charges, first, always, memo in self.segments:
            if first >= n:
                break
            if always or not scratch and (dev.trace.enabled or dev.spec.launch_s != 0):
                if first + len(charges) <= n:
                    dev.run_ops(charges, memo)
                else:
                    dev.run_ops(charges[:n - first])


def usable() -> bool:
    """Whether a run may gather (the switch is on and no placement is being logged)."""
    return _switch.on and not _log[0]
