"""Tensors made at once (framework/tensor.py ``made``: a stacked commit's result tensors)
are the tensors ``Tensor`` makes one by one: the same values, read-only arrays, ids drawn
in turn, memory in use and peak -- and where they do not all fit, the same error, raised
by the same tensor, with the same accounting left."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simdist import errors
from simdist.framework import tensor as tensor_lib
from simdist.framework.tensor import Tensor
from simdist.hardware.device import Device
from simdist.hardware.specs import SPECS


def _device(limit):
    return Device("/job:localhost/replica:0/task:0/device:GPU:0", SPECS["V100"],
                  memory_bytes=limit)


def _made(make, sizes, limit, held):
    """``make(values, device)`` on a fresh device already holding ``held`` bytes: (the
    tensors' values, dtypes, writeable flags and id steps, memory in use, peak, error)."""
    dev = _device(limit)
    dev.allocate(held)
    dev.free(held // 2)
    values = [np.arange(n, dtype=np.float32 if n % 2 else np.int64) for n in sizes]
    before = next(tensor_lib._ids)
    out, error = [], None
    try:
        out = make(values, dev)
    except errors.ResourceExhaustedError as e:
        error = str(e)
    drawn = next(tensor_lib._ids) - before
    seen = [(t._value.tobytes(), t._value.dtype, t._value.flags.writeable, t._device is dev,
             t._nbytes, t._id - before) for t in out]
    return seen, drawn, dev.memory_in_use, dev.peak_memory, error


@settings(max_examples=40, deadline=None)
@given(sizes=st.lists(st.integers(0, 40), max_size=6), limit=st.integers(0, 1200),
       held=st.integers(0, 400))
def test_made_at_once_equals_one_by_one(sizes, limit, held):
    held = min(held, limit)
    one_by_one = _made(lambda vs, d: [Tensor(v, d) for v in vs], sizes, limit, held)
    at_once = _made(tensor_lib.made, sizes, limit, held)
    assert at_once == one_by_one


def test_values_that_are_not_numpy_arrays_are_made_one_by_one():
    dev = _device(1 << 20)
    out = tensor_lib.made([np.float32(2.0), np.ones(3, np.float32)], dev)
    assert [type(t._value) for t in out] == [np.float32, np.ndarray]
    assert out[1]._id == out[0]._id + 1 and dev.memory_in_use == 4 + 12
    del out
    assert dev.memory_in_use == 0


def test_allocate_all_accounts_all_or_nothing():
    dev = _device(100)
    dev.allocate(60)
    dev.free(30)
    assert not dev.allocate_all(71)
    assert (dev.memory_in_use, dev.peak_memory) == (30, 60)
    assert dev.allocate_all(20)
    assert (dev.memory_in_use, dev.peak_memory) == (50, 60)
    assert dev.allocate_all(50)
    assert (dev.memory_in_use, dev.peak_memory) == (100, 100)
