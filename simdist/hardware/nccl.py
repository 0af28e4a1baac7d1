"""A real all-reduce (and all-gather) on real GPUs with NCCL (``cupy.cuda.nccl``), timed
with CUDA events.

Glossary:
  plan          -- the real CUDA device of each rank this process owns, or None when NCCL
                   cannot run the collective: NCCL needs one distinct GPU per rank, so when
                   round-robin maps two simulated GPUs onto one real one (or there are fewer
                   than two GPUs) the executor's schedule, on CuPy arrays, is the result.
  GPU identity  -- host name and PCI bus id of a rank's real GPU. Processes of one cluster
                   on one machine may map their ranks onto the same GPU (each process sees
                   GPU 0); NCCL refuses two ranks on one GPU (ncclInvalidUsage), so the
                   processes trade identities once per device group and all fall back alike.
  communicator  -- one ``NcclCommunicator`` per rank this process owns, made once per
                   device group and cached. In one process: ``NcclCommunicator.initAll``.
                   Across processes (MultiWorkerMirroredStrategy's cluster): task 0 makes the
                   NCCL unique id and sends it over the cluster's Peers (the transport the
                   collectives' Exchange trades payloads on); every process then creates its
                   ranks' communicators between ``groupStart`` and ``groupEnd``.
  measured      -- the wall time CUDA events saw on each rank's stream, recorded in the same
                   trace as the simulated events (category ``measured``, ``source``
                   ``cuda_events``), starting at the simulated start, so both sit side by side.

Mirrors what TF's NcclAllReduce / CollectiveAllReduce(NCCL) do through NCCL
(tensorflow/core/nccl/nccl_manager.cc): one communicator per device group, a grouped launch.
NOTE: this path has not yet run on GPUs: it needs two (README, "Real hardware").
"""

from __future__ import annotations

import numpy as np

from simdist.hardware import array_api

# ReduceOp name -> NCCL op attribute (MEAN is SUM, then divided by the caller).
_OPS = {"sum": "NCCL_SUM", "mean": "NCCL_SUM", "prod": "NCCL_PROD", "max": "NCCL_MAX",
        "min": "NCCL_MIN"}
# NumPy dtype name -> NCCL data type attribute (NCCL has no bool; CuPy no bfloat16).
_DTYPES = {"int8": "NCCL_INT8", "uint8": "NCCL_UINT8", "int32": "NCCL_INT32",
           "uint32": "NCCL_UINT32", "int64": "NCCL_INT64", "uint64": "NCCL_UINT64",
           "float16": "NCCL_FLOAT16", "float32": "NCCL_FLOAT32", "float64": "NCCL_FLOAT64"}
_UID_TAG = "nccl-unique-id"
_GPU_IDS_TAG = "nccl-gpu-identities"
_communicators: dict = {}
_distinct: dict = {}   # (devices, owner) -> whether every rank has a GPU of its own


def plan(real_devices: list[int], owner: list[int] | None = None) -> list[int] | None:
    """The real devices of the ranks if NCCL can run them, else None.

    ``real_devices`` is each rank's real CUDA device on its own machine (round-robin
    already applied); ``owner[rank]`` its process (None: all in this one). NCCL needs at
    least two ranks and, within each process, one GPU per rank. Every process decides
    alike when all see the same number of GPUs (as TF expects of a multi-worker cluster);
    otherwise one would wait in NCCL for the others.
    """
    owner = [0] * len(real_devices) if owner is None else list(owner)
    if len(real_devices) < 2:
        return None
    seen = set()
    for dev, proc in zip(real_devices, owner):
        if (proc, dev) in seen:
            return None
        seen.add((proc, dev))
    return list(real_devices)


def distinct_across_processes(real_devices: list[int], exchange) -> bool:
    """Whether the ranks of a cluster of processes sit on distinct physical GPUs: each
    process sends the identities of its ranks' GPUs to every other (once per device group,
    bounded by the cluster's timeout), so every process decides alike."""
    key = (tuple(real_devices), tuple(exchange.owner))
    found = _distinct.get(key)
    if found is not None:
        return found
    mine = {r: _gpu_identity(d) for r, d in enumerate(real_devices) if exchange.owns(r)}
    procs = sorted(set(exchange.owner))
    tag = (_GPU_IDS_TAG, key[0])
    every = dict(mine)
    for peer in procs:
        if peer != exchange.me:
            exchange.peers.send(peer, tag, mine)
    for peer in procs:
        if peer != exchange.me:
            every.update(exchange.peers.recv(peer, tag))
    _distinct[key] = found = len(set(every.values())) == len(real_devices)
    return found


def _gpu_identity(device: int) -> str:
    import socket

    import cupy

    return f"{socket.gethostname()}/{cupy.cuda.Device(device).pci_bus_id}"


def supports(dtype, op: str) -> bool:
    """Whether NCCL reduces arrays of NumPy ``dtype`` with ``op``."""
    return np.dtype(dtype).name in _DTYPES and op in _OPS


def all_reduce(arrays, real_devices, op="sum", exchange=None, trace=None, names=None,
               start=0.0):
    """All-reduce ``arrays`` (CuPy, one per rank, rank ``r`` on ``real_devices[r]``) in place
    into new arrays with NCCL; returns them and the measured seconds per owned rank.

    With an ``exchange`` (a cluster of processes) only the ranks it owns are read; the
    others' entries stay None. ``trace``/``names``/``start``: where to record the
    measured time of each rank (one ``measured`` event per rank).
    """
    from cupy.cuda import nccl

    nccl_op = getattr(nccl, _OPS[op])

    def launch(comm, src, out, dtype, stream):
        comm.allReduce(src.data.ptr, out.data.ptr, src.size, dtype, nccl_op, stream)

    return _run("all_reduce", launch, lambda cupy, a, p: cupy.empty_like(a), arrays,
                real_devices, exchange, trace, names, start, op=op)


def all_gather(arrays, real_devices, exchange=None, trace=None, names=None, start=0.0):
    """All-gather ``arrays`` (CuPy, one 1-D array of equal size per rank) with NCCL: every
    rank gets their concatenation in rank order (``ncclAllGather``, as nccl-tests'
    ``all_gather_perf`` times it); returns the outputs and the measured seconds per rank."""

    def launch(comm, src, out, dtype, stream):
        comm.allGather(src.data.ptr, out.data.ptr, src.size, dtype, stream)

    return _run("all_gather", launch,
                lambda cupy, a, p: cupy.empty(a.size * p, dtype=a.dtype), arrays,
                real_devices, exchange, trace, names, start)


def _run(collective, launch, make_out, arrays, real_devices, exchange, trace, names, start,
         **attrs):
    """Launch ``collective`` on every owned rank between groupStart/groupEnd, each on its
    device's current stream between two CUDA events; the outputs and seconds per rank."""
    import cupy
    from cupy.cuda import nccl

    p = len(arrays)
    mine = [r for r in range(p) if exchange is None or exchange.owns(r)]
    comms = _communicators_for(tuple(real_devices), mine, exchange)
    nccl_dtype = getattr(nccl, _DTYPES[array_api.numpy_dtype(arrays[mine[0]]).name])
    outs = [None] * p
    streams, events = {}, {}
    for r in mine:
        with cupy.cuda.Device(real_devices[r]):
            outs[r] = make_out(cupy, arrays[r], p)
            # The device's current stream: the collective runs after the kernels that made
            # its input, and the events time it on that same stream.
            streams[r] = cupy.cuda.get_current_stream()
            events[r] = (cupy.cuda.Event(), cupy.cuda.Event())
            events[r][0].record(streams[r])
    nccl.groupStart()
    try:
        for r in mine:
            with cupy.cuda.Device(real_devices[r]):
                launch(comms[r], arrays[r], outs[r], nccl_dtype, streams[r].ptr)
    finally:
        nccl.groupEnd()
    seconds = {}
    for r in mine:
        with cupy.cuda.Device(real_devices[r]):
            events[r][1].record(streams[r])
            events[r][1].synchronize()
            seconds[r] = cupy.cuda.get_elapsed_time(*events[r]) / 1e3
    if trace is not None and trace.enabled:
        for r in mine:
            trace.record(f"{collective}/nccl rank {r}", "measured",
                         names[r] if names else f"GPU:{real_devices[r]}", start,
                         start + seconds[r], source="cuda_events", rank=r,
                         bytes=array_api.nbytes(arrays[r]), real_device=real_devices[r],
                         **attrs)
    return outs, seconds


def _communicators_for(devices: tuple, mine: list, exchange) -> dict:
    """This process's communicators for the ranks of ``devices`` (made once, cached)."""
    key = (devices, tuple(mine))
    found = _communicators.get(key)
    if found is not None:
        return found
    from cupy.cuda import nccl

    if exchange is None:
        comms = dict(zip(range(len(devices)), nccl.NcclCommunicator.initAll(list(devices))))
    else:
        uid = _shared_unique_id(exchange, key)
        comms = {}
        nccl.groupStart()  # one process making several ranks must group their inits
        try:
            import cupy

            for r in mine:
                with cupy.cuda.Device(devices[r]):
                    comms[r] = nccl.NcclCommunicator(len(devices), uid, r)
        finally:
            nccl.groupEnd()
    _communicators[key] = comms
    return comms


def _shared_unique_id(exchange, key):
    """Task 0 makes the NCCL unique id and sends it to every other process over the
    cluster's Peers (bounded by the cluster's timeout, like every collective message)."""
    from cupy.cuda import nccl

    procs = sorted(set(exchange.owner))
    tag = (_UID_TAG, key[0])
    if exchange.me == procs[0]:
        uid = nccl.get_unique_id()
        for peer in procs[1:]:
            exchange.peers.send(peer, tag, uid)
        return uid
    return exchange.peers.recv(procs[0], tag)


def reset() -> None:
    """Forget the cached communicators and GPU identities (tests; a new cluster)."""
    _communicators.clear()
    _distinct.clear()
