"""Simulated vs measured: the cost model's time next to a real clock's, for one schedule.

Glossary:
  measure      -- for a collective, an algorithm (its schedule) and message sizes: the cost
                  model's time on ``topology`` (``price``), the time really taken (an
                  ``engine`` of ``timing``: simdist's executor on this backend, or NCCL),
                  and the model's time again after calibrating it on the measurements.
  calibrated   -- for all_reduce the links are fitted on an all-gather measured alike (it
                  only moves bytes), then the reduction's compute on the all-reduce
                  (``calibrate`` then ``calibrate_compute``: bandwidth and compute both
                  grow with the size, one table cannot separate them); for the other
                  collectives the links are fitted on their own table.
  MeasuredRow  -- one size: ``simulated``, ``measured``, ``calibrated`` seconds.
  Measurement  -- the rows plus what ran where (``engine``, ``where``), the fits, and
                  ``note`` saying why a fit is missing.

Without a GPU the measured column is simdist's own execution on NumPy host arrays: it
exercises measuring and calibrating end to end, but times a CPU, not a GPU network.
Mirrors nccl-tests' table (size, time) and NCCL's tuner model fitted to it.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import numpy as np

from simdist.collectives import timing
from simdist.collectives.calibrate import (
    Calibration,
    ComputeCalibration,
    calibrate,
    calibrate_compute,
)
from simdist.collectives.pricing import price
from simdist.collectives.registry import COLLECTIVES, lookup
from simdist.hardware import backend
from simdist.hardware.topology import as_topology

DEFAULT_SIZES = tuple(1024 * 4 ** k for k in range(6))  # 1 KiB .. 1 MiB per rank
# Ranks when neither num_devices nor a topology says (a host-sized default).
DEFAULT_RANKS = 4
_ENGINES = ("auto", *timing.ENGINES)
# Collectives whose nccl-tests size must split into p equal inputs or slots.
_SPLIT = ("all_gather", "all_to_all")


@dataclass(frozen=True)
class MeasuredRow:
    """One message size: seconds simulated, measured (median) and after calibration."""

    size: int
    simulated: float
    measured: float
    calibrated: float | None

    @property
    def ratio(self) -> float:
        """simulated / measured (1: the model is right; 10: it is 10x too slow)."""
        return self.simulated / self.measured


@dataclass(frozen=True)
class Measurement:
    """Simulated and measured times of one collective, side by side."""

    collective: str
    algorithm: str
    dtype: str
    num_devices: int
    engine: str
    where: str
    rows: tuple
    calibration: Calibration | None
    compute: ComputeCalibration | None
    note: str

    def table(self) -> list[dict]:
        """One dict per size: size (bytes) and times in microseconds, plus the ratio."""
        return [{"size": r.size, "simulated_us": r.simulated * 1e6,
                 "measured_us": r.measured * 1e6,
                 "calibrated_us": None if r.calibrated is None else r.calibrated * 1e6,
                 "ratio": r.ratio} for r in self.rows]


def measure(collective: str = "all_reduce", sizes=None, algorithm: str | None = None,
            topology=None, num_devices: int | None = None, dtype="float32",
            repeats: int = 3, engine: str = "auto", calibrate: bool = True) -> Measurement:
    """Time ``collective`` for real at each size and put the cost model's time beside it.

    Args:
      collective: one of COLLECTIVES (``"all_reduce"``, ``"all_gather"`` ...).
      sizes: nccl-tests sizes in bytes per rank (all_gather: the output); default
        DEFAULT_SIZES (1 KiB .. 1 MiB).
      algorithm: the schedule, a name of ALGORITHMS valid for ``collective`` (None: the
        collective's default, as ``collectives.<collective>`` takes it: ring, binomial...).
      topology, num_devices: as ``price`` takes them; ranks default to the GPUs (nccl),
        the topology's devices, or DEFAULT_RANKS.
      repeats: timed runs per size after one warm-up (the median is kept).
      engine: ``"simdist"`` (simdist's executor on the active backend, wall clock),
        ``"nccl"`` (NCCL on this machine's GPUs, CUDA events) or ``"auto"`` (nccl on the
        cupy backend with two or more GPUs, else simdist).
      calibrate: fit the model to the measurements and price again.

    Raises:
      ValueError: unknown collective, algorithm or engine; sizes not positive whole
        numbers of elements (of p elements for all_gather / all_to_all); repeats < 1.
      RuntimeError: engine ``"nccl"`` without CuPy or without a GPU per rank.
    """
    if collective not in COLLECTIVES:
        raise ValueError(f"Unknown collective {collective!r}; choose one of {COLLECTIVES}.")
    algo = lookup(collective, _default_algorithm(collective) if algorithm is None
                  else algorithm)
    if engine not in _ENGINES:
        raise ValueError(f"Unknown engine {engine!r}; choose one of {_ENGINES}.")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be an int >= 1 (timed runs per size), got {repeats!r}.")
    dtype = np.dtype(dtype)
    engine = _pick_engine(engine)
    if num_devices is None:
        num_devices = (timing.gpu_count()[0] if engine == "nccl" else
                       len(as_topology(topology).devices) if topology is not None
                       else DEFAULT_RANKS)
    sizes = _check_sizes(DEFAULT_SIZES if sizes is None else sizes, collective, dtype,
                         num_devices)
    return _measure_impl(collective, algo.name, sizes, topology, int(num_devices), dtype,
                         repeats, engine, calibrate)


def _default_algorithm(collective: str) -> str:
    from simdist.collectives import api

    return inspect.signature(getattr(api, collective)).parameters["algorithm"].default


def _pick_engine(engine: str) -> str:
    if engine != "auto":
        return engine
    return "nccl" if backend.get_backend() == "cupy" and timing.gpu_count()[0] >= 2 \
        else "simdist"


def _check_sizes(sizes, collective, dtype, p) -> tuple:
    unit = dtype.itemsize * (p if collective in _SPLIT else 1)
    if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__iter__"):
        raise ValueError(f"sizes must be a list of message sizes in bytes, got {sizes!r}.")
    out = []
    for s in sizes:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s <= 0 or s % unit:
            raise ValueError(f"Each size must be a positive int number of bytes, a multiple "
                             f"of {unit} ({dtype.name} elements"
                             f"{f' x {p} ranks' if collective in _SPLIT else ''}); got {s!r}.")
        out.append(int(s))
    if not out:
        raise ValueError("sizes is empty: give at least one message size in bytes.")
    return tuple(out)


def _measure_impl(collective, algorithm, sizes, topology, p, dtype, repeats, engine, fit):
    timer = timing.ENGINES[engine]
    measured = timer(collective, algorithm, sizes, p, dtype, repeats, topology)
    simulated = [price(collective, algorithm, s, topology, p, dtype).time for s in sizes]
    links = compute = None
    note = "not calibrated (calibrate=False)" if not fit else ""
    predicted = [None] * len(sizes)
    if fit:
        rows = [(s, t * 1e6) for s, t in zip(sizes, measured)]
        try:
            links, compute, predicted, note = _fit(collective, algorithm, rows, topology,
                                                   p, dtype, repeats, timer)
        except ValueError as e:
            note = f"no calibrated column: {e}"
    where = _where(engine, collective, algorithm, p, dtype)
    out = tuple(MeasuredRow(s, sim, got, None if pred is None else float(pred))
                for s, sim, got, pred in zip(sizes, simulated, measured, predicted))
    return Measurement(collective, algorithm, dtype.name, p, engine, where, out, links,
                       compute, note)


def _fit(collective, algorithm, rows, topology, p, dtype, repeats, timer):
    """(links, compute or None, predicted seconds, note) fitted to ``rows`` (size, us)."""
    own = (rows, topology, algorithm, collective, p, dtype)
    if collective != "all_reduce":
        links = calibrate(*own)
        return links, None, links.predicted, ""
    sizes = [s for s, _ in rows if s % (dtype.itemsize * p) == 0]
    gathered = timer("all_gather", "ring", sizes, p, dtype, repeats, topology)
    try:
        links = calibrate([(s, t * 1e6) for s, t in zip(sizes, gathered)], topology, "ring",
                          "all_gather", p, dtype)
        compute = calibrate_compute(rows, links, algorithm, p, dtype)
    except ValueError as e:  # e.g. host timings where the compute is lost in the overheads
        links = calibrate(*own)
        return links, None, links.predicted, (
            f"links fitted on the all-reduce alone (compute left as modelled): the "
            f"all-gather + compute fit failed: {e}")
    return links, compute, compute.predicted, ""


def _where(engine, collective, algorithm, p, dtype) -> str:
    if engine == "nccl":
        return (f"NCCL's {collective} on {p} CUDA GPUs (cupy.cuda.nccl), timed with CUDA "
                "events")
    name = backend.get_backend()
    arrays = "NumPy host arrays" if name == "numpy" else f"{name} arrays"
    place = "this host's CUDA GPUs (round-robin)" if name == "cupy" else "this host"
    return (f"simdist's {algorithm.split('.')[-1]} {collective} on {p} {arrays} "
            f"({dtype.name}) on {place}, timed with time.perf_counter")
