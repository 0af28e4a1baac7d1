"""Simulated vs measured: one collective's cost-model time beside a real clock's, as figures.

Glossary:
  Measurement -- ``collectives.measure``'s result: per message size the cost model's time
                 (``simulated``), the time really taken by the same schedule
                 (``measured``: simdist's executor on this backend's arrays, or NCCL on
                 GPUs) and the model's time after ``collectives.calibrate`` fitted it to
                 the measurements (``calibrated``); ``where`` says what ran where.
  sizes       -- nccl-tests sizes in bytes per rank, every power of 4 from 2^lo to 2^hi
                 (for all_gather the gathered output, rounded to p whole float32 parts).
  ratio       -- simulated / measured: 1 means the model predicts this machine; the
                 calibrated ratio is how close the fitted model comes.
  NCCL_LAST_PASSED -- when the NCCL path last passed its GPU tests (README, "Real
                 hardware": "last passed on: never"); None: the page says it is untested.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from simdist import collectives
from simdist.viz import world
from simdist.viz.topology import sized_topology

COLLECTIVES = ("all_reduce", "all_gather")
NCCL_LAST_PASSED = None    # README "Real hardware": NCCL last passed on: never
COLOURS = {"simulated": "#1c7ed6", "measured": "#e8590c", "calibrated": "#0ca678"}


def algorithms(collective: str) -> list[str]:
    """The registry's algorithms (schedules) for ``collective``, short names first."""
    return [name.split(".")[-1] for name, a in collectives.ALGORITHMS.items()
            if a.collective == collective]


def all_algorithms() -> list[str]:
    """Every algorithm of the page's collectives (a URL may name any of them)."""
    out = []
    for c in COLLECTIVES:
        out += [a for a in algorithms(c) if a not in out]
    return out


def sizes(lo: int, hi: int, unit: int = 4) -> list[int]:
    """2^lo, 2^(lo+2), ... up to 2^hi bytes (nccl-tests' factor 4), at least two sizes, each
    rounded down to a multiple of ``unit`` (an all_gather's output splits into p equal
    parts of whole elements, as nccl-tests rounds its counts)."""
    lo, hi = min(lo, hi), max(lo, hi)
    out = [2 ** k for k in range(lo, hi + 1, 2)]
    if out[-1] != 2 ** hi:
        out.append(2 ** hi)
    if len(out) < 2:
        out = [2 ** lo, 2 ** (lo + 2)]
    return [max(unit, s - s % unit) for s in out]


def run(collective: str, algorithm: str, preset: str, num_devices: int, lo: int, hi: int,
        repeats: int):
    """``collectives.measure`` of the schedule on a preset topology sized for the ranks."""
    topology = sized_topology(preset, num_devices)
    unit = 4 * (num_devices if collective == "all_gather" else 1)   # float32 elements
    with world.held():   # alone: another run at the same time would skew the timings
        return collectives.measure(collective, sizes(lo, hi, unit), algorithm,
                                   topology=topology,
                                   num_devices=num_devices, repeats=repeats)


def on_gpu(m) -> bool:
    """Whether the measured column came from GPUs (NCCL or CuPy arrays), not the host."""
    return m.engine == "nccl" or "cupy" in m.where


def _size_label(n: int) -> str:
    """``4 KiB`` for a whole number of KiB / MiB, else the bytes (``4,092 B``)."""
    for unit, scale in (("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n:,} B"


def _decades(values) -> list[float]:
    """A log axis range from a whole decade below the values to one above them, so that a
    labelled tick (10, 100, 1000 ...) lies on each side of every point."""
    logs = [math.log10(v) for v in values if v > 0]
    return [math.floor(min(logs)), math.ceil(max(logs))] if logs else [0, 1]


def time_figure(m) -> go.Figure:
    """Time against message size, log-log: simulated, measured, calibrated."""
    x = [r.size for r in m.rows]
    fig = go.Figure()
    series = [("simulated", "simulated (cost model)", [r.simulated for r in m.rows]),
              ("measured", f"measured ({'GPU' if on_gpu(m) else 'host'})",
               [r.measured for r in m.rows])]
    if all(r.calibrated is not None for r in m.rows):
        series.append(("calibrated", "calibrated model", [r.calibrated for r in m.rows]))
    for key, name, seconds in series:
        fig.add_trace(go.Scatter(
            x=x, y=[s * 1e6 for s in seconds], mode="lines+markers", name=name,
            line=dict(color=COLOURS[key], dash="dot" if key == "calibrated" else "solid"),
            hovertemplate="%{text}: %{y:.3g} us<extra>" + name + "</extra>",
            text=[_size_label(s) for s in x]))
    fig.update_layout(
        title=f"{m.collective} ({m.algorithm.split('.')[-1]}, {m.num_devices} ranks): time "
              "per call", height=380,
        xaxis=dict(title="message size per rank (bytes)", type="log",
                   tickvals=x, ticktext=[_size_label(s) for s in x]),
        yaxis=dict(title="time (us)", type="log", dtick=1,
                   range=_decades([s * 1e6 for _, _, v in series for s in v])),
        showlegend=True,   # also with one line (no calibrated fit): say what the line is
        legend=dict(orientation="h", y=-0.3, x=0), margin=dict(l=10, r=10, t=50, b=10))
    return fig


def ratio_figure(m) -> go.Figure:
    """simulated / measured and calibrated / measured per size; 1 is a perfect model."""
    x = [r.size for r in m.rows]
    fig = go.Figure(go.Scatter(
        x=x, y=[r.ratio for r in m.rows], mode="lines+markers", name="simulated / measured",
        line=dict(color=COLOURS["simulated"])))
    if all(r.calibrated is not None for r in m.rows):
        fig.add_trace(go.Scatter(
            x=x, y=[r.calibrated / r.measured for r in m.rows], mode="lines+markers",
            name="calibrated / measured",
            line=dict(color=COLOURS["calibrated"], dash="dot")))
    fig.add_hline(y=1, line=dict(color="#495057", width=1, dash="dash"),
                  annotation_text="model = measurement", annotation_position="top left")
    fig.update_layout(
        title="How far the model is from the measurement", height=380,
        xaxis=dict(title="message size per rank (bytes)", type="log",
                   tickvals=x, ticktext=[_size_label(s) for s in x]),
        yaxis=dict(title="model time / measured time", type="log", dtick=1,
                   range=_decades([y for t in fig.data for y in t.y] + [10.0])),
        showlegend=True,   # also with one line (no calibrated fit): say what the line is
        legend=dict(orientation="h", y=-0.3, x=0), margin=dict(l=10, r=10, t=50, b=10))
    return fig


def table(m) -> list[dict]:
    """The rows as the page's table shows them (times in microseconds)."""
    return [{"size per rank": _size_label(r.size),
             "simulated (us)": _sig(r.simulated * 1e6), "measured (us)": _sig(r.measured * 1e6),
             "calibrated (us)": None if r.calibrated is None else _sig(r.calibrated * 1e6),
             "simulated / measured": _sig(r.ratio)} for r in m.rows]


def _sig(x: float) -> float:
    """Four significant digits (a ratio of 0.0004 stays 0.0004)."""
    return float(f"{x:.4g}")
