"""gradient_plan._objects (a sweep's inputs and structure key) walks the records with its
per-object visit inlined for plain tensors: it gives what visiting every object gives."""

from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework import gradient_plan


def _objects_by_visit(records, targets, sources):
    """The walk with ``_visit`` for every object (before the inlining)."""
    objs, key, first = [], [], {}
    for group in (sources, targets):
        for o in group:
            gradient_plan._visit(o, objs, key, first)
    for rec in records:
        key.append(rec.type)
        key.append(len(rec.inputs))
        for o in rec.inputs:
            gradient_plan._visit(o, objs, key, first)
        for o in rec.outputs:
            gradient_plan._visit(o, objs, key, first)
        key.append(rec.attrs)
    return objs, key


_OPS = st.lists(st.sampled_from(["matmul", "add_w", "relu", "square", "mul_x", "sum"]),
                min_size=1, max_size=8)


@settings(max_examples=25, deadline=None)
@given(ops=_OPS, rows=st.integers(1, 3))
def test_the_inlined_walk_gives_the_visits_objects_and_key(ops, rows):
    w = tf.Variable(tf.ones([3, 3]))
    x = tf.constant([[float(i + j) for j in range(3)] for i in range(rows)])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x
        for op in ops:
            if op == "matmul":
                y = tf.matmul(y, w)
            elif op == "add_w":
                y = y + w[0]
            elif op == "relu":
                y = tf.nn.relu(y)
            elif op == "square":
                y = tf.square(y)
            elif op == "mul_x":
                y = y * x
            else:
                y = tf.reduce_sum(y, axis=-1, keepdims=True) + y
        target = tf.reduce_sum(y)
    records = tape._tape.records
    assert records
    got = gradient_plan._objects(records, [target], [w, x])
    want = _objects_by_visit(records, [target], [w, x])
    assert [id(o) for o in got[0]] == [id(o) for o in want[0]]
    assert got[1] == want[1]
