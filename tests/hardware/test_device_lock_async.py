"""A device's lock survives an asynchronous exception: the app's time limit on a learner's
program raises one into the running thread (PyThreadState_SetAsyncExc, viz/tracing.py's
watchdog), and CPython delivers it when a call returns, also the lock's acquire. Landing
there left the lock held before (the acquire sat before its try), so the next free of a
tensor (a __del__) waited forever. Here the exception lands exactly there, every time."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from simdist.hardware.machine import get_machine
from simdist.testing import reset_world


class _Stop(Exception):
    pass


class _RaisingAfterAcquire:
    """A lock whose next acquire takes the lock and then raises, as an async exception
    delivered at the acquire's return would."""

    def __init__(self):
        self.lock = threading.Lock()
        self.armed = False

    def acquire(self, *args, **kwargs):
        got = self.lock.acquire(*args, **kwargs)
        if self.armed:
            self.armed = False
            raise _Stop
        return got

    def release(self):
        self.lock.release()

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


@pytest.mark.parametrize("call", ["allocate_array", "free", "run_op", "run_ops"])
def test_an_exception_at_the_acquire_leaves_the_device_lock_free(call):
    reset_world("cpu")
    device = get_machine().devices_of_type("CPU")[0]
    value = np.zeros(4, np.float32)
    args = {"allocate_array": (value,), "free": (0,), "run_op": ("Add", 4.0, 16.0, False),
            "run_ops": ([("Add", 4.0, 16.0, False)],)}[call]
    lock = device._lock = _RaisingAfterAcquire()
    lock.armed = True
    with pytest.raises(_Stop):
        getattr(device, call)(*args)
    assert lock.lock.acquire(timeout=5), f"{call} left the device lock held"
    lock.lock.release()
