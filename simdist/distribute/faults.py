"""Deterministic faults in a simulated cluster: a worker killed at a step, a slow link, a
straggler. Each fault is a named event in the trace, and a lost worker surfaces as TF's
error on every other worker after a bounded (simulated) wait.

Glossary:
  KillWorker(task, step)      -- worker ``task`` dies as training step ``step`` begins
                                 (0-based; a step is one ``strategy.run``, one batch of
                                 ``fit``). The others wait ``timeout`` simulated seconds in
                                 the step's collective, then raise ``UnavailableError``
                                 naming ``/job:worker/replica:0/task:<task>``, as TF's
                                 collective ops do when a peer is lost (TF may wait much
                                 longer; here the wait is bounded and costs no real time).
  SlowLink(a, b, factor)      -- the network between workers ``a`` and ``b`` runs ``factor``
                                 times slower: a collective with a transfer between them
                                 takes ``factor`` times as long (the ring moves in
                                 lock-step, so its slowest link sets the pace).
  Straggler(task, factor)     -- every op on worker ``task``'s devices takes ``factor``
                                 times as long; the others wait for it at each collective.
  inject(*faults, timeout=30) -- a context manager: the faults hold inside it only.
  trace events                -- category ``fault``: ``worker 1 killed``, ``straggler
                                 x3.0``, ``slow link 0<->1 x4.0`` on the devices concerned,
                                 ``waiting for lost task ...`` on every survivor.

There is no TF file to mirror: TF has no fault injection. The error and its wording follow
tensorflow/core/common_runtime/collective_* (UnavailableError for an unreachable peer).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass

from simdist import _world
from simdist.framework import errors

DEFAULT_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class KillWorker:
    """Worker ``task`` dies as step ``step`` begins."""

    task: int
    step: int


@dataclass(frozen=True)
class SlowLink:
    """Transfers between workers ``a`` and ``b`` take ``factor`` times as long."""

    a: int
    b: int
    factor: float


@dataclass(frozen=True)
class Straggler:
    """Every op on worker ``task``'s devices takes ``factor`` times as long."""

    task: int
    factor: float


FAULT_TYPES = (KillWorker, SlowLink, Straggler)


class _Plan:
    """The faults in force, the step count, and what they changed (to undo on exit)."""

    def __init__(self, faults, timeout):
        self.faults, self.timeout = list(faults), float(timeout)
        self.step = 0
        self.slowed = []  # devices whose slowdown a Straggler set


_ACTIVE: list[_Plan] = []


@_world.register_resetter
def _reset():
    while _ACTIVE:
        _undo(_ACTIVE.pop())


def task_of(device_name: str) -> int | None:
    """The task index in a device name (``/job:worker/replica:0/task:2/...`` -> 2)."""
    m = re.search(r"/task:(\d+)", device_name)
    return int(m.group(1)) if m else None


def _validate(faults, timeout):
    for f in faults:
        if not isinstance(f, FAULT_TYPES):
            raise TypeError(f"inject() takes KillWorker, SlowLink or Straggler faults, got "
                            f"{f!r}.")
        if any(getattr(f, k, 0) < 0 for k in ("task", "step", "a", "b")):
            raise ValueError(f"{f!r}: tasks and steps count from 0.")
        if getattr(f, "factor", 1.0) < 1.0:
            raise ValueError(f"{f!r}: factor must be >= 1 (how many times slower).")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive seconds, got {timeout!r}.")


@contextlib.contextmanager
def inject(*faults, timeout: float = DEFAULT_TIMEOUT_S):
    """Hold ``faults`` in the simulated cluster inside the ``with`` block.

    Raises:
      TypeError: something that is not a fault. ValueError: a negative task/step, a
      factor below 1 or a non-positive timeout.
    """
    _validate(faults, timeout)
    plan = _Plan(faults, timeout)
    _ACTIVE.append(plan)
    try:
        yield plan
    finally:
        if plan in _ACTIVE:
            _ACTIVE.remove(plan)
        _undo(plan)


def _undo(plan):
    for device in plan.slowed:
        device.slowdown = 1.0
    plan.slowed.clear()


def before_step(devices, trace) -> None:
    """Called as each step begins on a simulated cluster: stragglers slow down, a killed
    worker is lost (every survivor waits ``timeout``, then UnavailableError names it)."""
    if not _ACTIVE:
        return
    plan = _ACTIVE[-1]
    step = plan.step
    plan.step += 1
    for f in plan.faults:
        if isinstance(f, Straggler):
            _slow_down(plan, f, devices, trace)
    for f in plan.faults:
        if isinstance(f, KillWorker) and f.step == step:
            _kill(plan, f, devices, trace, step)


def _slow_down(plan, fault, devices, trace):
    for d in devices:
        if task_of(d.name) == fault.task and d not in plan.slowed:
            d.slowdown = float(fault.factor)
            plan.slowed.append(d)
            trace.record(f"straggler x{fault.factor:g}", "fault", d.name, d.clock, d.clock,
                         fault="Straggler", factor=fault.factor)


def _kill(plan, fault, devices, trace, step):
    lost = [d for d in devices if task_of(d.name) == fault.task]
    if not lost:
        return  # not a worker of this cluster: nothing to lose
    name = lost[0].name.split("/device:")[0]
    now = max(d.clock for d in devices)
    for d in lost:
        trace.record(f"worker {fault.task} killed", "fault", d.name, now, now,
                     fault="KillWorker", step=step)
    # The survivors reach the step's collective and wait for the lost task until the
    # timeout: a bounded wait in simulated time.
    for d in devices:
        if d not in lost:
            trace.record(f"waiting for lost task {name}", "fault", d.name, now,
                         now + plan.timeout, fault="KillWorker", step=step)
            d.wait_until(now + plan.timeout)
    raise errors.UnavailableError(
        None, None, f"Collective ops is aborted by: Task {name} is unavailable: it died at "
        f"step {step} (simdist.faults.KillWorker) and sent nothing for {plan.timeout:g} s. "
        "Restart the cluster; with BackupAndRestore, fit resumes from the last backup.")


def link_factor(devices, schedule) -> tuple[float, str]:
    """How many times slower a collective over ``devices`` runs on the slowed links, and
    the slowest link's name (``"0<->1"``; empty when none is crossed)."""
    if not _ACTIVE:
        return 1.0, ""
    tasks = [task_of(getattr(d, "name", str(d))) for d in devices]
    factor, label = 1.0, ""
    for f in _ACTIVE[-1].faults:
        if not isinstance(f, SlowLink) or f.factor <= factor:
            continue
        if any(t.src < len(tasks) and t.dst < len(tasks) and {tasks[t.src], tasks[t.dst]}
               == {f.a, f.b} for step in schedule.steps for t in step.transfers):
            factor, label = float(f.factor), f"{f.a}<->{f.b}"
    return factor, label
