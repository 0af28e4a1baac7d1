"""nccl-tests style curves from the cost model: time and busbw against size and devices.

Glossary:
  sweep      -- ``collectives.price`` (cost only, no values) for each algorithm, message
                size and device count on one topology preset.
  crossover  -- the message size where two algorithms' times cross (the tuner switches
                from tree to ring there, as NCCL does).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from simdist import collectives
from simdist.viz.topology import sized_topology


def all_reduce_algorithms() -> list[str]:
    return [n for n, a in collectives.ALGORITHMS.items() if a.collective == "all_reduce"]


# Okabe-Ito colours (readable for colour-blind viewers and on a projector), then three more;
# with a dash and a marker per algorithm, so a curve hidden under another still shows.
_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000",
            "#882255", "#7f7f7f", "#332288")
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "solid", "dash", "dot", "longdashdot",
           "dashdot")
_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "triangle-down",
            "star", "pentagon", "hexagon")


def style(alg: str) -> dict:
    """The fixed colour, dash and marker of an algorithm (by its place in the registry)."""
    i = all_reduce_algorithms().index(alg)
    return dict(line=dict(color=_COLOURS[i % len(_COLOURS)], dash=_DASHES[i % len(_DASHES)]),
                marker=dict(symbol=_SYMBOLS[i % len(_SYMBOLS)], size=7))


def identical(sweep: dict) -> list[tuple[str, str]]:
    """Pairs of algorithms whose curves coincide (within 0.1%)."""
    names = list(sweep)
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
            if np.allclose(sweep[a]["time"], sweep[b]["time"], rtol=1e-3)]


def legend_names(sweep: dict) -> dict[str, str]:
    """Algorithm -> its legend entry: ``two_level (identical to ring)`` when its curve
    coincides with an earlier one's, so a curve hidden under another is named on the chart."""
    names = {alg: alg for alg in sweep}
    for a, b in identical(sweep):
        if names[b] == b:
            names[b] = f"{b} (identical to {a})"
    return names


def size_text(nbytes: int) -> str:
    """Bytes as KiB / MiB / GiB when a power of 1024 divides them."""
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if nbytes >= 2 ** k and nbytes % 2 ** k == 0:
            return f"{nbytes >> k} {unit}"
    return f"{nbytes:,} B"


def size_sweep(algorithms, preset: str, num_devices: int, min_log2: int = 10,
               max_log2: int = 30) -> dict:
    """``{algorithm: {"bytes": [...], "time": [...], "busbw": [...]}}`` over 2^k bytes."""
    topo = sized_topology(preset, num_devices)
    sizes = [2 ** k for k in range(int(min_log2), int(max_log2) + 1)]
    out = {}
    for alg in algorithms:
        costs = [collectives.price("all_reduce", alg, s, topology=topo,
                                   num_devices=num_devices) for s in sizes]
        out[alg] = {"bytes": sizes, "time": [c.time for c in costs],
                    "busbw": [c.busbw for c in costs]}
    return out


def device_sweep(algorithms, preset: str, nbytes: int, counts) -> dict:
    """``{algorithm: {"devices": [...], "time": [...], "busbw": [...]}}`` at one size."""
    out = {}
    for alg in algorithms:
        costs = [collectives.price("all_reduce", alg, int(nbytes),
                                   topology=sized_topology(preset, n), num_devices=n)
                 for n in counts]
        out[alg] = {"devices": list(counts), "time": [c.time for c in costs],
                    "busbw": [c.busbw for c in costs]}
    return out


def crossovers(sweep: dict, a: str, b: str) -> list[int]:
    """Message sizes (bytes) where ``a`` and ``b`` swap which one is faster."""
    if a not in sweep or b not in sweep:
        return []
    ta, tb = np.array(sweep[a]["time"]), np.array(sweep[b]["time"])
    sign = np.sign(ta - tb)
    idx = [i for i in range(1, len(sign)) if sign[i] != sign[i - 1] and sign[i] != 0]
    return [sweep[a]["bytes"][i] for i in idx]


def _metric_axis(metric: str) -> dict:
    # Times span decades (a parameter server is 100x a ring): a linear axis would flatten
    # every other algorithm onto zero.
    return dict(type="log" if metric == "time" else "linear",
                title="time (us)" if metric == "time" else "busbw (GB/s)")


def size_figure(sweep: dict, metric: str = "time") -> go.Figure:
    """Time (us) or busbw (GB/s) against message size, log-log, one line per algorithm."""
    fig = go.Figure()
    names = legend_names(sweep)
    for alg, d in sweep.items():
        y = [t * 1e6 for t in d["time"]] if metric == "time" else [b / 1e9 for b in d["busbw"]]
        fig.add_trace(go.Scatter(x=d["bytes"], y=y, mode="lines+markers", name=names[alg],
                                 **style(alg)))
    for x in crossovers(sweep, "ring", "tree"):
        fig.add_vline(x=x, line=dict(dash="dot", color="#495057"))
        # an annotation on a log axis takes log10(x) (add_vline's own label lands off-plot)
        fig.add_annotation(x=np.log10(x), y=1, yref="paper", yanchor="bottom",
                           xanchor="right", showarrow=False,
                           text=f"ring/tree cross: {size_text(x)}")
    fig.update_layout(height=420, xaxis=dict(type="log", title="message size (bytes)"),
                      yaxis=_metric_axis(metric),
                      title=f"all-reduce {metric} against message size",
                      margin=dict(l=10, r=10, t=70, b=10))
    return fig


def device_figure(sweep: dict, metric: str = "busbw") -> go.Figure:
    """Time (log axis) or busbw against device count, one line per algorithm."""
    fig = go.Figure()
    names = legend_names(sweep)
    for alg, d in sweep.items():
        y = [t * 1e6 for t in d["time"]] if metric == "time" else [b / 1e9 for b in d["busbw"]]
        fig.add_trace(go.Scatter(x=d["devices"], y=y, mode="lines+markers", name=names[alg],
                                 **style(alg)))
    fig.update_layout(height=380, xaxis=dict(type="log", title="devices", dtick=np.log10(2)),
                      yaxis=_metric_axis(metric),
                      title=f"all-reduce {metric} against device count",
                      margin=dict(l=10, r=10, t=70, b=10))
    return fig
