"""Placing a replica's batch (input_lib._Placer): the leaves' fast paths and the trace
events of a host-to-device copy and of a transfer, recorded flat (Trace.record_events),
read back as Trace.record with keywords records them."""

import collections
import random

import numpy as np

import simdist as tf
from simdist.data import composite_rows, structure
from simdist.distribute import input_lib
from simdist.hardware import transfer
from simdist.hardware.machine import find_device, get_machine
from simdist.hardware.trace import Trace


def _flat_tuple_model(s):
    return type(s) is tuple and not any(isinstance(x, (tuple, dict)) for x in s)


def test_flat_tuple_is_a_tuple_of_leaves():
    """structure._flat_tuple on seeded random structures: tuples (plain, named, empty) of
    leaves, tuples, dicts, lists; lists and dicts themselves; leaves."""
    pair = collections.namedtuple("pair", "a b")
    rng = random.Random(5)
    leaves = [np.ones(2), tf.constant(1.0), 3, None, "s", [1, (2,)]]

    def item(depth):
        kind = rng.randrange(5 if depth < 2 else 1)
        if kind == 0:
            return rng.choice(leaves)
        parts = [item(depth + 1) for _ in range(rng.randrange(3))]
        return [tuple(parts), {"k": parts}, pair(*(parts + [None, None])[:2]), parts][kind - 1]

    for _ in range(3000):
        s = item(0)
        assert structure._flat_tuple(s) is _flat_tuple_model(s), s
    assert structure._flat_tuple(()) and structure._flat_tuple((1, np.ones(1)))
    assert not structure._flat_tuple(pair(1, 2)) and not structure._flat_tuple((1, (2,)))


def test_placed_dense_leaves_skip_the_composite_check(monkeypatch):
    """A NumPy array or Tensor row is placed as a Tensor on the device sharing its array
    (its bytes counted) without asking whether it is composite; a RaggedTensor still is."""
    dev = find_device("/gpu:1")
    asked = []
    is_composite = composite_rows.is_composite
    monkeypatch.setattr(composite_rows, "is_composite",
                        lambda v: asked.append(type(v)) or is_composite(v))
    array = np.arange(6, dtype=np.float32).reshape(3, 2)
    for leaf in (array, tf.constant(array)):
        placed, nbytes = input_lib._placed(leaf, dev)
        assert type(placed) is tf.Tensor and placed._device is dev and nbytes == 24
        assert np.array_equal(placed.numpy(), array)
    assert asked == []
    ragged = tf.RaggedTensor.from_row_splits(tf.constant([1.0, 2.0, 3.0]), [0, 1, 3])
    placed, nbytes = input_lib._placed(ragged, dev)
    assert asked == [tf.RaggedTensor] and placed.flat_values._device is dev
    assert nbytes == 12 + 3 * 8


def _items(event):
    return (event.name, event.cat, event.device, event.start, event.end,
            list(event.args.items()))


def _as_recorded(event):
    """``event`` recorded again by Trace.record with its args as keywords, read back."""
    trace = Trace()
    trace.record(event.name, event.cat, event.device, event.start, event.end, **event.args)
    return trace.events[0]


def test_copy_and_transfer_events_are_records_events():
    """A host-to-device copy (prefetched or not) and a transfer with and without extra
    args: each event as Trace.record keeps it (fields, args and their order)."""
    trace = get_machine().trace
    host, gpu = find_device("/cpu:0"), find_device("/gpu:1")
    for prefetch in (False, True):
        placer = input_lib._Placer([gpu], True, prefetch)
        placer._charge(0, gpu, 4096)
        event = trace.events[-1]
        assert [k for k in event.args] == ["bytes", "src", "prefetched"]
        assert event.args["prefetched"] is prefetch and event.args["src"] == host.name
        assert _items(_as_recorded(event)) == _items(event) and event.end == gpu.clock
    for args in ({}, {"what": "x"}):
        end = transfer.charge_transfer(gpu, host, 512, "Copy", **args)
        event = trace.events[-1]
        assert list(event.args) == ["src", "bytes", *args] and event.end == end
        assert (event.name, event.cat, event.device) == ("Copy", "transfer", host.name)
        assert _items(_as_recorded(event)) == _items(event)
