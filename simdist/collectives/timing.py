"""Time a collective for real: the "measured" column beside the cost model's.

Glossary:
  engine  -- what runs the collective being timed (registry ``ENGINES``):
               simdist -- simdist's own executor (``collectives.api``) on arrays of the
                          active backend (NumPy host arrays where there is no GPU), timed
                          with ``time.perf_counter``; the devices are synchronized before
                          the clock stops (``array_api.synchronize``).
               nccl    -- NCCL through ``cupy.cuda.nccl`` on every GPU of this machine,
                          timed with CUDA events (``simdist.hardware.nccl``): all_reduce and
                          all_gather. Untested: no GPU has run it yet (README).
  size    -- the nccl-tests ``size``: bytes of each rank's buffer; for all_gather the
             gathered output, so each rank sends size / p (``all_gather_perf``'s convention,
             the one ``collectives.price`` takes).
  median  -- each size runs once to warm up (NCCL communicators, allocator, caches), then
             ``repeats`` timed runs; the median is kept.

Mirrors nccl-tests (src/common.cu: ``-w`` warm-up iterations, then ``-n`` timed iterations
per size, out-of-place; sizes as src/all_gather.cu counts them).
"""

from __future__ import annotations

import time

import numpy as np

from simdist.hardware import array_api

# Collectives whose nccl-tests size is the output of p ranks' inputs.
_GATHERED = ("all_gather",)


def elements(collective: str, size: int, itemsize: int, p: int) -> int:
    """Elements of each rank's input for an nccl-tests ``size`` in bytes."""
    count = size // itemsize
    return count // p if collective in _GATHERED else count


def time_simdist(collective, algorithm, sizes, num_devices, dtype, repeats, topology=None):
    """Median seconds per size of simdist's ``collective`` on the active backend's arrays."""
    from simdist.collectives import api
    from simdist.hardware.trace import Trace

    run = getattr(api, collective)
    dtype = np.dtype(dtype)
    trace = Trace(enabled=False)  # the clock times the collective, not the recording

    def once(values):
        start = time.perf_counter()
        out = run(values, algorithm, topology=topology, trace=trace)
        array_api.synchronize([v for v in out.values if v is not None])
        return time.perf_counter() - start

    times = []
    for size in sizes:
        count = elements(collective, size, dtype.itemsize, num_devices)
        values = [array_api.from_host(np.ones(count, dtype)) for _ in range(num_devices)]
        once(values)
        times.append(_median(once(values) for _ in range(repeats)))
    return times


def _median(times) -> float:
    """``statistics.median`` (loaded here, not with the first all-reduce)."""
    import statistics

    return statistics.median(times)


def gpu_count() -> tuple[int, str]:
    """CUDA devices CuPy sees, or (0, why none can be used)."""
    try:
        import cupy

        from simdist.hardware import cupy_adapter
    except ImportError as e:
        return 0, f"CuPy is not installed ({e}); pip install -e '.[gpu]'"
    try:
        return cupy_adapter.check_gpus(cupy), ""
    except RuntimeError as e:
        return 0, str(e)


def time_nccl(collective, algorithm, sizes, num_devices, dtype, repeats, topology=None):
    """Median seconds per size of NCCL's ``collective`` on ``num_devices`` GPUs.

    ``algorithm`` and ``topology`` are NCCL's own choice here (its tuner picks ring or tree).

    Raises:
      RuntimeError: no CuPy, fewer GPUs than ranks, or a collective NCCL is not run for.
    """
    if collective not in NCCL_COLLECTIVES:
        raise RuntimeError(f"The nccl engine times {sorted(NCCL_COLLECTIVES)}, not "
                           f"{collective!r}; use engine='simdist'.")
    n, why = gpu_count()
    if n < max(num_devices, 2):
        raise RuntimeError(f"The nccl engine needs {max(num_devices, 2)} CUDA GPUs (one per "
                           f"rank); this machine has {n}{': ' + why if why else ''}. Use "
                           "engine='simdist' to time simdist's own collectives here.")
    import cupy

    from simdist.hardware import nccl

    launch = getattr(nccl, collective)
    devices = list(range(num_devices))
    times = []
    for size in sizes:
        count = elements(collective, size, np.dtype(dtype).itemsize, num_devices)
        arrays = []
        for d in devices:
            with cupy.cuda.Device(d):
                arrays.append(cupy.ones(count, dtype=dtype))
        launch(arrays, devices)  # warm-up: makes the communicators
        times.append(_median(max(launch(arrays, devices)[1].values())
                             for _ in range(repeats)))
    return times


# engine name -> timer(collective, algorithm, sizes, num_devices, dtype, repeats, topology).
ENGINES = {"simdist": time_simdist, "nccl": time_nccl}
NCCL_COLLECTIVES = ("all_reduce", "all_gather")
