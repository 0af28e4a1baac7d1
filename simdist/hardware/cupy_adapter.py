"""The CuPy adapter: simulated GPUs on real CUDA devices.

Glossary:
  real device  -- a CUDA device CuPy sees (``cupy.cuda.Device(k)``); simulated GPU ``i``
                  runs on real device ``i % n`` (round-robin when there are fewer real ones).
  place        -- put an array on the real device of a simulated one (a peer copy when it
                  lives on another GPU).

Only this module, ``nccl_all_reduce`` and ``cuda_timing`` touch CuPy itself; everything else
uses ``backend.xp``. Nothing here imports CuPy at module import: ``import simdist`` works
without it. Last run on one H200, 2026-11-26 (tests/hardware/gpu_checks.sh); the NCCL
calls below need two GPUs and have not yet run (README, "Real hardware").
"""

from __future__ import annotations

import re

_GPU_INDEX = re.compile(r"device:GPU:(\d+)$", re.IGNORECASE)


def check_gpus(cupy) -> int:
    """The number of CUDA devices CuPy sees; raise if none is usable.

    Raises:
      RuntimeError: no CUDA driver/runtime, or no CUDA device visible (says which).
    """
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # CUDARuntimeError: no driver, driver too old, no device node
        raise RuntimeError(f"The 'cupy' backend needs a CUDA GPU, but the CUDA runtime "
                           f"reports none usable ({e}). Check the NVIDIA driver "
                           "(nvidia-smi) and CUDA_VISIBLE_DEVICES, or use the 'numpy' "
                           "backend.") from e
    if count < 1:
        raise RuntimeError("The 'cupy' backend needs a CUDA GPU, but no CUDA device is "
                           "visible (CUDA_VISIBLE_DEVICES may hide them); use the 'numpy' "
                           "backend.")
    return count


def _cupy():
    import cupy

    return cupy


_count: list[int] = []


def real_device_count() -> int:
    """How many CUDA devices CuPy sees (asked once per process)."""
    if not _count:
        _count.append(check_gpus(_cupy()))
    return _count[0]


def real_device_index(device) -> int:
    """The CUDA device of a simulated device (a Device or its name): ``GPU:i`` runs on real
    device ``i % n``; CPUs and other devices use real device 0 (CuPy holds arrays only on
    GPUs)."""
    name = getattr(device, "name", device)
    m = _GPU_INDEX.search(str(name))
    return int(m.group(1)) % real_device_count() if m else 0


def place(array, device):
    """``array`` on the real GPU of simulated ``device`` (copied there only if elsewhere)."""
    cupy = _cupy()
    target = real_device_index(device)
    if isinstance(array, cupy.ndarray) and array.device.id == target:
        return array
    with cupy.cuda.Device(target):
        if isinstance(array, cupy.ndarray):
            return array.copy()  # copy() allocates on the current device: a peer copy
        return cupy.asarray(array)  # host to device (asarray keeps a CuPy array where it is)


def namespace(cupy):
    """The Array API namespace over CuPy: ``array_api_compat.cupy`` when installed (the
    ``gpu`` extra installs it: standard names such as ``concat``/``astype`` and ``device=``
    on creation functions), else CuPy itself."""
    try:
        from array_api_compat import cupy as compat
    except ImportError:
        return cupy
    return compat


def place_tensor_value(value, device):
    """A new tensor's array on its simulated device's GPU (host arrays stay on the host:
    strings and bfloat16, see ``array_api.keeps_on_host``)."""
    cupy = _cupy()
    if not isinstance(value, cupy.ndarray):
        return value
    return place(value, device)


def nccl_all_reduce(arrays, devices, op, exchange=None, trace=None, start=0.0):
    """All-reduce ``arrays`` (one per simulated device) with NCCL when it can run them:
    the reduced arrays (MEAN still to divide: NCCL sums), or None when NCCL cannot (one
    real GPU, two simulated ones on one GPU, a dtype or op NCCL lacks): then the executor's
    result stands. The measured time lands in ``trace`` (see ``nccl``)."""
    from simdist.hardware import array_api, nccl

    mine = [a for r, a in enumerate(arrays) if exchange is None or exchange.owns(r)]
    if not mine or not nccl.supports(array_api.numpy_dtype(mine[0]), op):
        return None
    real = nccl.plan([real_device_index(d) for d in devices],
                     None if exchange is None else exchange.owner)
    if real is None or (exchange is not None and
                        not nccl.distinct_across_processes(real, exchange)):
        return None
    placed = [a if exchange is not None and not exchange.owns(r) else place(a, devices[r])
              for r, a in enumerate(arrays)]
    outs, _ = nccl.all_reduce(placed, real, op, exchange, trace,
                              [getattr(d, "name", str(d)) for d in devices], start)
    return outs
