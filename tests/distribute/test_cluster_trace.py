"""Each worker of a cluster of processes writes its own trace; the chief merges them.

custom_loop.py runs as 2 processes with SIMDIST_TRACE_DIR (each writes worker-<i>.trace.json
at exit) and MERGE_TRACE (the chief merges them while the others exit), and once as the
simulated cluster (SIM_TRACE: the one trace of every worker, to compare with).
"""

import collections
import json

import pytest
from cluster_processes import cluster_config, run_cluster
from test_process_cluster import _ok, _simulated

pytestmark = pytest.mark.timeout(120)

HOSTS = ["/job:worker/replica:0/task:0", "/job:worker/replica:0/task:1"]


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("traces")
    cluster = cluster_config(2)
    _ok(run_cluster("custom_loop.py", cluster=cluster, env={
        "SIMDIST_TRACE_DIR": str(tmp), "MERGE_TRACE": str(tmp / "merged.json")}))
    _simulated("custom_loop.py", cluster, {"SIM_TRACE": str(tmp / "sim.json")})
    return {name: json.loads((tmp / f"{name}.json").read_text()) for name in
            ("worker-0.trace", "worker-1.trace", "merged", "sim")}


def _spans(chrome):
    """(name, cat, device) of every span, the device named from the metadata rows."""
    procs = {e["pid"]: e["args"]["name"] for e in chrome["traceEvents"]
             if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in chrome["traceEvents"]
               if e["ph"] == "M" and e["name"] == "thread_name"}
    return [(e["name"], e["cat"], procs[e["pid"]], threads[e["pid"], e["tid"]])
            for e in chrome["traceEvents"] if e["ph"] == "X"]


def test_each_worker_traces_only_its_own_devices(traces):
    for w, host in enumerate(HOSTS):
        spans = _spans(traces[f"worker-{w}.trace"])
        # Its host's devices, and the collective steps' row (process "host").
        assert spans and {p for _, _, p, _ in spans} == {host, "host"}
        cats = collections.Counter(c for _, c, _, _ in spans)
        assert cats["compute"] > 0 and cats["transfer"] > 0 and cats["collective"] > 0
        # The chief's broadcast of initial values: it sends, worker 1 only receives.
        sends = {n for n, c, _, _ in spans if c == "transfer" and n.startswith("broadcast")}
        assert bool(sends) == (w == 0)


def test_a_workers_transfers_are_its_part_of_the_simulated_clusters(traces):
    # The same schedules in both modes: every collective send of a worker is one the
    # simulated cluster traces on that worker's device. (Plain copies differ: one process
    # also copies a variable's primary value to the other hosts' components.)
    sim = [s for s in _spans(traces["sim"]) if s[1] == "transfer" and s[0] != "Copy"]
    for w, host in enumerate(HOSTS):
        mine = [s for s in _spans(traces[f"worker-{w}.trace"])
                if s[1] == "transfer" and s[0] != "Copy"]
        assert collections.Counter(mine) == collections.Counter(s for s in sim if s[2] == host)


def test_the_merged_trace_has_one_row_group_per_worker(traces):
    merged = traces["merged"]
    assert merged["otherData"]["workers"] == HOSTS
    names = sorted(e["args"]["name"] for e in merged["traceEvents"]
                   if e["ph"] == "M" and e["name"] == "process_name")
    assert names == sorted(HOSTS + [f"{h} host" for h in HOSTS])
    pids = [e["pid"] for e in merged["traceEvents"] if e["name"] == "process_name"]
    assert len(set(pids)) == len(pids) == 4
    spans = _spans(merged)
    assert collections.Counter(spans) == collections.Counter(
        [s for w in range(2) for s in _relabel(traces[f"worker-{w}.trace"], HOSTS[w])])


def _relabel(chrome, host):
    return [(n, c, p if p == host else f"{host} {p}", t) for n, c, p, t in _spans(chrome)]
