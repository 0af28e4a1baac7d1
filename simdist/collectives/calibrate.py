"""Fit a topology's link latency and bandwidth to measured nccl-tests results.

Glossary:
  table      -- nccl-tests output (the text ``all_reduce_perf`` prints, or rows of
                ``(size_bytes, time_us[, algbw, busbw])`` / dicts with ``size``, ``time``).
  features   -- for each size the cost model is run three times on the topology: with every
                link at latency 1 s and infinite bandwidth (L: latency units on the critical
                path), at latency 0 and bandwidth 1 B/s (B: bytes on the critical path), and
                with free links (C: the reduction compute). With all links alike the model is
                ``t = alpha * L + B / bw + C``, linear in alpha and 1/bw.
  fit        -- weighted least squares on relative error (sizes span nine decades), which
                gives the per-link latency ``alpha`` and bandwidth ``bw``; ``residuals`` are
                (model - measured) / measured per row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simdist.collectives.pricing import price
from simdist.hardware.topology import as_topology


@dataclass
class Calibration:
    """Fitted link ``latency`` (s) and ``bandwidth`` (bytes/s), residuals, calibrated graph."""

    latency: float
    bandwidth: float
    sizes: np.ndarray
    measured: np.ndarray
    predicted: np.ndarray
    graph: object

    @property
    def residuals(self) -> np.ndarray:
        return (self.predicted - self.measured) / self.measured

    @property
    def rms(self) -> float:
        return float(np.sqrt(np.mean(self.residuals ** 2)))

    def summary(self) -> str:
        return (f"link latency {self.latency * 1e6:.2f} us, bandwidth "
                f"{self.bandwidth / 1e9:.2f} GB/s per direction; rms relative residual "
                f"{self.rms:.1%} over {len(self.sizes)} sizes")


def parse_nccl_tests(text: str) -> list[tuple[int, float]]:
    """(size bytes, out-of-place time us) from nccl-tests output; comment lines skipped."""
    rows = []
    for line in text.splitlines():
        tok = line.split()
        if not tok or not tok[0].isdigit():
            continue
        words = [i for i, t in enumerate(tok) if not _is_number(t)]
        rest = tok[words[-1] + 1:] if words else tok[2:]
        if len(rest) >= 4 and "." not in rest[0]:
            rest = rest[1:]  # the ``root`` column of newer nccl-tests
        rows.append((int(tok[0]), float(rest[0])))
    return rows


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _rows(table):
    """The table as [(size bytes, time us)], every row checked.

    Raises:
      ValueError: a row that is not (size, time) / {"size", "time"}, a size that is not a
        positive whole number of bytes, a time not positive and finite, or fewer than two
        rows (text: rows of size 0, which nccl-tests prints, are left out).
    """
    if isinstance(table, str):
        rows = [(s, t) for s, t in parse_nccl_tests(table) if s > 0]
    elif isinstance(table, bytes) or not hasattr(table, "__iter__"):
        raise ValueError(f"calibrate takes nccl-tests output (a str) or rows of (size bytes, "
                         f"time us); got {type(table).__name__}.")
    else:
        rows = [_row(k, r) for k, r in enumerate(table)]
    if len({s for s, _ in rows}) < 2:
        raise ValueError(f"calibrate needs rows of at least two different sizes with size > 0 "
                         f"and time > 0 (size in bytes, time in microseconds); got "
                         f"{len(rows)} rows of {len({s for s, _ in rows})} sizes. Measure "
                         "several sizes, from a few KB to MBs and up.")
    return rows


def _row(k: int, row) -> tuple[int, float]:
    try:
        size, time = (row["size"], row["time"]) if isinstance(row, dict) else tuple(row)[:2]
        size_f, time_f = float(size), float(time)
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"Row {k} of the table is {row!r}; each row must be (size bytes, "
                         "time us[, ...]) or a dict with 'size' and 'time'.") from None
    if isinstance(size, bool) or not np.isfinite(size_f) or size_f <= 0 \
            or size_f != int(size_f):
        raise ValueError(f"Row {k}: size {size!r} must be a positive whole number of bytes.")
    if isinstance(time, bool) or not np.isfinite(time_f) or time_f <= 0:
        raise ValueError(f"Row {k}: time {time!r} must be positive and finite (the measured "
                         "time of one call, in microseconds).")
    return int(size_f), time_f


def with_links(graph, latency: float, bandwidth: float):
    """A copy of ``graph`` whose every link has this latency and bandwidth."""
    g = graph.copy()
    for _, _, attrs in g.edges(data=True):
        attrs["latency"], attrs["bandwidth"] = latency, bandwidth
    return g


def calibrate(table, topology=None, algorithm: str = "ring", collective: str = "all_reduce",
              num_devices: int | None = None, dtype="float32", **params) -> Calibration:
    """Fit one latency and one bandwidth for all links of ``topology`` to ``table``.

    Raises:
      ValueError: a malformed row (says which and why), fewer than two sizes, or a fit
        without positive bandwidth (the table lacks large messages).
    """
    rows = _rows(table)
    graph = as_topology(topology, num_devices).graph
    return _calibrate_impl(rows, graph, algorithm, collective, num_devices, dtype, params)


def _calibrate_impl(rows, graph, algorithm, collective, num_devices, dtype, params):
    sizes = np.array([s for s, _ in rows], dtype=float)
    measured = np.array([t for _, t in rows]) * 1e-6
    unit_lat, unit_bw, free = (with_links(graph, 1.0, 1e30), with_links(graph, 0.0, 1.0),
                               with_links(graph, 0.0, 1e30))

    def run(g, size, compute):
        return price(collective, algorithm, int(size), g, num_devices, dtype,
                     compute=compute, **params).time

    lat_f = np.array([run(unit_lat, s, False) for s in sizes])
    bw_f = np.array([run(unit_bw, s, False) for s in sizes])
    comp = np.array([run(free, s, True) for s in sizes])
    w = 1.0 / measured
    a = np.stack([lat_f * w, bw_f * w], axis=1)
    (alpha, inv_bw), *_ = np.linalg.lstsq(a, (measured - comp) * w, rcond=None)
    if inv_bw <= 0:
        raise ValueError("The table does not determine a positive bandwidth; include "
                         "large message sizes (MBs and up).")
    alpha = max(float(alpha), 0.0)
    bw = 1.0 / float(inv_bw)
    fitted = with_links(graph, alpha, bw)
    predicted = np.array([run(fitted, s, True) for s in sizes])
    return Calibration(alpha, bw, sizes, measured, predicted, fitted)


@dataclass
class ComputeCalibration:
    """Fitted ``scale`` of the reduction's compute term (1: as the model prices it, 2: the
    reductions take twice as long, i.e. half the receivers' modelled memory bandwidth)."""

    scale: float
    sizes: np.ndarray
    measured: np.ndarray
    predicted: np.ndarray

    @property
    def residuals(self) -> np.ndarray:
        return (self.predicted - self.measured) / self.measured

    def summary(self) -> str:
        return (f"reduction compute x{self.scale:.3g} of the model's (effective memory "
                f"bandwidth / {self.scale:.3g}); rms relative residual "
                f"{float(np.sqrt(np.mean(self.residuals ** 2))):.1%}")


def calibrate_compute(table, links: Calibration, algorithm: str = "ring",
                      num_devices: int | None = None, dtype="float32",
                      **params) -> ComputeCalibration:
    """Fit the compute term of a reducing collective, once ``links`` are calibrated.

    For a ring all-reduce the bandwidth and compute terms both grow with the size, so one
    table cannot tell them apart: fit the links first on a collective that only moves bytes
    (``calibrate(all_gather_table, collective="all_gather")``), then this fits the one
    factor ``scale`` on the all-reduce ``table``: ``t = links' time + scale * compute``
    (weighted least squares on relative error).

    Raises:
      TypeError: ``links`` is not a Calibration.
      ValueError: a malformed row, fewer than two sizes, or a fit without a positive scale.
    """
    if not isinstance(links, Calibration):
        raise TypeError(f"links must be the Calibration that calibrate() returns (fit on an "
                        f"all-gather table first), got {type(links).__name__}.")
    rows = _rows(table)
    return _calibrate_compute_impl(rows, links, algorithm, num_devices, dtype, params)


def _calibrate_compute_impl(rows, links, algorithm, num_devices, dtype, params):
    sizes = np.array([s for s, _ in rows], dtype=float)
    measured = np.array([t for _, t in rows]) * 1e-6
    free = with_links(links.graph, 0.0, 1e30)

    def run(g, size, compute):
        return price("all_reduce", algorithm, int(size), g, num_devices, dtype,
                     compute=compute, **params).time

    moved = np.array([run(links.graph, s, False) for s in sizes])
    comp = np.array([run(free, s, True) for s in sizes])
    w2 = 1.0 / measured ** 2
    denom = float(np.sum(w2 * comp * comp))
    scale = float(np.sum(w2 * comp * (measured - moved)) / denom) if denom > 0 else 0.0
    if scale <= 0:
        raise ValueError("The table does not determine a positive compute scale: include "
                         "large messages, and calibrate the links on an all-gather first.")
    return ComputeCalibration(scale, sizes, measured, moved + scale * comp)
