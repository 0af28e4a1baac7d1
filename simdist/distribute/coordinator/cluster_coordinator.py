"""``tf.distribute.coordinator.ClusterCoordinator``: schedule functions on workers, join them.

Glossary:
  schedule     -- queue a ``tf.function`` (with PerWorkerValues arguments split per worker)
                  and get a RemoteValue at once; a free worker runs it later.
  trace        -- ``schedule`` traces the function on the coordinator, in the strategy's
                  scope, with the first worker's arguments (an iterator argument is keyed
                  by its element spec and replaced by each worker's own at execution), as
                  TF's Closure does: ``print`` runs once per trace, and each worker executes
                  the graph, whose variable reads and writes are its pulls and pushes.
  join / done  -- run the queue to the end (``join``) / whether nothing is left (``done``:
                  runs what the workers would have finished by the coordinator's time).
                  Both raise the first error a function raised since the last raise, after
                  which the functions still queued are cancelled (their RemoteValues raise
                  CancelledError), as TF.
  Closure      -- one scheduled function with its arguments (TF's Closure); a worker that
                  fails while running it puts it back at the end of the queue.
  resources    -- per-worker datasets and iterators (create_per_worker_dataset); built on
                  every worker, rebuilt on one that recovers.
The workers run in simulated time (simulation.py), one thread each while they run.

Mirrors tensorflow/python/distribute/coordinator/cluster_coordinator.py.
"""

from __future__ import annotations

import itertools
import logging

from simdist.distribute.coordinator import simulation
from simdist.distribute.coordinator.remote_value import (
    PerWorkerValues,
    RemoteValue,
    RemoteValueImpl,
    disallow_remote_value_as_input,
    select_worker_slice,
)
from simdist.framework import context, errors, nest

_logger = logging.getLogger("tensorflow")
_RPC_ERROR_FROM_PS = "GRPC error information from remote target /job:ps"
_closure_ids = itertools.count()


class PSUnavailableError(errors.UnavailableError):
    """An UnavailableError that names a parameter server as the unavailable task."""


class Closure:
    """A scheduled function and its arguments (TF's Closure)."""

    def __init__(self, function, cluster, args=None, kwargs=None):
        if not callable(function):
            raise ValueError("Function passed to `ClusterCoordinator.schedule` must be a "
                             "callable object.")
        self._function = function
        self._args = tuple(args or ())
        self._kwargs = dict(kwargs or {})
        disallow_remote_value_as_input(self._args)
        disallow_remote_value_as_input(self._kwargs)
        self.id = next(_closure_ids)
        self.scheduled_at = 0.0
        self._cluster = cluster
        self.output = None
        self._concrete = self._trace() if _is_function(function) else None

    def _trace(self):
        """TF traces a scheduled ``tf.function`` here, on the coordinator, with the first
        worker's slice of the arguments (their type specs: an iterator argument is each
        worker's own at execution), and sends the concrete function to the workers: its
        Python runs once per trace, not once per execution."""
        args = select_worker_slice(self._first_worker(), self._args)
        kwargs = select_worker_slice(self._first_worker(), self._kwargs)
        args = nest.map_structure(_maybe_get_remote_value, args)
        kwargs = nest.map_structure(_maybe_get_remote_value, kwargs)
        strategy = self._cluster.strategy
        with strategy.scope(), strategy.extended._scheduling():
            return self._function._concrete_before_execution(args, kwargs)

    def _first_worker(self) -> int:
        """The first worker whose per-worker arguments are built (worker 0 unless it is
        down): what the trace reads their specs from."""
        for w in self._cluster.workers:
            values = select_worker_slice(w.index, (self._args, self._kwargs))
            if all(not isinstance(x, RemoteValueImpl) or x._values is not None
                   for x in nest.flatten(values)):
                return w.index
        return 0

    def build_output_remote_value(self):
        self.output = RemoteValueImpl(self, self._cluster)
        return self.output

    def mark_cancelled(self):
        if self.output is not None:
            self.output._set_error(errors.CancelledError(
                None, None, "The corresponding function is cancelled. Please reschedule "
                "the function."))

    def execute_on(self, worker):
        """Run on ``worker``: its slice of the arguments, its device, the strategy's scope."""
        args = select_worker_slice(worker.index, self._args)
        kwargs = select_worker_slice(worker.index, self._kwargs)
        for x in nest.flatten((args, kwargs)):
            if isinstance(x, RemoteValueImpl) and x._error is not None:
                raise x._error
        args = nest.map_structure(_maybe_get_remote_value, args)
        kwargs = nest.map_structure(_maybe_get_remote_value, kwargs)
        strategy = self._cluster.strategy
        extended = strategy.extended
        with strategy.scope(), context.device(worker.device_name), \
                extended._scheduled_on(worker):
            if self._concrete is None:
                out = self._function(*args, **kwargs)
            else:   # the coordinator's trace, for every worker's own iterator (as TF)
                out = self._function._call(self._concrete._trace, args, kwargs)
        if self.output is not None:
            self.output._set_values(out)


def _is_function(fn) -> bool:
    from simdist.framework.function import Function

    return isinstance(fn, Function)


def _maybe_get_remote_value(x):
    return x._values if isinstance(x, RemoteValueImpl) else x


class ResourceClosure(Closure):
    """A closure that builds a per-worker resource (dataset, iterator) on one worker."""

    def execute_on(self, worker):
        # The worker's scope, so a distributed dataset places its batches on this worker.
        with context.device(worker.device_name), \
                self._cluster.strategy.extended._scheduled_on(worker):
            out = self._function()
        self.output._set_values(out)


def _is_ps_failure(e) -> bool:
    return isinstance(e, errors.UnavailableError) and _RPC_ERROR_FROM_PS in str(e)


def _is_worker_failure(e) -> bool:
    return (isinstance(e, errors.UnavailableError) and "/job:worker" in str(e)
            and not _is_ps_failure(e))


class Cluster:
    """The workers and the closure queue, served by the simulation's scheduler."""

    def __init__(self, strategy):
        self.strategy = strategy
        self.sim = strategy.extended.simulation
        self.scheduler = simulation.Scheduler(self.sim)
        self.queue = []
        self.error = None
        self.coordinator_time = self.sim.now()

    @property
    def workers(self):
        return self.sim.workers

    # --- the coordinator's side -------------------------------------------------------
    def _check_coordinator(self):
        down = self.sim.coordinator_down_at
        if down is not None and self.coordinator_time >= down:
            raise errors.UnavailableError(
                None, None, f"The coordinator (/job:chief/replica:0/task:0) failed at "
                f"t={down:.6f}s (simulated). Restart it: it reconnects to the workers and "
                "ps, re-creates the variables; restore them from the last checkpoint.")

    def _raise_if_error(self):
        if self.error is not None:
            e, self.error = self.error, None
            raise e

    def schedule(self, function, args, kwargs):
        self._check_coordinator()
        self._raise_if_error()
        closure = Closure(function, self, args, kwargs)
        remote = closure.build_output_remote_value()
        self.coordinator_time += simulation.DISPATCH_S
        closure.scheduled_at = self.coordinator_time
        self.queue.append(closure)
        return remote

    def join(self):
        self._check_coordinator()
        self.run_until(lambda: False)
        self.coordinator_time = max(self.coordinator_time, self.sim.now())
        self._raise_if_error()

    def done(self):
        self._check_coordinator()
        self.run_until(lambda: False, until_time=self.coordinator_time)
        self._raise_if_error()
        return not self.queue and not self.scheduler.active

    def create_resource(self, function):
        """Build ``function()`` on every alive worker now; PerWorkerValues of the results."""
        values = []
        for w in self.workers:
            closure = ResourceClosure(function, self)
            remote = closure.build_output_remote_value()
            if w.alive:
                closure.execute_on(w)
            else:
                remote._set_aborted(errors.UnavailableError(
                    None, None, f"/job:worker/replica:0/task:{w.index} is down."))
            w.resources.append(remote)
            values.append(remote)
        return PerWorkerValues(values)

    # --- the simulation loop ----------------------------------------------------------
    def run_until(self, predicate, until_time=None):
        """Serve events in time order until ``predicate()`` or nothing is left to do."""
        sched = self.scheduler
        while not predicate():
            event = sched.next_event(self.queue, accepting=self.error is None)
            if event is None:
                if self.queue and self.error is None:
                    self._no_worker_left()
                return
            time, kind, payload = event
            if until_time is not None and time > until_time:
                return
            if kind == "start":
                run = sched.start(self.queue.pop(0), payload, time)
                self._after(sched.resume(run))
            elif kind == "resume":
                self._after(sched.resume(payload))
            elif kind == "fail":
                self._worker_down(payload, payload.down_at)
            else:
                self._worker_up(payload)

    def _after(self, run):
        if not run.finished:
            return
        e, closure = run.exc, run.closure
        if e is None:
            run.record["status"] = "ok"
            return
        if _is_worker_failure(e):
            run.record["status"] = "failed over"
            _logger.info("[Worker %d] Putting back a closure after it failed.",
                         run.worker.index)
            self._worker_down(run.worker, run.time)
            if self.error is not None:
                closure.mark_cancelled()
            else:
                self.queue.append(closure)
            return
        run.record["status"] = "error"
        if _is_ps_failure(e):
            e = PSUnavailableError(None, None, str(e))
        if closure.output is not None:
            closure.output._set_error(e)
        if self.error is None:
            self.error = e
        # TF cancels what is still queued; functions already running finish.
        for c in self.queue:
            c.mark_cancelled()
        self.queue.clear()

    def _worker_down(self, worker, time):
        worker.alive = False
        worker.device.wait_until(time)
        if worker.recover_after is not None:
            worker.recover_at = time + worker.recover_after
        for r in worker.resources:
            r._set_aborted(errors.UnavailableError(
                None, None, f"/job:worker/replica:0/task:{worker.index} failed."))

    def _worker_up(self, worker):
        worker.device.wait_until(worker.recover_at)
        worker.alive, worker.recover_at, worker.down_at = True, None, None
        for r in worker.resources:  # TF rebuilds the datasets/iterators on recovery
            r._closure.execute_on(worker)

    def _no_worker_left(self):
        e = errors.UnavailableError(
            None, None, "Every worker is unavailable and none will recover, so the "
            f"{len(self.queue)} queued function(s) cannot run (TF would wait for a worker "
            "to come back). Recover a worker (fail_worker(..., recover_after=...)).")
        for c in self.queue:
            c.mark_cancelled()
        self.queue.clear()
        raise e


class ClusterCoordinator:
    """Schedules functions on the workers of a ParameterServerStrategy's cluster.

    One per strategy (``ClusterCoordinator(strategy)`` twice gives the same object).

    Raises:
      ValueError: ``strategy`` is not a ParameterServerStrategy.
    """

    def __new__(cls, strategy):
        if strategy._cluster_coordinator is None:  # AttributeError for others, as TF
            strategy._cluster_coordinator = super().__new__(cls)
        return strategy._cluster_coordinator

    def __init__(self, strategy):
        if getattr(self, "_has_initialized", False):
            return
        if not hasattr(strategy, "_is_parameter_server_strategy_v2"):
            raise ValueError("Only `tf.distribute.experimental.ParameterServerStrategy` is "
                             "supported to work with `tf.distribute.experimental.coordinator."
                             "ClusterCoordinator` currently.")
        self._strategy = strategy
        strategy.extended._used_with_coordinator = True
        self._cluster = Cluster(strategy)
        self._has_initialized = True

    @property
    def strategy(self):
        return self._strategy

    def schedule(self, fn, args=None, kwargs=None):
        """Queue ``fn`` (a ``tf.function``) to run on some worker; returns its RemoteValue.

        Raises:
          TypeError: ``fn`` is not a ``tf.function`` (TF's message).
          ValueError: a RemoteValue among the arguments.
          Exception: the first error a previously scheduled function raised.
        """
        from simdist.framework.function import Function

        if not isinstance(fn, Function):
            raise TypeError("`tf.distribute.experimental.coordinator.ClusterCoordinator."
                            "schedule` only accepts a `tf.function` or a concrete function.")
        return self._cluster.schedule(fn, args=args, kwargs=kwargs)

    def join(self):
        """Run until every scheduled function has finished; raise the first error if any."""
        self._cluster.join()

    def done(self):
        """Whether every scheduled function has finished by now (raises their error)."""
        return self._cluster.done()

    def create_per_worker_dataset(self, dataset_fn):
        """A dataset built on every worker from ``dataset_fn`` (or a dataset); ``iter`` of
        it gives a PerWorkerValues of iterators, one per worker."""
        from simdist.distribute.coordinator.values import get_per_worker_dataset

        return get_per_worker_dataset(dataset_fn, self)

    def _create_per_worker_resources(self, fn, args=None, kwargs=None):
        return self._cluster.create_resource(lambda: fn(*(args or ()), **(kwargs or {})))

    def fetch(self, val):
        """``val`` with every RemoteValue in it fetched (NumPy); other values as they are."""
        return nest.map_structure(
            lambda v: v.fetch() if isinstance(v, RemoteValue) else v, val)
