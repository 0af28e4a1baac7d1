"""The trace's event cap: past it, events are dropped with one warning that says how to
raise the cap, and the Chrome export's metadata (otherData) counts the dropped events."""

import json
import warnings

import pytest

import simdist as tf
from simdist.hardware.machine import get_machine
from simdist.hardware.trace import Trace, TraceEventsDroppedWarning


def _fill(trace, n):
    for i in range(n):
        trace.record(f"op{i}", "compute", "/job:localhost/replica:0/task:0/device:GPU:0",
                     float(i), i + 0.5)


def test_dropping_warns_once_and_says_how_to_raise_the_cap():
    trace = Trace(max_events=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _fill(trace, 10)
    dropped = [w for w in caught if issubclass(w.category, TraceEventsDroppedWarning)]
    assert len(dropped) == 1
    assert "max_events" in str(dropped[0].message) and "3 events" in str(dropped[0].message)
    assert len(trace) == 3 and trace.dropped == 7


def test_chrome_export_counts_dropped_events(tmp_path):
    trace = Trace(max_events=2)
    with pytest.warns(TraceEventsDroppedWarning):
        _fill(trace, 5)
    path = tmp_path / "trace.json"
    trace.save(str(path))
    saved = json.loads(path.read_text())
    assert saved["otherData"] == {"dropped_events": 3, "max_events": 2}
    assert sum(e["ph"] == "X" for e in saved["traceEvents"]) == 2
    trace.clear()
    assert trace.to_chrome()["otherData"]["dropped_events"] == 0


def test_a_full_trace_warns_again_after_clear():
    trace = Trace(max_events=1)
    for _ in range(2):
        with pytest.warns(TraceEventsDroppedWarning):
            _fill(trace, 3)
        trace.clear()


def test_nothing_dropped_nothing_said():
    trace = get_machine().trace
    trace.max_events = None
    with warnings.catch_warnings():
        warnings.simplefilter("error", TraceEventsDroppedWarning)
        for _ in range(3):
            tf.ones([4]) + 1.0
    assert trace.to_chrome()["otherData"]["dropped_events"] == 0 and len(trace) > 0
