"""A simulated device: memory with accounting, a compute speed, and its own clock.

Glossary:
  Device.name    -- the canonical TF name, ``/job:localhost/replica:0/task:0/device:GPU:0``.
  memory_in_use  -- bytes of live tensors placed here; ``peak_memory`` the high-water mark.
  clock          -- simulated seconds this device has been busy up to; an op starts at the
                    clock and moves it forward by its cost (launch + max(flops/FLOP/s,
                    bytes/memory bandwidth): the roofline model).
  serial         -- this device object's number, never reused: memo keys name a device by
                    it, so a memo does not keep a dropped machine's devices (and traces).
"""

from __future__ import annotations

import itertools
import threading

import numpy as np

from simdist import errors
from simdist.hardware import array_api
from simdist.hardware.device_spec import DeviceSpec
from simdist.hardware.specs import HardwareSpec
from simdist.hardware.trace import Trace

# TF's C++ names of dtypes (DataTypeString), as its allocator messages print them.
KERNEL_DTYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}
_SERIALS = itertools.count()


def _fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.2f} {unit}"
        n /= 1024
    return f"{n} B"


class Device:
    """One simulated CPU, GPU or TPU core."""

    def __init__(self, name: str, spec: HardwareSpec, trace: Trace | None = None,
                 memory_bytes: int | None = None):
        self.name = name
        self.spec = spec
        parsed = DeviceSpec.from_string(name)
        self.device_type = parsed.device_type
        self.index = parsed.device_index
        self.task = parsed.task
        self.job = parsed.job
        self.memory_limit = spec.memory_bytes if memory_bytes is None else memory_bytes
        self.memory_in_use = 0
        self.peak_memory = 0
        self.clock = 0.0
        # How many times slower every op runs (a straggler: simdist.faults.Straggler).
        self.slowdown = 1.0
        self.trace = trace if trace is not None else Trace()
        self._lock = threading.Lock()
        self.serial = next(_SERIALS)

    def __repr__(self) -> str:
        return f"Device({self.name!r}, {self.spec.name})"

    # --- memory -----------------------------------------------------------------------
    def allocate(self, nbytes: int, what: str = "tensor", shape=None, dtype=None,
                 op: str | None = None) -> None:
        """Account ``nbytes`` of memory (``shape``/``dtype``/``op`` only name it in errors).

        Raises:
          ResourceExhaustedError: when the allocation would exceed the device's capacity;
            nothing is accounted then.
        """
        with self._lock:
            if self.memory_in_use + nbytes > self.memory_limit:
                raise self._oom(nbytes, what, shape, dtype, op)
            self.memory_in_use += nbytes
            if self.memory_in_use > self.peak_memory:
                self.peak_memory = self.memory_in_use

    def allocate_array(self, value) -> int:
        """:meth:`allocate` the bytes of the array ``value`` (a new tensor's); returns them.

        Raises:
          ResourceExhaustedError: as :meth:`allocate`.
        """
        # NumPy's nbytes; the Array API has none (array_api.nbytes: size x itemsize).
        nbytes = value.nbytes if type(value) is np.ndarray else array_api.nbytes(value)
        if not self.allocate_all(nbytes):
            raise self._oom(nbytes, "tensor", value.shape, value.dtype, None)
        return nbytes

    def allocate_all(self, nbytes: int) -> bool:
        """Account ``nbytes``, several new tensors' bytes at once (the same memory in use
        and peak as one :meth:`allocate_array` each: the last one's is the highest), where
        they all fit; else account nothing and return False (the caller makes them one by
        one: the one that does not fit raises)."""
        # acquire/release in try/finally: the same lock as ``with``, cheaper per call (every
        # tensor made comes here, every one freed goes through free). The acquire is inside
        # the try: an asynchronous exception (the app's time limit on a learner's program,
        # PyThreadState_SetAsyncExc) lands when the acquire's call returns, and must find
        # the lock's release already armed, or a later free deadlocks on a held lock.
        lock = self._lock
        try:
            lock.acquire()
            in_use = self.memory_in_use + nbytes
            if in_use > self.memory_limit:
                return False
            self.memory_in_use = in_use
            if in_use > self.peak_memory:
                self.peak_memory = in_use
        finally:
            lock.release()
        return True

    def check_fits(self, nbytes: int, what: str = "tensor", shape=None, dtype=None,
                   op: str | None = None) -> None:
        """Raise the allocation's ResourceExhaustedError now, before anything is built on
        the host, when ``nbytes`` more would not fit (nothing is accounted either way).

        Raises:
          ResourceExhaustedError: as :meth:`allocate` would.
        """
        if self.memory_in_use + nbytes > self.memory_limit:
            raise self._oom(nbytes, what, shape, dtype, op)

    def _oom(self, nbytes, what, shape, dtype, op) -> errors.ResourceExhaustedError:
        """TF's allocator message ("OOM when allocating tensor with shape[..] and type ..
        on <device> by allocator ..") and, on the next line, the sizes and what to do."""
        if shape is not None:
            what += f" with shape[{','.join(str(int(d)) for d in shape)}]"
        if dtype is not None:
            what += f" and type {KERNEL_DTYPE_NAMES.get(str(dtype), str(dtype))}"
        allocator = "cpu" if self.device_type == "CPU" else f"{self.device_type}_{self.index}_bfc"
        suffix = f" [Op:{op}]" if op else ""
        return errors.ResourceExhaustedError(
            None, None,
            f"OOM when allocating {what} on {self.name} by allocator {allocator}{suffix}\n"
            f"It needs {_fmt_bytes(nbytes)}: {_fmt_bytes(self.memory_in_use)} already in use "
            f"of {_fmt_bytes(self.memory_limit)} capacity. Use a smaller batch or model, or "
            "spread the work over more devices.",
        )

    def free(self, nbytes: int) -> None:
        """Release ``nbytes`` accounted by :meth:`allocate`."""
        lock = self._lock
        try:
            lock.acquire()   # inside the try: see Device.allocate_all
            self.memory_in_use -= nbytes
        finally:
            lock.release()

    # --- time -------------------------------------------------------------------------
    def op_cost(self, flops: float, nbytes: float, low_precision: bool = False) -> float:
        """Simulated seconds of one op: launch overhead plus the roofline bound."""
        rate = self.spec.flops_fp16 if low_precision else self.spec.flops
        return self.spec.launch_s + max(flops / rate, nbytes / self.spec.mem_bw)

    def run(self, name: str, flops: float = 0.0, nbytes: float = 0.0, cat: str = "compute",
            low_precision: bool = False, **args) -> tuple[float, float]:
        """Advance the clock by one op's cost and record it in the trace; returns (start, end)."""
        if not args and cat == "compute":   # a variable write's: run_op's event is the same
            return self.run_op(name, flops, nbytes, low_precision)
        cost = self.op_cost(flops, nbytes, low_precision) * self.slowdown
        with self._lock:
            start = self.clock
            self.clock = end = start + cost
        trace = self.trace
        if trace.enabled:
            args["flops"], args["bytes"] = flops, nbytes
            trace.record(name, cat, self.name, start, end, **args)
        return start, end

    def run_op(self, name: str, flops: float, nbytes: float,
               low_precision: bool) -> tuple[float, float]:
        """:meth:`run` for one eager op (category ``compute``, args ``flops`` and ``bytes``):
        the same clock and trace event, without the general method's keyword handling
        (every op of the eager path comes here)."""
        spec = self.spec
        compute = flops / (spec.flops_fp16 if low_precision else spec.flops)
        memory = nbytes / spec.mem_bw
        cost = (spec.launch_s + (memory if memory > compute else compute)) * self.slowdown
        lock = self._lock
        try:
            lock.acquire()   # inside the try: see Device.allocate_all
            start = self.clock
            self.clock = end = start + cost
        finally:
            lock.release()
        trace = self.trace
        if trace.enabled:
            trace.record_op(name, self.name, start, end, flops, nbytes)
        return start, end

    def run_ops(self, ops, memo=None) -> None:
        """:meth:`run_op` for each ``(name, flops, nbytes, low_precision)`` of ``ops`` in
        turn: the same clocks and trace events, one lock and one look-up of the spec for
        all (a fused optimizer update charges a copy's ops this way). ``memo``: a list the
        caller keeps with ``ops`` (the same ops at each call, a program's charges): their
        costs here and trace columns, kept while the device's speeds stay as they were."""
        spec, slowdown = self.spec, self.slowdown
        # kept for this spec (an immutable tuple of figures) and slowdown
        if memo is None or not memo or memo[0] is not spec or memo[1] != slowdown:
            speeds = (spec.flops, spec.flops_fp16, spec.mem_bw, spec.launch_s, slowdown)
            fresh = [spec, slowdown, self._costs(ops, speeds), tuple(op[0] for op in ops),
                     tuple(op[1] for op in ops), tuple(op[2] for op in ops)]
            if memo is None:
                memo = fresh
            else:
                memo[:] = fresh
        costs = memo[2]
        # Each start is the clock plus the costs before it, added one at a time as run_op
        # adds them (the same floats; a tuple, so the trace's entry can be untracked by the
        # garbage collector). They are made before the lock is taken (a tuple made
        # under it could start a garbage collection, whose Tensor.__del__ -> free would wait
        # on this same lock) from the clock read then, and kept only if the clock did not
        # move meanwhile (another thread's op); else they are made again.
        lock = self._lock
        while True:
            clock = self.clock
            starts = tuple(itertools.accumulate(costs, initial=clock))
            try:
                lock.acquire()   # inside the try: see Device.allocate_all
                moved = self.clock is not clock
                if not moved:
                    self.clock = starts[-1]
            finally:
                lock.release()
            if not moved:
                break
        trace = self.trace
        if trace.enabled:
            trace.record_columns(memo[3], self.name, starts, memo[4], memo[5])

    @staticmethod
    def _costs(ops, speeds) -> list:
        """Each op's simulated seconds (run_op's cost) at ``speeds``."""
        rate, rate_low, bandwidth, launch, slowdown = speeds
        costs = []
        for _name, flops, nbytes, low in ops:
            compute = flops / (rate_low if low else rate)
            memory = nbytes / bandwidth
            costs.append((launch + (memory if memory > compute else compute)) * slowdown)
        return costs

    def wait_until(self, t: float) -> None:
        """Idle until simulated time ``t`` (a sync point: a collective, a host read)."""
        with self._lock:
            if t > self.clock:
                self.clock = t

    def reset(self) -> None:
        """Zero the clock and the peak-memory mark (live memory stays accounted)."""
        with self._lock:
            self.clock = 0.0
            self.peak_memory = self.memory_in_use
