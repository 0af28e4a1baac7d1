"""The order in which TF's tape runs the gradient functions of the ops it recorded.

Glossary:
  usage count   -- how many taped ops on a path to the target read a tensor; an op is
                   ready when every output the backward pass uses has all its gradients.
  queue         -- TF pops the next op from the back of ``op_stack`` and inserts each op
                   that becomes ready at its front: breadth first from the target, so a
                   tensor's gradients arrive in the order of the distance of the ops that
                   give them, and its sum (an AddN, a concatenation of IndexedSlices) has
                   them in that order.
  gather read   -- simdist reads a variable (ReadVariableOp) and gathers the read (GatherV2
                   along axis 0) where TF gathers from the variable's handle in one op
                   (ResourceGather): the read runs at once after its gather, taking no
                   place in the queue.
The backward pass itself (backprop._backprop) runs the records in reverse; a tensor with
IndexedSlices among its gradients asks for this order (their concatenation shows it), and
eagerly one with three or more dense gradients (TF's AddN sums them left to right in this
order). Inside a tf.function TF sums them in another order (grappler's); simdist adds them
as they come there, in reverse record order, which matched TF's traced sum where recorded.

Mirrors tensorflow/c/eager/tape.h (PrepareBackprop, InitialStack, ComputeGradient).
"""

from __future__ import annotations


def _gather_read(rec, consumer) -> bool:
    """Whether ``rec`` is a variable's read that TF's ResourceGather ``consumer`` stands for."""
    return (rec.type == "ReadVariableOp" and consumer.type == "GatherV2"
            and consumer.attrs.get("axis") == 0)


def tape_order(records, target_ids, source_ids) -> dict:
    """``{id(record): position}``: when TF's tape runs each record's gradient (from 0)."""
    producer = {}
    for rec in records:
        for o in rec.outputs:
            producer[o._id] = rec
    # PrepareBackprop: the ops on a path to the targets and how often each tensor is read.
    usage, chosen, stack = {}, {}, list(target_ids)
    while stack:
        rec = producer.get(stack.pop())
        if rec is None or id(rec) in chosen:
            continue
        chosen[id(rec)] = rec
        for x in rec.inputs:
            xid = getattr(x, "_id", None)
            if xid in usage:
                usage[xid] += 1
            elif xid is not None:
                usage[xid] = 1
                if xid in producer and xid not in source_ids:
                    stack.append(xid)
    missing = {}
    for xid in usage:
        if xid in producer and xid not in source_ids:
            missing[id(producer[xid])] = missing.get(id(producer[xid]), 0) + 1
    # InitialStack: the ops no other op waits for (TF lists them in a hash map's order;
    # here in reverse record order, the target's op first).
    queue = [rec for rec in records if id(rec) in chosen and id(rec) not in missing]
    position = {}
    while queue:
        now = [queue.pop()]
        while now:   # an op, then at once the gather reads it made ready
            rec = now.pop()
            position[id(rec)] = len(position)
            for ready in _made_ready(rec, usage, missing, producer, source_ids):
                if _gather_read(ready, rec):
                    now.append(ready)
                else:
                    queue.insert(0, ready)   # tape.h: op_stack.insert(begin)
    return position


def _made_ready(rec, usage, missing, producer, source_ids):
    """The ops whose outputs' gradients are all in once ``rec``'s gradient ran, in the
    order of ``rec``'s inputs (each input's use counted off)."""
    ready = []
    for x in rec.inputs:
        xid = getattr(x, "_id", None)
        if xid not in usage:
            continue
        usage[xid] -= 1
        if usage[xid] or xid not in producer or xid in source_ids:
            continue
        op = producer[xid]
        missing[id(op)] -= 1
        if missing[id(op)] == 0:
            ready.append(op)
    return ready
