"""Traces of a cluster of processes: each worker writes its own, the chief merges them.

Glossary:
  worker trace  -- the events of one worker's own devices (``/job:worker/replica:0/task:1``
                   and below) and the collective steps it took part in, as Chrome trace
                   JSON; written to ``SIMDIST_TRACE_DIR`` when the process exits (atomically:
                   a reader never sees half a file).
  merged trace  -- one Chrome trace of every worker: each worker's processes (hosts) keep
                   their rows, renumbered so no two workers share a ``pid``, named after
                   the worker and sorted in task order, so Perfetto shows one row group per
                   worker on one simulated time axis.

TF writes one profile per host (tensorflow/python/profiler) and TensorBoard's profile
plugin shows the hosts side by side; this is the Chrome-trace counterpart.
"""

from __future__ import annotations

import json
import os
import time

from simdist.hardware.trace import Trace

TRACE_DIR_ENV = "SIMDIST_TRACE_DIR"
COLLECTIVE_ROW = "collective"  # the pseudo-device the collective steps are recorded on


def worker_trace(trace: Trace, host: str) -> Trace:
    """The events of ``host``'s devices and the collective steps, as a new Trace."""
    out = Trace(max_events=None)
    prefix = host.rstrip("/") + "/"
    out.events = [e for e in trace.events
                  if e.device.startswith(prefix) or e.device == COLLECTIVE_ROW]
    return out


def trace_path(directory: str, host: str) -> str:
    """Where worker ``host`` (``/job:worker/replica:0/task:1``) writes its trace."""
    job = host.split("/job:")[1].split("/")[0]
    task = host.rsplit("/task:", 1)[1]
    return os.path.join(directory, f"{job}-{task}.trace.json")


def write_worker_trace(trace: Trace, host: str, directory: str) -> str:
    """Write ``host``'s part of ``trace`` to its file in ``directory``; returns the path."""
    os.makedirs(directory, exist_ok=True)
    path = trace_path(directory, host)
    chrome = worker_trace(trace, host).to_chrome()
    chrome["otherData"] = {"worker": host}
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(chrome, f)
    os.replace(tmp, path)
    return path


def merge_chrome(traces: list[dict]) -> dict:
    """One Chrome trace from several workers' (each names its worker in ``otherData``)."""
    events, meta = [], []
    next_pid = 0
    for order, chrome in enumerate(traces):
        worker = chrome.get("otherData", {}).get("worker", f"worker {order}")
        pids: dict[int, int] = {}
        for e in chrome["traceEvents"]:
            e = dict(e)
            if e["pid"] not in pids:
                pids[e["pid"]] = next_pid
                next_pid += 1
            e["pid"] = pids[e["pid"]]
            if e.get("ph") == "M" and e["name"] == "process_sort_index":
                continue                       # the worker's own order: re-set below
            if e.get("ph") == "M" and e["name"] == "process_name":
                host = e["args"]["name"]
                # The collective row is per worker: say whose it is.
                e["args"] = {"name": host if host.startswith(worker) else f"{worker} {host}"}
            (meta if e.get("ph") == "M" else events).append(e)
        meta += [{"name": "process_sort_index", "ph": "M", "pid": p,
                  "args": {"sort_index": p}} for p in pids.values()]
    return {"traceEvents": meta + events, "displayTimeUnit": "ms",
            "otherData": {"workers": [t.get("otherData", {}).get("worker") for t in traces]}}


def merge_trace_files(paths, out_path: str | None = None, timeout: float = 30.0) -> dict:
    """Merge the workers' trace files (waiting at most ``timeout`` s for each to appear).

    Raises:
      TimeoutError: a worker's file did not appear in time (it did not exit, or crashed).
    """
    deadline = time.monotonic() + timeout
    traces = []
    for path in paths:
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{path} did not appear within {timeout:g} s: that "
                                   "worker has not exited yet (or died before writing).")
            time.sleep(0.05)
        with open(path) as f:
            traces.append(json.load(f))
    merged = merge_chrome(traces)
    if out_path:
        with open(out_path, "w") as f:
            json.dump(merged, f)
    return merged
