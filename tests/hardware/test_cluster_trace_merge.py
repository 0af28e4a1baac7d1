"""Per-worker traces and their merge (hardware.cluster_trace), without processes."""

import pytest

from simdist.hardware import cluster_trace
from simdist.hardware.trace import Trace

W0, W1 = "/job:worker/replica:0/task:0", "/job:worker/replica:0/task:1"


def _trace():
    t = Trace()
    t.record("MatMul", "compute", f"{W0}/device:CPU:0", 0.0, 1.0)
    t.record("MatMul", "compute", f"{W1}/device:CPU:0", 0.0, 2.0)
    t.record("all_reduce/ring step 0", "collective", "collective", 2.0, 3.0)
    t.record("reduce-scatter 1->0", "transfer", f"{W1}/device:CPU:0", 2.0, 3.0)
    return t


def test_a_worker_trace_keeps_its_devices_and_the_collective_steps():
    mine = cluster_trace.worker_trace(_trace(), W1)
    assert [e.name for e in mine.events] == ["MatMul", "all_reduce/ring step 0",
                                             "reduce-scatter 1->0"]

    t = _trace()
    t.record("Add", "compute", f"{W1}0/device:CPU:0", 0.0, 1.0)  # task:10 is not task:1
    assert "Add" not in [e.name for e in cluster_trace.worker_trace(t, W1).events]


def test_merge_gives_each_worker_its_own_rows(tmp_path):
    paths = [cluster_trace.write_worker_trace(_trace(), w, str(tmp_path)) for w in (W0, W1)]
    assert [p.rsplit("/", 1)[1] for p in paths] == ["worker-0.trace.json",
                                                   "worker-1.trace.json"]
    merged = cluster_trace.merge_trace_files(paths, str(tmp_path / "all.json"), timeout=1)
    names = {e["pid"]: e["args"]["name"] for e in merged["traceEvents"]
             if e["name"] == "process_name"}
    assert sorted(names.values()) == sorted([W0, W1, f"{W0} host", f"{W1} host"])
    spans = [(names[e["pid"]], e["name"]) for e in merged["traceEvents"] if e["ph"] == "X"]
    assert (W1, "reduce-scatter 1->0") in spans and (W0, "reduce-scatter 1->0") not in spans
    assert len(spans) == 2 + 3
    assert (tmp_path / "all.json").exists()


def test_a_missing_worker_trace_is_named_within_the_timeout(tmp_path):
    with pytest.raises(TimeoutError, match="worker-1.trace.json"):
        cluster_trace.merge_trace_files([str(tmp_path / "worker-1.trace.json")], timeout=0.2)
