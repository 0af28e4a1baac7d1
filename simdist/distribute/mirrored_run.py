"""Running a function on every replica in lock-step threads, with ``merge_call``.

Glossary:
  replica thread  -- one per replica; runs ``fn`` in that replica's ReplicaContext and
                     under its device scope. Threads take turns (one runs at a time), so a
                     run is deterministic, exactly as TF's MirroredStrategy schedules them.
  replica pool    -- a strategy's replica threads (a pool per number of threads: a TPU
                     trace runs one), started by its first ``run`` and reused
                     by the next ones (TF starts threads per call; reusing them saves their
                     start-up on every step). Each task starts with fresh per-thread state
                     (``thread_local.fresh_thread``), as on a new thread. A run that finds
                     the pool busy (a ``run`` nested in a replica or a merge function, or
                     one from another thread) gets threads of its own for that run. The
                     pool ends when its strategy is garbage-collected, at a world reset
                     (``simdist.testing.reset_world``), at exit, or when a run fails.
  merge_call      -- a replica that calls it pauses; when every replica has paused, the
                     merge function runs once in cross-replica context on the regrouped
                     (PerReplica) arguments, each replica gets its own part of the result,
                     and all resume.
  abort           -- if a replica raises, the exception (with the replica id added as a
                     note) reaches the caller and every other thread is unwound (a
                     ``_Aborted`` raised where it paused) and joined: the failed run's pool
                     ends, the next run starts a new one.
  re-abort        -- a replica that catches the abort (a bare ``except:`` in a retry
                     wrapper) and calls merge_call / a collective again gets ``_Aborted``
                     again at once: nothing waits for replicas that are gone.
  ABORT_GRACE_S   -- how long the unwinding replicas get to finish; one still running after
                     it (a loop that swallows every abort) is abandoned with a warning: its
                     next merge_call parks it for good, so it neither runs nor spins. Every
                     wait here is bounded or watches the thread it waits for.

States of a replica thread (each transition is marked ``# -> STATE`` in the code):

  IDLE     -- in the pool, waiting for a task (``should_run`` or the pool stopping).
  RUNNING  -- its turn: runs ``fn`` until it returns, raises, or calls merge_call.
  PAUSED   -- at a merge_call: ``has_paused`` set, waiting for its next turn.
  DONE     -- ``fn`` returned or raised (``exc``); ``has_paused`` set one last time.
  ABORTED  -- the run failed elsewhere: ``abort`` set, it unwinds with ``_Aborted`` from
              where it paused, and meets it again at any later merge_call.
  PARKED   -- abandoned after ABORT_GRACE_S (it kept catching the abort): it waits
              forever at its next merge_call.

One ``strategy.run`` with two replicas and one merge_call (the caller's thread hands out
turns one at a time, so the run is deterministic):

  caller (call_for_each_replica)      replica 0                 replica 1
  ------------------------------      ---------                 ---------
  assign tasks, turn -> r0            IDLE -> RUNNING
                                      merge_call: -> PAUSED
  turn -> r1                                                    IDLE -> RUNNING
                                                                merge_call: -> PAUSED
  all PAUSED: _merge runs merge_fn
  once (cross-replica context) on
  the regrouped arguments; each
  replica's part -> merge_result
  turn -> r0                          PAUSED -> RUNNING
                                      fn returns: -> DONE
  turn -> r1                                                    PAUSED -> RUNNING
                                                                fn returns: -> DONE
  all DONE: regroup the results       -> IDLE (kept in the pool)  -> IDLE
  (a replica raised instead: _unwind sets ABORTED on every thread, joins them within
  ABORT_GRACE_S, PARKS a thread still running, ends the pool, re-raises the error)

Mirrors tensorflow/python/distribute/mirrored_run.py.
"""

from __future__ import annotations

import atexit
import contextlib
import re
import threading
import time
import warnings
import weakref

from simdist import _world
from simdist import warnings as teach
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.values import regroup, select_replica
from simdist.framework import (
    context,
    errors,
    held_output,
    name_scope,
    op_recording,
    thread_local,
    variables,
)
from simdist.framework import tensor as tensor_lib


class _Aborted(BaseException):
    """Raised inside a paused replica thread to unwind it when the run is abandoned."""


# TF's error (_MirroredReplicaContext._merge_call) for a merge_call in a nested tf.function
# of a replica function, recorded from TF 2.21 (function_distribute_cases.py).
MERGE_CALL_IN_A_NEW_GRAPH = (
    "`merge_call` called while defining a new graph or a tf.function. This can often "
    "happen if the function `fn` passed to `strategy.run()` contains a nested "
    "`@tf.function`, and the nested `@tf.function` contains a synchronization point, such "
    "as aggregating gradients (e.g, optimizer.apply_gradients), or if the function `fn` "
    "uses a control flow statement which contains a synchronization point in the body. "
    "Such behaviors are not yet supported. Instead, please avoid nested `tf.function`s or "
    "control flow statements that may potentially cross a synchronization boundary, for "
    "example, wrap the `fn` passed to `strategy.run` or the entire `strategy.run` inside a "
    "`tf.function` or move the control flow out of `fn`. If you are subclassing a "
    "`tf.keras.Model`, please avoid decorating overridden methods `test_step` and "
    "`train_step` in `tf.function`.")


ABORT_GRACE_S = 10.0
_POLL_S = 0.5  # how often a wait checks that the thread it waits for is still alive


def _wait_for(event, other) -> bool:
    """Wait until ``event`` is set, or ``other`` (the thread that would set it) has ended."""
    while not event.wait(_POLL_S):
        if not other.is_alive():
            return event.is_set()
    return True


class _ReplicaThread(threading.Thread):
    """One replica's thread: runs a task per ``strategy.run`` until its pool stops."""

    def __init__(self, index):
        super().__init__(daemon=True, name=f"replica-{index}")
        self.should_run = threading.Event()
        self.has_paused = threading.Event()
        self.stopping = False
        self.abandoned = False

    def assign(self, replica_ctx, device, fn, args, kwargs):
        """Give this thread one run's task (it starts at its first ``should_run``)."""
        self.ctx = replica_ctx
        self.device = device
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.owner = threading.current_thread()
        # Inside a tf.function's trace, the replica traces into the caller's graph (TF's
        # _MirroredReplicaThread enters the caller's graph and its "inside function" state).
        self.graph = tensor_lib.tracing.value
        # TF's _MirroredReplicaThread: the caller's name scope, and "replica_<i>/" under it
        # for every replica but the first (``replica_1/mul``)
        index = replica_ctx._replica_index
        self.name_scope = None if self.graph is None else \
            self.graph.scope + (f"replica_{index}/" if index else "")
        self.in_function = not context.executing_eagerly()
        # what it prints goes where the caller's trace's printing goes (TF's replica
        # threads print in the caller's trace; simdist prints that once, after it)
        self.printed = held_output.collecting()
        # and the tf.function's variable rules (TF copies the caller's creator stack): a
        # replica that makes a variable while tracing is lifted, or refused, as the caller
        self.creators = [c for c in variables._creator_stack()
                         if getattr(c, "follows_replicas", False)]
        self.done = False
        self.abort = False
        self.aborts_caught = 0
        self.result = None
        self.exc: BaseException | None = None
        self.merge_fn = None
        self.merge_args = ()
        self.merge_kwargs = {}
        self.merge_result = None
        replica_ctx._thread = self

    def run(self):
        main = threading.main_thread()
        while not self.stopping:
            # IDLE between runs: woken by the next task or by the pool stopping.
            if not self.should_run.wait(_POLL_S):
                if not main.is_alive():
                    return
                continue
            self.should_run.clear()
            if self.stopping:
                return
            self._run_task()  # -> RUNNING

    def _run_task(self):
        try:
            if self.abort:
                self._reabort()
            thread_local.fresh_thread()  # a task starts as on a thread of its own
            if teach.enabled():
                teach.enter_replica(self.ctx.num_replicas_in_sync)
            with _graph_scope(self.graph, self.in_function, self.name_scope), \
                    held_output.collected(self.printed), \
                    context.device(self.device.name,
                                   getattr(self.ctx, "_requested_device", None)), self.ctx, \
                    variables.variable_creator_scope(_replica_variable_creator), \
                    contextlib.ExitStack() as inherited:
                for creator in self.creators:
                    inherited.enter_context(variables.variable_creator_scope(creator))
                self.result = self.fn(*self.args, **self.kwargs)
        except _Aborted:
            pass
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            if not self.abort:
                self.exc = e
        finally:
            # No references kept while idle (the last merge_fn is a bound method: an
            # optimizer's apply, which would live as long as the strategy's pool).
            self.fn = self.args = self.kwargs = self.merge_args = self.merge_kwargs = None
            self.merge_fn = self.merge_in_op = self.merge_scope = None
            self.graph = self.creators = self.printed = None
            self.done = True  # -> DONE
            self.has_paused.set()

    def _wait_turn(self):
        """Block until the caller's thread hands this replica its turn (or gives up)."""
        if not self.abort:
            if not _wait_for(self.should_run, self.owner):
                self.abort = True  # -> ABORTED: the caller's thread is gone, nobody merges
            self.should_run.clear()
        if self.abort:
            self._reabort()

    def _reabort(self):
        if self.abandoned:  # swallowed every abort through the grace period: -> PARKED
            threading.Event().wait()
        self.aborts_caught += 1
        raise _Aborted()

    def pause_for_merge(self, merge_fn, args, kwargs):
        if self.abort:  # the run is over: a replica that caught the abort meets it again
            self._reabort()
        self.merge_fn, self.merge_args, self.merge_kwargs = merge_fn, args, kwargs
        # paused inside a recorded op's trace (a gradient through an all-reduce): its merge
        # runs on placeholders too, recording nothing
        self.merge_in_op = op_recording.recorded_op_variant()
        # TF runs merge_fn under the first replica's name scope at its merge_call
        self.merge_scope = self.graph.scope if self.graph is not None else None
        self.has_paused.set()  # -> PAUSED
        self._wait_turn()  # -> RUNNING (or ABORTED: _Aborted raised here)
        result, self.merge_result = self.merge_result, None
        return result


@contextlib.contextmanager
def _graph_scope(graph, in_function, name_scope=None):
    """The caller's trace state on a replica thread: ops record into ``graph`` (one
    replica at a time, so its nodes are in the order the replicas took turns), named under
    ``name_scope``."""
    if graph is None and not in_function:
        yield
        return
    with tensor_lib.tracing.scope(graph), contextlib.ExitStack() as stack:
        if in_function:
            stack.enter_context(context.inside_function())
        if graph is not None and name_scope:
            stack.enter_context(graph.name_scope(name_scope))
        yield


class _ReplicaPool:
    """A strategy's replica threads, reused run after run (see the glossary)."""

    def __init__(self, size):
        self.threads = [_ReplicaThread(i) for i in range(size)]
        self.busy = threading.Lock()
        self.closed = False
        for t in self.threads:
            t.start()
        _POOLS.add(self)

    def stop(self) -> None:
        """End the idle threads (bounded join); a busy pool ends when its run does."""
        if not self.busy.acquire(blocking=False):
            self.closed = True  # the running call_for_each_replica stops it on its way out
            return
        try:
            self._stop_threads()
        finally:
            self.busy.release()

    def _stop_threads(self) -> None:
        self.closed = True
        _POOLS.discard(self)
        for t in self.threads:
            t.stopping = True
            t.should_run.set()
        deadline = time.monotonic() + ABORT_GRACE_S
        for t in self.threads:
            if t is not threading.current_thread():
                t.join(max(0.0, deadline - time.monotonic()))


_POOLS: weakref.WeakSet = weakref.WeakSet()


@_world.register_resetter
@atexit.register
def _stop_pools() -> None:
    """A fresh world (and the end of the process) has no replica threads."""
    for pool in list(_POOLS):
        pool.stop()


def _pool_for(strategy, size) -> tuple[_ReplicaPool, bool]:
    """The strategy's pool, held for this run, or a pool for this run only (its own is
    busy: a nested or concurrent run). Returns (pool, whether it is kept after the run)."""
    extended = strategy.extended
    pools = extended.__dict__.setdefault("_replica_pools", {})   # size -> pool
    pool = pools.get(size)
    if pool is None or pool.closed or \
            not all(t.is_alive() for t in pool.threads):  # e.g. in a forked child
        pool = pools[size] = _ReplicaPool(size)
        weakref.finalize(extended, pool.stop)
    if pool.busy.acquire(blocking=False):
        if not pool.closed:
            return pool, True
        pool.busy.release()
    one_off = _ReplicaPool(size)
    one_off.busy.acquire()
    return one_off, False


# Uniquifying suffixes ("dense_1/kernel", "v_2") are ignored when replicas' variable names
# are matched (TF's shared_variable_creator).
_UNIQUIFIED = (re.compile(r"_\d/"), re.compile(r"_\d$"))


def _lifted():
    """function_variables.lifted(): only while tracing (the graph machinery is loaded)."""
    from simdist.framework import function_variables

    return function_variables.lifted()


def _recorded_op_scope(variant):
    """func_graph.recorded_op_scope: only for a merge made inside a recorded op (traced)."""
    from simdist.framework import func_graph

    return func_graph.recorded_op_scope(variant)


def _canonical_name(name) -> str:
    return _UNIQUIFIED[1].sub("", _UNIQUIFIED[0].sub("/", name.rstrip("/")))


def _replica_variable_creator(next_creator, **kwargs):
    """Variables created inside ``run``: every replica asks, one MirroredVariable is made.

    The creation is a merge_call, so all replicas pause and the strategy builds the copies
    once from replica 0's arguments; every replica gets the same variable, as in TF.

    Raises:
      RuntimeError: a replica asked for a variable of another name than replica 0's
        (TF's shared_variable_creator finds no variable of that name to reuse).
    """

    # The copies are made in the merge (another thread): the name is resolved here, in
    # the replica's name scopes, and passed on as absolute.
    kwargs["name"] = name_scope.variable_name(kwargs.get("name")) + "/"

    def merge_fn(strategy, kw):
        first = select_replica(0, kw)
        for i in range(1, strategy.num_replicas_in_sync):
            name = select_replica(i, kw)["name"]
            if _canonical_name(name) != _canonical_name(first["name"]):
                raise RuntimeError(
                    f"Tried to create variable {name[:-1]} with mismatching name on device {i}: "
                    f"replica 0 created {first['name'][:-1]}. Every replica must create the "
                    "same variables, in the same order, under the same names.")
        # Inside a trace the copies are made outside the graph, as TF's Keras and
        # create_mirrored_variable lift them (init_scope): an initializer runs eagerly. (An
        # initial value the trace computed cannot be lifted: simdist runs that eagerly.)
        lift = _lifted() if op_recording.current() is not None and \
            not op_recording.is_symbolic(first.get("initial_value")) else contextlib.nullcontext()
        with lift:
            return strategy.extended._create_variable(variables.default_variable_creator,
                                                      **first)

    return ds_context.get_replica_context().merge_call(merge_fn, args=(kwargs,))


class MirroredReplicaContext:
    """Mixin for ReplicaContexts run by :func:`call_for_each_replica`: merge_call pauses."""

    # (graph, nested tf.functions, control-flow bodies) where the one-replica fast path (no
    # thread) runs fn
    home = (None, 0, 0)

    def _check_merge_call_graph(self):
        """TF's check: the merge runs in the caller's graph, so a merge_call in a graph of
        the replica's own (a tf.function nested in the replica function, or a cond branch /
        loop body the replica function traces: TF's cond_v2 / while_v2 FuncGraphs) cannot
        be merged.

        Raises:
          RuntimeError: TF's message, with what to do instead.
        """
        thread = self._thread
        if thread is not None and threading.current_thread() is not thread:
            return
        graph, nested, bodies = self.home if thread is None else (thread.graph, 0, 0)
        current = op_recording.current()   # None also inside a recorded op's computation
        if current is not None and (current is not graph
                                    or op_recording.inlined_calls() > nested
                                    or op_recording.bodies() > bodies):
            raise RuntimeError(MERGE_CALL_IN_A_NEW_GRAPH)

    def _merge_call(self, merge_fn, args, kwargs):
        thread = self._thread
        if thread is None:
            # The one-replica fast path (no threads): as each replica thread does below,
            # the replica gets its own component of what merge_fn returned (a Tensor, not a
            # one-element Mirrored), as TF's select_replica.
            return select_replica(0, super()._merge_call(merge_fn, args, kwargs))
        if threading.current_thread() is not thread:
            return super()._merge_call(merge_fn, args, kwargs)
        return thread.pause_for_merge(merge_fn, args, kwargs)


_lifted_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # strategy -> {fn: lifted}


def lifted(strategy, fn, run_replicas):
    """TF's rewrite of ``strategy.run(tf.function(f))`` into ``tf.function(run(f))``: the
    tf.function's clone (same options) whose Python runs the replicas of ``f``, so each
    replica traces into one graph and merge_call can pause it. None when ``fn`` is not a
    tf.function, or is XLA-compiled and every device a GPU (collectives, no merge_call).

    ``run_replicas(python_function, args, kwargs)`` runs the replicas (kept weakly, as the
    cache is keyed by the strategy). ``fn``'s own tracing count stays 0, as in TF.
    """
    from simdist.framework.function import Function

    if not isinstance(fn, Function) or (
            fn._jit_compile and all(d.device_type == "GPU" for d in strategy.extended._devices)):
        return None
    per_strategy = _lifted_cache.setdefault(strategy, weakref.WeakKeyDictionary())
    wrapped = per_strategy.get(fn)
    if wrapped is None:
        python_function = fn._python_function_as_traced()
        run = weakref.WeakMethod(run_replicas)

        def wrapped_fn(*args, **kwargs):
            return run()(python_function, args, kwargs)

        wrapped = per_strategy[fn] = fn._clone(wrapped_fn)
    return wrapped


def call_for_each_replica(strategy, devices, make_context, fn, args, kwargs, merge=None):
    """Run ``fn`` once per device in lock-step threads; returns the regrouped results.
    ``merge(strategy, threads)`` runs the paused replicas' merge function (by default
    ``_merge``; a TPU replicated trace runs one thread for all replicas: tpu_replicate)."""
    merge = merge or _merge
    pool, kept = _pool_for(strategy, len(devices))
    threads = pool.threads
    for i, (t, dev) in enumerate(zip(threads, devices)):
        t.assign(make_context(i, dev), dev, fn, select_replica(i, args),
                 select_replica(i, kwargs))
    finished = False
    try:
        while True:
            for t in threads:
                t.should_run.set()
                _wait_for(t.has_paused, t)
                t.has_paused.clear()
                if t.exc is not None:
                    exc = t.exc
                    exc.add_note(f"(raised in replica {t.ctx._replica_index} on {t.device.name})")
                    raise exc
            done = [t.done or not t.is_alive() for t in threads]
            if all(done):
                finished = all(t.is_alive() for t in threads)
                break
            if any(done):
                raise RuntimeError(
                    "Some replicas made a different number of replica_context().merge_call() "
                    "calls: every replica must reach the same merge_call (e.g. the same "
                    "apply_gradients or all_reduce) the same number of times."
                )
            merge(strategy, threads)
        return regroup([t.result for t in threads])
    except BaseException as exc:
        _unwind(threads, exc)
        raise
    finally:
        for t in threads:
            t.result = t.ctx = t.exc = None
        if not (finished and kept) or pool.closed:
            pool._stop_threads()
        pool.busy.release()


def _unwind(threads, exc) -> None:
    """Abort every replica thread and join them within ABORT_GRACE_S, all told.

    A replica that caught the abort is named in a note on ``exc``; one still running after
    the grace period is abandoned with a warning (its next merge_call parks it).
    """
    for t in threads:
        t.abort = True  # -> ABORTED
        t.stopping = True  # the pool of a failed run ends with it
        t.should_run.set()
    deadline = time.monotonic() + ABORT_GRACE_S
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    for t in threads:
        where = f"replica {t.ctx._replica_index} on {t.device.name}"
        caught = t.aborts_caught - 1  # the first abort is the one that should unwind it
        if caught > 0:
            exc.add_note(
                f"({where} caught simdist's abort and called a collective again {caught} "
                "time(s): a bare `except:` or `except BaseException:` around a collective "
                "swallows it; catch Exception instead.)")
        if t.is_alive():
            t.abandoned = True
            message = (f"{where} was still running {ABORT_GRACE_S:g} s after the run "
                       "failed (it catches simdist's abort and keeps going); it is abandoned: "
                       "its next merge_call or collective parks its thread for good.")
            exc.add_note(f"({message})")
            warnings.warn(message, RuntimeWarning, stacklevel=3)


def _merge(strategy, threads):
    """Run the paused replicas' merge function once, in cross-replica context."""
    t0 = threads[0]
    _check_same_collective(threads)
    merge_args = regroup([t.merge_args for t in threads])
    merge_kwargs = regroup([t.merge_kwargs for t in threads])
    ds_context.push_mode(ds_context.cross_replica_mode(strategy))
    try:
        with contextlib.nullcontext() if t0.merge_in_op is None else \
                _recorded_op_scope(t0.merge_in_op), \
                contextlib.nullcontext() if t0.merge_scope is None or t0.graph is None else \
                t0.graph.name_scope(t0.merge_scope):
            result = t0.merge_fn(strategy, *merge_args, **merge_kwargs)
    except Exception as e:
        if t0.graph is not None:   # traced: TF's merge_call runs merge_fn by autograph's
            _in_user_code(e)       # tf_convert, which marks the error as raised in user code
        raise
    finally:
        ds_context.pop_mode()
    for i, t in enumerate(threads):
        t.merge_result = select_replica(i, result)


def _in_user_code(error) -> None:
    """Mark ``error`` as raised in code autograph ran (its ``ag_error_metadata``), so the
    traced function raises it as TF does: "in user code:" with TF's type for it (an
    IndexError: a StagingError), though no converted frame of the user's is on its way."""
    from simdist.autograph.impl import error_utils

    if getattr(error, "ag_error_metadata", None) is None:
        error.ag_error_metadata = error_utils.ErrorMetadata(f"{type(error).__name__}: {error}")


def _collective_name(merge_fn) -> str:
    """What a paused replica is calling: ``all_reduce(SUM)``, ``merge_call('fn')`` ..."""
    return getattr(merge_fn, "collective", None) or \
        f"merge_call({getattr(merge_fn, '__name__', merge_fn)!r})"


def _check_same_collective(threads):
    """Every replica must be paused at the same collective (all_reduce, all_gather ...).

    TF runs replica 0's merge function for all of them, so an all_reduce on one replica
    and an all_gather on another returns replica 0's result everywhere without a word.

    Raises:
      InvalidArgumentError: the replicas are at different collectives.
    """
    first = _collective_name(threads[0].merge_fn)
    for t in threads[1:]:
        other = _collective_name(t.merge_fn)
        tagged = getattr(threads[0].merge_fn, "collective", None) or \
            getattr(t.merge_fn, "collective", None)
        if tagged and other != first:
            raise errors.InvalidArgumentError(
                None, None,
                f"Replicas called different collectives at the same point: replica 0 called "
                f"{first}, replica {t.ctx._replica_index} called {other}. Every replica must "
                "make the same collective calls (all_reduce, all_gather, merge_call) in the "
                "same order; TensorFlow would run replica 0's call for all of them and "
                "return its result.")
