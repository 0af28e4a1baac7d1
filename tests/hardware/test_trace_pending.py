"""Pending trace events: an op's event is kept as a tuple until ``events`` is read, and
reading gives what recording Events directly gave (the same Events, order, cap, drops,
truncation), whether ops and events are recorded one by one or as a batch (``record_ops``,
``record_events``, ``record_columns``, ``record_steps``)."""

import gc
import warnings

from hypothesis import given, settings
from hypothesis import strategies as st

from simdist.hardware.trace import Event, Trace

GPU = "/job:localhost/replica:0/task:0/device:GPU:0"


class _Eager:
    """The trace before pending events: every record appends an Event at once."""

    def __init__(self, max_events):
        self.max_events, self.events, self.dropped = max_events, [], 0

    def record(self, name, cat, device, start, end, **args):
        if self.max_events is not None and len(self.events) >= self.max_events:
            self.dropped += 1
            return
        self.events.append(Event(name, cat, device, start, end, args))

    def record_op(self, name, device, start, end, flops, nbytes):
        self.record(name, "compute", device, start, end, flops=flops, bytes=nbytes)


def _fields(events):
    return [(e.name, e.cat, e.device, e.start, e.end, e.args) for e in events]


_actions = st.lists(st.one_of(
    st.tuples(st.just("op"), st.integers(0, 5), st.floats(0, 10), st.integers(0, 99)),
    st.tuples(st.just("record"), st.integers(0, 5), st.floats(0, 10), st.integers(0, 99)),
    st.tuples(st.just("ops"), st.integers(0, 5), st.floats(0, 10), st.integers(0, 4)),
    st.tuples(st.just("events"), st.integers(0, 5), st.floats(0, 10), st.integers(0, 4)),
    st.tuples(st.just("columns"), st.integers(0, 5), st.floats(0, 10), st.integers(0, 4)),
    st.tuples(st.just("steps"), st.integers(0, 5), st.floats(0, 10), st.integers(0, 3)),
    st.tuples(st.just("read")),
    st.tuples(st.just("len")),
    st.tuples(st.just("clear")),
    st.tuples(st.just("truncate"), st.integers(0, 15)),
), max_size=40)


@settings(max_examples=60, deadline=None)
@given(actions=_actions, cap=st.one_of(st.none(), st.integers(0, 12)))
def test_reading_a_trace_gives_the_events_recording_them_at_once_gave(actions, cap):
    trace, eager = Trace(max_events=cap), _Eager(cap)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for action in actions:
            if action[0] == "op":
                _, i, t, n = action
                for tr in (trace, eager):
                    tr.record_op(f"Op{i}", GPU, t, t + 1.0, n, 4 * n)
            elif action[0] == "ops":   # record_ops: a batch, as record_op one by one
                _, i, t, k = action
                batch = [(f"Op{i}.{j}", GPU, t + j, t + j + 1.0, j, 4 * j) for j in range(k)]
                trace.record_ops(batch)
                for event in batch:
                    eager.record_op(*event)
            elif action[0] == "columns":   # record_columns: as record_op one by one
                _, i, t, k = action
                names, starts = [f"Col{i}.{j}" for j in range(k)], [t + j for j in range(k + 1)]
                flops, nbytes = list(range(k)), [4 * j for j in range(k)]
                trace.record_columns(names, GPU, starts, flops, nbytes)
                for j in range(k):
                    eager.record_op(names[j], GPU, starts[j], starts[j + 1], flops[j], nbytes[j])
            elif action[0] == "events":   # record_events: a batch, as record one by one
                _, i, t, k = action
                batch = [(f"Copy{i}.{j}", "transfer", GPU, t + j, t + j + 2.0,
                          *(() if j % 2 else ("bytes", j, "src", "host"))) for j in range(k)]
                trace.record_events(batch)
                for e in batch:
                    eager.record(*e[:5], **dict(zip(e[5::2], e[6::2])))
            elif action[0] == "steps":   # record_steps: step j's events after step j-1's
                _, i, t, k = action
                template = tuple((0.5 + j, tuple((f"Step{i}.{j}.{e}", "transfer", GPU, 0.25 * e,
                                                  ("step", j) if e else ()) for e in range(j + 1)))
                                 for j in range(k))
                n = sum(len(events) for _, events in template)
                trace.record_steps(template, t, n)
                t0 = t
                for step_time, events in template:
                    for name, cat, device, duration, args in events:
                        eager.record(name, cat, device, t0, t0 + duration,
                                     **dict(zip(args[::2], args[1::2])))
                    t0 += step_time
            elif action[0] == "record":
                _, i, t, n = action
                for tr in (trace, eager):
                    args = {} if n % 3 == 0 else {"bytes": n, "src": "host"}
                    tr.record(f"Copy{i}", "transfer", GPU, t, t + 2.0, **args)
            elif action[0] == "read":
                assert _fields(trace.events) == _fields(eager.events)
            elif action[0] == "len":
                assert len(trace) == len(eager.events)
            elif action[0] == "truncate":
                trace.truncate(action[1])
                del eager.events[action[1]:]
            else:
                trace.clear()
                eager.events, eager.dropped = [], 0
    assert _fields(trace.events) == _fields(eager.events)
    assert trace.dropped == eager.dropped
    assert all(type(e) is Event for e in trace.events)


def test_a_pending_event_leaves_the_garbage_collector_alone():
    trace = Trace()
    trace.record_op("MatMul", GPU, 0.0, 1.0, 128, 512)
    trace.record("Copy", "transfer", GPU, 1.0, 2.0, src="host", bytes=64)
    gc.collect()
    assert not any(gc.is_tracked(e) for e in trace._pending)   # no Event, no args dict
    # A collective's steps: nested tuples of numbers and strings, which the collector
    # untracks (one level of nesting per collection).
    trace.record_steps(((1.0, (("Send", "transfer", GPU, 0.5, ("bytes", 8)),)),), 2.0, 1)
    assert _untrackable(trace._pending[-1])
    op, copy, send = trace.events
    assert (send.start, send.end, send.args) == (2.0, 2.5, {"bytes": 8})
    assert (op.name, op.cat, op.args) == ("MatMul", "compute", {"flops": 128, "bytes": 512})
    assert (copy.name, copy.cat, copy.args) == ("Copy", "transfer", {"src": "host", "bytes": 64})
    assert list(copy.args) == ["src", "bytes"]   # the keywords' order


def _untrackable(value) -> bool:
    if type(value) is tuple:
        return all(_untrackable(v) for v in value)
    return type(value) in (str, int, float, bool, object)


def test_events_set_replaces_the_pending_ones():
    trace = Trace()
    trace.record_op("Add", GPU, 0.0, 1.0, 1, 2)
    kept = [Event("Mul", "compute", GPU, 1.0, 2.0)]
    trace.events = kept
    assert trace.events is kept and len(trace) == 1
