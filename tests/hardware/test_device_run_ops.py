"""``Device.run_ops`` (a batch of ops, one lock) gives what ``run_op`` per op gives: the
same clocks and the same trace events in the same order, whatever the
costs, precisions, slowdown and device kind."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from simdist.hardware.device import Device
from simdist.hardware.specs import SPECS

_ops = st.lists(st.tuples(st.sampled_from(["Add", "Mul", "Sqrt", "AssignAddVariableOp"]),
                          st.integers(0, 10**7), st.integers(0, 10**8), st.booleans()),
                max_size=20)


@settings(max_examples=40, deadline=None)
@given(ops=_ops, spec=st.sampled_from(["V100", "A100", "CPU"]),
       slowdown=st.sampled_from([1.0, 2.5]), start=st.floats(0, 1))
def test_run_ops_equals_run_op_one_by_one(ops, spec, slowdown, start):
    kind = "CPU" if spec == "CPU" else "GPU"
    batch, each = (Device(f"/job:localhost/replica:0/task:0/device:{kind}:0", SPECS[spec])
                   for _ in range(2))
    for d in (batch, each):
        d.clock, d.slowdown = start, slowdown
    batch.run_ops(ops)
    for op in ops:
        each.run_op(*op)
    assert batch.clock == each.clock
    fields = [[(e.name, e.cat, e.device, e.start, e.end, e.args) for e in d.trace.events]
              for d in (batch, each)]
    assert fields[0] == fields[1] and len(fields[0]) == len(ops)


@settings(max_examples=30, deadline=None)
@given(ops=_ops, spec=st.sampled_from(["V100", "CPU"]),
       slowdowns=st.lists(st.sampled_from([1.0, 2.5, 0.5]), min_size=1, max_size=4),
       start=st.floats(0, 1), specs=st.lists(st.sampled_from(["same", "copy", "A100"])))
@example(ops=[("Add", 10**6, 10**7, False)], spec="V100", slowdowns=[1.0, 1.0, 1.0],
         start=0.0, specs=["same", "copy", "A100"])
def test_run_ops_with_a_memo_equals_run_op_one_by_one(ops, spec, slowdowns, start, specs):
    """The same ops charged again with the caller's memo (their costs kept), the device
    slowed or sped up, or given other figures (another device's, or a copy of its own),
    between calls: still run_op's clocks and events, call after call."""
    kind = "CPU" if spec == "CPU" else "GPU"
    batch, each = (Device(f"/job:localhost/replica:0/task:0/device:{kind}:0", SPECS[spec])
                   for _ in range(2))
    for d in (batch, each):
        d.clock = start
    memo: list = []
    figures = {"same": SPECS[spec], "copy": SPECS[spec]._replace(), "A100": SPECS["A100"]}
    for i, slowdown in enumerate(slowdowns):
        batch.slowdown = each.slowdown = slowdown
        if i < len(specs):
            batch.spec = each.spec = figures[specs[i]]
        batch.run_ops(ops, memo)
        for op in ops:
            each.run_op(*op)
        assert batch.clock == each.clock
    fields = [[(e.name, e.cat, e.device, e.start, e.end, e.args) for e in d.trace.events]
              for d in (batch, each)]
    assert fields[0] == fields[1] and len(fields[0]) == len(ops) * len(slowdowns)
