"""The asynchronous parameter-server cluster, simulated: worker clocks, pulls, pushes, failures.

Glossary:
  worker clock   -- each worker runs scheduled functions on its own simulated clock (its
                    device's clock): compute ops advance it, so a slow worker (``slowdown``
                    > 1, a straggler) falls behind, and nobody waits for anybody.
  pull / push    -- a worker reading a variable from its parameter server (the value crosses
                    the network to the worker) / writing one (an ``assign*`` of the optimizer
                    crosses back); each costs latency + bytes / bandwidth on the worker's clock.
  version        -- how many writes a variable has had. A step records the version of each
                    variable it first read and the version its last write made; ``staleness``
                    is how many other writes landed between a read and the write after it
                    (the most over the step's writes).
  event order    -- every pull and push is a point in simulated time; worker threads take
                    turns so that these happen in time order (ties: lower worker first). Only
                    one thread runs at a time, so a run is reproducible for a given ``seed``.
  failure        -- ``fail_worker(i, at_time, recover_after)``: the worker's running function
                    stops at its next pull/push (UnavailableError naming /job:worker/task:i),
                    goes back to the end of the queue and runs on another worker, as TF's
                    coordinator does; on recovery its per-worker datasets are rebuilt.
                    ``fail_ps(i, at_time)``: an access to that ps raises UnavailableError, the
                    queue is cancelled and ``join`` raises it, as TF. ``fail_coordinator``:
                    the next ``schedule``/``join`` raises UnavailableError (in TF the
                    coordinator's process dies; restart it and restore a checkpoint).

TF runs the same program with one thread per worker pulling closures from one queue
(tensorflow/python/distribute/coordinator/cluster_coordinator.py: Worker._process_queue,
_CoordinatedClosureQueue); here the queue is served in simulated-time order instead.
"""

from __future__ import annotations

import threading

import numpy as np

from simdist.framework import errors
from simdist.framework.thread_local import ThreadLocalNamespace

# A datacenter network between tasks: 25 Gbit/s Ethernet and 50 microseconds per message
# (the order of a TCP/gRPC round trip inside one rack).
NETWORK_BANDWIDTH_BYTES = 25e9 / 8
NETWORK_LATENCY_S = 50e-6
# What the coordinator spends to dispatch one function (an RPC enqueue).
DISPATCH_S = 20e-6
# The longest real time a worker thread may run between two pulls/pushes before the
# simulation gives up (a deadlock in user code, not a slow machine).
TURN_TIMEOUT_S = 600.0

_current = ThreadLocalNamespace()


def current_run():
    """The scheduled function running in this thread (None on the coordinator)."""
    return getattr(_current, "run", None)


class _Aborted(BaseException):
    """Unwinds a worker thread that the simulation abandons."""


class WorkerState:
    """One worker task: its device (clock), speed, liveness and per-worker resources."""

    def __init__(self, index, device):
        self.index = index
        self.device = device
        self.slowdown = 1.0
        self.down_at = None      # simulated time it fails
        self.recover_after = None
        self.alive = True
        self.recover_at = None
        self.resources = []      # RemoteValues of its datasets / iterators, rebuilt on recovery

    @property
    def device_name(self) -> str:
        return self.device.name

    @property
    def clock(self) -> float:
        return self.device.clock


class PSSimulation:
    """Knobs, clocks and trace of the simulated parameter-server cluster.

    ``strategy.extended.simulation`` (simdist's addition): set stragglers, jitter, network
    and failures before ``join``; read ``steps`` and ``events`` after.
    """

    def __init__(self, workers, ps_devices, seed=0):
        self.workers = workers
        self.ps_devices = ps_devices
        self.bandwidth = NETWORK_BANDWIDTH_BYTES
        self.latency = NETWORK_LATENCY_S
        self.step_jitter_s = 0.0
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self._ps_down_at = {}
        self.coordinator_down_at = None
        self.steps = []   # one record per function execution (see record_step)
        self.events = []  # every pull and push

    # --- knobs ------------------------------------------------------------------------
    def set_worker_speed(self, worker, slowdown):
        """Make worker ``worker`` ``slowdown`` times slower at compute (a straggler)."""
        if slowdown <= 0:
            raise ValueError(f"slowdown must be > 0 (1 is normal speed), got {slowdown}.")
        self._worker(worker).slowdown = float(slowdown)

    def set_seed(self, seed):
        """Reseed the jitter drawn per step (``step_jitter_s``)."""
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    def fail_worker(self, worker, at_time, recover_after=None):
        """Worker ``worker`` fails at simulated time ``at_time`` (back ``recover_after`` s
        later, or never)."""
        w = self._worker(worker)
        w.down_at, w.recover_after = float(at_time), recover_after

    def fail_ps(self, ps, at_time):
        """Parameter server ``ps`` fails at simulated time ``at_time``."""
        if not 0 <= ps < len(self.ps_devices):
            raise ValueError(f"There is no ps {ps}: the cluster has {len(self.ps_devices)}.")
        self._ps_down_at[ps] = float(at_time)

    def fail_coordinator(self, at_time=0.0):
        """The coordinator fails at simulated time ``at_time``."""
        self.coordinator_down_at = float(at_time)

    def _worker(self, i) -> WorkerState:
        if not 0 <= i < len(self.workers):
            raise ValueError(f"There is no worker {i}: the cluster has {len(self.workers)}.")
        return self.workers[i]

    # --- costs and checks used while a function runs ----------------------------------
    def transfer_s(self, nbytes) -> float:
        return self.latency + nbytes / self.bandwidth

    def jitter(self) -> float:
        if self.step_jitter_s <= 0:
            return 0.0
        return float(self._rng.exponential(self.step_jitter_s))

    def check_ps(self, ps_task, now, ps_name):
        down = self._ps_down_at.get(ps_task)
        if down is not None and now >= down:
            raise errors.UnavailableError(
                None, None, f"Socket closed. GRPC error information from remote target "
                f"{ps_name}: the parameter server failed at t={down:.6f}s (simulated). "
                "Restart the ps and the coordinator, and restore the last checkpoint.")

    def now(self) -> float:
        return max([w.clock for w in self.workers] + [0.0])

    def staleness_summary(self) -> dict:
        """Staleness of every write: how many other writes came between read and write."""
        values = [s for step in self.steps for s in step["staleness"].values()]
        return {"writes": len(values), "max": max(values, default=0),
                "mean": float(np.mean(values)) if values else 0.0}


class Run(threading.Thread):
    """One scheduled function running on one worker, taking turns with the others."""

    def __init__(self, scheduler, closure, worker, step, start_time):
        super().__init__(daemon=True, name=f"ps-worker-{worker.index}-step-{step}")
        self.scheduler = scheduler
        self.closure = closure
        self.worker = worker
        self.time = start_time
        self.finished = False
        self.exc = None
        self.aborted = False
        self._since = start_time  # worker clock at the last pull/push (for the slowdown)
        self._last_read = {}  # variable name -> the version its latest pull saw
        self.record = {"step": step, "closure": closure.id, "worker": worker.index,
                       "start": start_time, "end": None, "read": {}, "wrote": {},
                       "staleness": {}, "status": "running"}

    def run(self):
        _current.run = self
        sched = self.scheduler
        try:
            sched.wait_turn(self)
            self.closure.execute_on(self.worker)
        except _Aborted:
            self.aborted = True
        except BaseException as e:  # noqa: BLE001 - handed to the coordinator
            self.exc = e
        finally:
            self._apply_slowdown()
            self.finished = True
            self.record["end"] = self.worker.clock
            _current.run = None
            sched.give_back(self)

    # --- sync points (called from CachingVariable) ------------------------------------
    def _apply_slowdown(self):
        clock = self.worker.device.clock
        if self.worker.slowdown != 1.0 and clock > self._since:
            self.worker.device.wait_until(self._since + (clock - self._since)
                                          * self.worker.slowdown)
        self._since = self.worker.device.clock

    def _sync(self):
        """Wait until every earlier event of the cluster has happened, then go on."""
        self._apply_slowdown()
        self.time = self.worker.clock
        self.scheduler.yield_turn(self)
        w = self.worker
        if w.down_at is not None and w.alive and self.time >= w.down_at:
            raise errors.UnavailableError(
                None, None, f"Socket closed: /job:worker/replica:0/task:{w.index} failed at "
                f"t={w.down_at:.6f}s (simulated). Its function is rescheduled on another "
                "worker.")

    def pull(self, var, read):
        """A read of ``var`` from its ps: returns ``read()`` as of now, on this worker."""
        self._sync()
        sim = self.scheduler.sim
        sim.check_ps(var._ps_task, self.time, var.device)
        version = var._version
        out = read()
        start = self.worker.clock
        self.worker.device.wait_until(start + sim.transfer_s(var._nbytes))
        self._since = self.worker.device.clock
        self.record["read"].setdefault(var.name, version)
        self._last_read[var.name] = version
        self._log(sim, "pull", var, version, start, self.worker.clock)
        out._device = self.worker.device
        return out

    def push(self, var, write):
        """A write of ``var`` on its ps (after the bytes crossed the network)."""
        sim = self.scheduler.sim
        self._apply_slowdown()
        start = self.worker.clock
        self.worker.device.wait_until(start + sim.transfer_s(var._nbytes))
        self._sync()
        sim.check_ps(var._ps_task, self.time, var.device)
        before = var._version
        read_version = self._last_read.get(var.name, before)
        var._device.wait_until(self.time)
        write()
        var._version += 1
        self._last_read[var.name] = var._version  # its own write is not stale to it
        self.record["wrote"][var.name] = var._version
        self.record["staleness"][var.name] = max(
            self.record["staleness"].get(var.name, 0), before - read_version)
        self._log(sim, "push", var, var._version, start, self.time)

    def _log(self, sim, kind, var, version, start, end):
        """One pull or push: in the simulation's events and in the machine's trace (so the
        Chrome trace shows the network time of each worker)."""
        sim.events.append({"kind": kind, "worker": self.worker.index, "ps": var._ps_task,
                           "var": var.name, "version": version, "start": start, "end": end,
                           "step": self.record["step"]})
        trace = self.worker.device.trace
        if trace.enabled:
            trace.record(f"{kind} {var.name} v{version}", "transfer", self.worker.device_name,
                         start, end, ps=var.device, step=self.record["step"])


class Scheduler:
    """Serves the closure queue in simulated-time order (the coordinator's side)."""

    def __init__(self, sim):
        self.sim = sim
        self._cond = threading.Condition()
        self._turn = None  # the Run allowed to go on; None: the coordinator
        self.active = []
        self._steps = 0

    # --- the token --------------------------------------------------------------------
    def wait_turn(self, run):
        with self._cond:
            if not self._cond.wait_for(lambda: self._turn is run, TURN_TIMEOUT_S):
                raise _Aborted()

    def yield_turn(self, run):
        with self._cond:
            self._turn = None
            self._cond.notify_all()
        self.wait_turn(run)

    def give_back(self, run):
        with self._cond:
            self._turn = None
            self._cond.notify_all()

    def _hand_to(self, run):
        with self._cond:
            self._turn = run
            self._cond.notify_all()
            if not self._cond.wait_for(lambda: self._turn is None, TURN_TIMEOUT_S):
                raise errors.DeadlineExceededError(
                    None, None, f"A scheduled function on worker {run.worker.index} ran for "
                    f"more than {TURN_TIMEOUT_S:.0f}s of real time without reading or "
                    "writing a variable; the simulation stops waiting for it.")

    # --- one event --------------------------------------------------------------------
    def next_event(self, queue, accepting):
        """The earliest thing that can happen: (time, kind, payload), or None.

        Ties go to running functions first, then to the worker idle the longest (as TF's
        worker threads queue on the closure queue), then to the lower worker index.
        """
        candidates = [(r.time, 0, 0.0, r.worker.index, "resume", r) for r in self.active]
        busy = {r.worker.index for r in self.active}
        for w in self.sim.workers:
            if not w.alive and w.recover_at is not None:
                candidates.append((w.recover_at, 1, w.clock, w.index, "recover", w))
            elif w.alive and w.index not in busy and queue and accepting:
                start = max(w.clock, queue[0].scheduled_at)
                if w.down_at is not None and start >= w.down_at:
                    candidates.append((w.down_at, 1, w.clock, w.index, "fail", w))
                else:
                    candidates.append((start, 2, w.clock, w.index, "start", w))
        if not candidates:
            return None
        time, _, _, _, kind, payload = min(candidates, key=lambda c: c[:4])
        return time, kind, payload

    def start(self, closure, worker, time):
        worker.device.wait_until(time + self.sim.jitter())
        run = Run(self, closure, worker, self._steps, worker.clock)
        self._steps += 1
        self.active.append(run)
        run.start()
        return run

    def resume(self, run):
        self._hand_to(run)
        if run.finished:
            run.join(timeout=TURN_TIMEOUT_S)
            self.active.remove(run)
            self.sim.steps.append(run.record)
        return run
