"""The exported Chrome trace lists hosts and devices in device order, as Perfetto shows
them: it sorts processes by ``process_sort_index`` and threads by ``thread_sort_index``
(metadata events), then by pid / tid."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from simdist.hardware.trace import Trace

HOSTS = ["/job:worker/replica:0/task:2", "/job:worker/replica:0/task:10"]
DEVICES = [f"{h}/device:{kind}:{i}" for h in HOSTS for kind, i in
           [("CPU", 0)] + [("GPU", i) for i in (0, 1, 2, 9, 10)]]


def perfetto_order(chrome: dict) -> list[str]:
    """Thread names (host-qualified) in the order Perfetto's track list shows them."""
    meta = [e for e in chrome["traceEvents"] if e["ph"] == "M"]
    pname = {e["pid"]: e["args"]["name"] for e in meta if e["name"] == "process_name"}
    psort = {e["pid"]: e["args"]["sort_index"] for e in meta
             if e["name"] == "process_sort_index"}
    tname = {(e["pid"], e["tid"]): e["args"]["name"] for e in meta
             if e["name"] == "thread_name"}
    tsort = {(e["pid"], e["tid"]): e["args"]["sort_index"] for e in meta
             if e["name"] == "thread_sort_index"}
    keys = sorted(tname, key=lambda k: (psort[k[0]], k[0], tsort[k], k[1]))
    return [f"{pname[p]}/{tname[p, t]}" for p, t in keys]


@settings(max_examples=25, deadline=None)
@given(st.permutations(DEVICES))
def test_devices_are_listed_in_device_order_whatever_ran_first(order):
    trace = Trace()
    for i, dev in enumerate(order):
        trace.record(f"op{i}", "compute", dev, i * 1e-6, (i + 1) * 1e-6)
    chrome = json.loads(json.dumps(trace.to_chrome()))       # the file as written
    assert perfetto_order(chrome) == DEVICES                 # task:2 before task:10, GPU:9
    # every span sits on its own device's track                # before GPU:10
    names = {(e["pid"], e["tid"]): e for e in chrome["traceEvents"]
             if e["name"] == "thread_name"}
    pnames = {e["pid"]: e["args"]["name"] for e in chrome["traceEvents"]
              if e["name"] == "process_name"}
    for e in chrome["traceEvents"]:
        if e["ph"] == "X":
            dev = order[int(e["name"][2:])]
            assert f"{pnames[e['pid']]}/{names[e['pid'], e['tid']]['args']['name']}" == dev
