"""The trace: what every simulated device did, and when, in simulated time.

Glossary:
  Event        -- one span on one device: ``name``, ``cat`` (``compute``, ``transfer``,
                  ``collective``, ``input``), ``device``, ``start`` and ``end`` in simulated
                  seconds, and free-form ``args`` (bytes, flops, step ...).
  Trace        -- the list of events; ``to_chrome()`` gives Chrome trace JSON that Perfetto
                  and chrome://tracing open (one process per host, one thread per device,
                  both numbered and sort-indexed in device order).
  max_events   -- the cap that keeps memory bounded (1,000,000 by default); events past it
                  are dropped and counted in ``dropped``: the first drop warns once (a
                  TraceEventsDroppedWarning saying how to raise the cap) and the Chrome
                  export's metadata (``otherData``) says how many were dropped.
  pending      -- events recorded but not read yet, each kept as a plain tuple of its fields
                  (an op's, ``record_op``: every op of the eager path and of a replay, six
                  fields; any other, ``record``: five and its args' keys and values in
                  turn, an odd number) that becomes an ``Event`` when ``events`` is first
                  read after it. A tuple of numbers and strings is cheaper to make than an
                  Event and its args dict, and the cyclic garbage collector stops tracking
                  it at its first pass: a run of many ops no longer fills the collector's
                  oldest generation with events (whose full collections cost a fifth of a
                  replayed training loop). A run of ops on one device charged at once
                  (``record_columns``: a replayed program's) is one pending entry, its
                  columns, until read: a plain tuple too, ``(COLUMNS, n, names, device,
                  starts, flops, nbytes)``, untracked as soon as its columns are tuples
                  (``Device.run_ops`` passes tuples; an object per entry stayed tracked, and
                  its growth set off a full collection, ~0.3 s, in seed 001's loop). A
                  collective's steps (``record_steps``: a template of events relative to
                  the call's start, kept with its price) are one entry too, ``(STEPS, n,
                  template, start)``, laid out at ``start`` when read. What ``events``
                  gives is the same list of Events in the same order.
"""

from __future__ import annotations

import itertools
import re
import threading
import warnings


class TraceEventsDroppedWarning(RuntimeWarning):
    """The trace reached ``max_events``: later events are counted, not kept."""


def _host(device: str) -> str:
    return device.rpartition("/device:")[0] or "host"


def device_sort_key(name: str) -> tuple:
    """Device order: numbers compared as numbers (``task:2`` < ``task:10``, ``GPU:9`` <
    ``GPU:10``), the rest as text."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", name) if part)


class Event:
    """One span of simulated time on one device."""

    __slots__ = ("name", "cat", "device", "start", "end", "args")

    def __init__(self, name, cat, device, start, end, args=None):
        self.name, self.cat, self.device = name, cat, device
        self.start, self.end = start, end
        self.args = {} if args is None else args

    def __repr__(self):
        return (f"Event({self.name!r}, {self.cat!r}, {self.device!r}, {self.start}, "
                f"{self.end}, {self.args!r})")

    @property
    def duration(self) -> float:
        return self.end - self.start


# The first field of a pending entry of columns (Trace.record_columns): (COLUMNS, n, names,
# device, starts, flops, nbytes). Not a GC type, so the tuple can be untracked.
COLUMNS = object()
# The first field of a pending entry of a collective's steps (Trace.record_steps).
STEPS = object()


def steps_events(template, start) -> list:
    """The ``record_events`` tuples of ``template`` laid out from ``start``: ``template`` is
    ``((step time, ((name, cat, device, duration, args), ...)), ...)``; each step's events
    start at the step's start and last their durations, the next step starts when this one
    ends (``args``: keys and values in turn)."""
    t0 = float(start)
    batch = []
    for step_time, events in template:
        for name, cat, device, duration, args in events:
            batch.append((name, cat, device, t0, t0 + duration, *args))
        t0 += step_time
    return batch


def _event(fields) -> Event:
    """The Event of a ``record_events`` tuple (name, cat, device, start, end, then the
    args' keys and values in turn)."""
    return Event(fields[0], fields[1], fields[2], fields[3], fields[4],
                 dict(zip(fields[5::2], fields[6::2])))


class Trace:
    """An append-only, thread-safe list of events."""

    def __init__(self, enabled: bool = True, max_events: int | None = 1_000_000):
        self.enabled = enabled
        self.max_events = max_events
        self._events: list[Event] = []   # read: made Events
        self._pending: list = []         # recorded since the last read: tuples (see above)
        self._extra = 0                  # events of columns entries beyond one each
        self.dropped = 0
        self._lock = threading.Lock()

    @property
    def events(self) -> list[Event]:
        """Every event kept, in recording order (the pending ones made Events now)."""
        if self._pending:
            self._flush()
        return self._events

    @events.setter
    def events(self, events: list) -> None:
        with self._lock:
            self._pending.clear()
            self._extra = 0
            self._events = events

    def _flush(self) -> None:
        with self._lock:   # one reader at a time; recorders append meanwhile (kept pending)
            pending = self._pending
            n = len(pending)
            batch = pending[:n]
            del pending[:n]
            events = self._events
            for e in batch:
                if e[0] is COLUMNS:
                    _, n, names, device, starts, flops, nbytes = e
                    self._extra -= n - 1
                    events.extend(
                        Event(name, "compute", device, start, end,
                              {"flops": f, "bytes": b})
                        for name, start, end, f, b in zip(
                            names, starts, itertools.islice(starts, 1, None), flops, nbytes))
                elif e[0] is STEPS:
                    self._extra -= e[1] - 1
                    events.extend(map(_event, steps_events(e[2], e[3])))
                elif len(e) == 6:
                    events.append(Event(e[0], "compute", e[1], e[2], e[3],
                                        {"flops": e[4], "bytes": e[5]}))
                else:
                    events.append(_event(e))

    def record(self, name, cat, device, start, end, **args) -> None:
        """Append an event (dropped, and counted, past ``max_events`` so memory stays bounded)."""
        if not self.enabled:
            return
        # list.append is atomic, and replicas run one at a time: no lock on this hot path.
        if self.max_events is not None and \
                len(self._events) + len(self._pending) + self._extra >= self.max_events:
            self.dropped += 1
            if self.dropped == 1:
                self._warn_dropping()
            return
        self._pending.append((name, cat, device if isinstance(device, str) else str(device),
                              start, end, *itertools.chain.from_iterable(args.items())))

    def record_op(self, name, device: str, start, end, flops, nbytes) -> None:
        """:meth:`record` of one eager op (``compute``, args ``flops`` and ``bytes``): the
        same event, kept pending as a tuple (see the module docstring; every op of the
        eager path records one)."""
        pending = self._pending
        if self.max_events is not None and \
                len(self._events) + len(pending) + self._extra >= self.max_events:
            self.record(name, "compute", device, start, end, flops=flops, bytes=nbytes)
            return
        pending.append((name, device, start, end, flops, nbytes))

    def record_ops(self, events) -> None:
        """:meth:`record_op` of each ``(name, device, start, end, flops, nbytes)`` of
        ``events`` in turn (one list extension while the cap leaves room for all)."""
        pending = self._pending
        if self.max_events is not None and \
                len(self._events) + len(pending) + self._extra + len(events) > self.max_events:
            for event in events:
                self.record_op(*event)
            return
        pending.extend(events)

    def record_columns(self, names, device: str, starts, flops, nbytes) -> None:
        """:meth:`record_ops` of op i: ``names[i]`` on ``device`` from ``starts[i]`` to
        ``starts[i + 1]``, ``flops[i]``, ``nbytes[i]`` (one pending entry; the sequences
        are kept as they are: the caller makes no change to them; tuples let the collector
        untrack the entry)."""
        n = len(names)
        if not n:
            return
        if self.max_events is not None and \
                len(self._events) + len(self._pending) + self._extra + n > self.max_events:
            self.record_ops(list(zip(names, itertools.repeat(device), starts,
                                     itertools.islice(starts, 1, None), flops, nbytes)))
            return
        self._extra += n - 1
        self._pending.append((COLUMNS, n, names, device, starts, flops, nbytes))

    def record_events(self, events) -> None:
        """:meth:`record` of each ``(name, cat, device, start, end, k1, v1, k2, v2, ...)``
        of ``events`` in turn (``device`` a str; one list extension while the cap leaves
        room for all)."""
        if not self.enabled:
            return
        pending = self._pending
        if self.max_events is not None and \
                len(self._events) + len(pending) + self._extra + len(events) > self.max_events:
            for e in events:
                self.record(*e[:5], **dict(zip(e[5::2], e[6::2])))
            return
        pending.extend(events)

    def record_steps(self, template, start, n: int) -> None:
        """:meth:`record_events` of ``steps_events(template, start)`` (``n`` events): one
        pending entry, laid out when read (``template`` is kept as it is: tuples)."""
        if not self.enabled or not n:
            return
        if self.max_events is not None and \
                len(self._events) + len(self._pending) + self._extra + n > self.max_events:
            self.record_events(steps_events(template, start))
            return
        self._extra += n - 1
        self._pending.append((STEPS, n, template, start))

    def _warn_dropping(self) -> None:
        warnings.warn(
            f"The trace is full ({self.max_events:,} events): later events are dropped "
            "(counted in trace.dropped and in the Chrome export's metadata). Raise the cap "
            "with get_machine().trace.max_events = N (None: no cap), or call "
            "trace.clear() / reset_clocks() between the steps you want to see.",
            TraceEventsDroppedWarning, stacklevel=4)

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` events only. Pending events past ``n`` are dropped as they
        are (the end of a columns entry cut off): none is made an Event, so a trace
        put back after a dry run (``distribute_graph._world_kept``) costs what it dropped,
        not what was recorded before."""
        with self._lock:
            pending = self._pending
            total = len(self._events) + len(pending) + self._extra
            while total > n and pending:
                e = pending[-1]
                size = e[1] if e[0] is COLUMNS or e[0] is STEPS else 1
                keep = max(size - (total - n), 0)
                total -= size - keep
                if size > 1:
                    self._extra -= size - max(keep, 1)
                if keep and e[0] is STEPS:   # its first events, each a pending tuple
                    pending.pop()
                    self._extra -= keep - 1
                    pending.extend(steps_events(e[2], e[3])[:keep])
                elif keep:
                    _, _, names, device, starts, flops, nbytes = e
                    pending[-1] = (COLUMNS, keep, names[:keep], device, starts[:keep + 1],
                                   flops[:keep], nbytes[:keep])
                else:
                    pending.pop()
            if total > n:
                del self._events[n:]

    def clear(self) -> None:
        with self._lock:
            self._pending.clear()
            self._extra = 0
            self._events.clear()
            self.dropped = 0

    def filter(self, cat: str | None = None, device: str | None = None) -> list[Event]:
        """Events of one category and/or one device."""
        return [
            e
            for e in self.events
            if (cat is None or e.cat == cat) and (device is None or e.device == device)
        ]

    def __len__(self) -> int:
        return len(self._events) + len(self._pending) + self._extra

    def to_chrome(self) -> dict:
        """Chrome trace JSON (``traceEvents``, microseconds), as Perfetto opens it: hosts
        and their devices numbered, and sort-indexed, in device order (``GPU:2`` before
        ``GPU:10``), whatever order the devices first did something in."""
        devices = sorted({e.device for e in self.events}, key=device_sort_key)
        hosts = sorted({_host(d) for d in devices}, key=device_sort_key)
        pids = {h: i for i, h in enumerate(hosts)}
        tids = {d: i for i, d in enumerate(devices)}
        out = [
            {
                "name": e.name,
                "cat": e.cat,
                "ph": "X",
                "ts": e.start * 1e6,
                "dur": max(e.duration, 0.0) * 1e6,
                "pid": pids[_host(e.device)],
                "tid": tids[e.device],
                "args": _jsonable(e.args),
            }
            for e in self.events
        ]
        meta = []
        for h, p in pids.items():
            meta.append({"name": "process_name", "ph": "M", "pid": p, "args": {"name": h}})
            meta.append({"name": "process_sort_index", "ph": "M", "pid": p,
                         "args": {"sort_index": p}})
        for dev, t in tids.items():
            p = pids[_host(dev)]
            meta.append({"name": "thread_name", "ph": "M", "pid": p, "tid": t,
                         "args": {"name": dev.rpartition("/")[2] or dev}})
            meta.append({"name": "thread_sort_index", "ph": "M", "pid": p, "tid": t,
                         "args": {"sort_index": t}})
        return {"traceEvents": meta + out, "displayTimeUnit": "ms",
                # The Trace Event Format's metadata: the viewer lists otherData there.
                "otherData": {"dropped_events": self.dropped, "max_events": self.max_events}}

    def save(self, path: str) -> None:
        """Write the Chrome trace JSON to ``path``."""
        import json  # only here: ``import simdist`` leaves json out

        with open(path, "w") as f:
            json.dump(self.to_chrome(), f)


def _jsonable(args: dict) -> dict:
    return {k: (v if isinstance(v, (int, float, str, bool, type(None))) else str(v))
            for k, v in args.items()}
