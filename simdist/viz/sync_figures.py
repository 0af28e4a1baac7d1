"""Figures of one all-reduce step: the topology with its transfers, the buffers, the cost.

Glossary:
  link drawing   -- every topology link in grey; a transfer is drawn along its routed path
                    (through switches), orange when the receiver adds (combine), blue when
                    it copies; a triangle on each hop points from sender to receiver.
  buffer heatmap -- rows are ranks (devices, then servers), columns are chunks; colour and
                    text are how many replicas are already summed into that chunk (full
                    colour: all of them); cells written in this step are outlined.
  time split     -- the current step's critical transfer: latency + bandwidth + compute.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from simdist.viz.sync import SyncRun, clamp_position, contributions, step_cost, step_transfers
from simdist.viz.topology import cached_layout, outward_position, short_name

COMBINE, COPY = "#e8590c", "#1c7ed6"


def topology_figure(run: SyncRun, k: int) -> go.Figure:
    """The topology graph with the transfers of position ``k`` drawn on their links."""
    topo = run.topology
    pos = cached_layout(run.preset, run.num_devices)
    fig = go.Figure()
    ex, ey = [], []
    for u, v in topo.graph.edges:
        ex += [pos[u][0], pos[v][0], None]
        ey += [pos[u][1], pos[v][1], None]
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", line=dict(color="#ced4da", width=1),
                             hoverinfo="skip", name="links"))
    for combine, color, label in ((True, COMBINE, "reduce (add)"), (False, COPY, "copy")):
        xs, ys, ax, ay, ang, text = [], [], [], [], [], []
        for t in step_transfers(run, k):
            if t.combine != combine:
                continue
            path = topo.path(run.nodes[t.src], run.nodes[t.dst])
            for a, b in zip(path, path[1:]):
                (x0, y0), (x1, y1) = _offset(pos[a], pos[b])
                xs += [x0, x1, None]
                ys += [y0, y1, None]
                ax.append(x0 + 0.7 * (x1 - x0))
                ay.append(y0 + 0.7 * (y1 - y0))
                ang.append(90 - math.degrees(math.atan2(y1 - y0, x1 - x0)))
                text.append(f"rank {t.src} -> rank {t.dst}, chunks {t.chunk}.."
                            f"{t.chunk + t.nchunks - 1}")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=color, width=3),
                                 name=label, hoverinfo="skip"))
        fig.add_trace(go.Scatter(x=ax, y=ay, mode="markers", showlegend=False,
                                 marker=dict(symbol="triangle-up", size=11, angle=ang,
                                             color=color),
                                 hovertext=text, hoverinfo="text"))
    devs = set(run.nodes[:run.num_devices])
    for is_dev in (True, False):
        names = [v for v in topo.graph.nodes if (v in devs) == is_dev]
        kinds = [topo.graph.nodes[v].get("kind", "") for v in names]
        labels = [_node_label(v, run) for v in names]
        xy = [pos[v] for v in names]
        fig.add_trace(go.Scatter(
            x=[x for x, _ in xy], y=[y for _, y in xy],
            mode="markers+text" if is_dev and len(names) <= 16 else "markers",
            # switch labels are annotations (below), so their trace carries none
            text=labels if is_dev else None,
            textposition=[outward_position(x, y) for x, y in xy] if is_dev else None,
            name="devices" if is_dev else "switches/hosts",
            hovertext=[f"{v} ({kd})" for v, kd in zip(names, kinds)], hoverinfo="text",
            marker=dict(size=16 if is_dev else 11, symbol="circle" if is_dev else "square",
                        color="#2f9e44" if is_dev else "#868e96")))
        if not is_dev and len(names) <= 16:
            # Switches sit among the links: a label on a white box stays readable there.
            for label, (x, y) in zip(labels, xy):
                fig.add_annotation(x=x, y=y, text=label, showarrow=False, yshift=-16,
                                   font=dict(size=11, color="#495057"),
                                   bgcolor="rgba(255,255,255,0.85)")
    k = clamp_position(run, k)
    title = "before the first step" if k == 0 else (
        f"step {k} of {run.schedule.num_steps}: {run.schedule.steps[k - 1].phase}, "
        f"{len(step_transfers(run, k))} transfers")
    fig.update_layout(title=f"{run.topology.name} - {title}", height=460,
                      margin=dict(l=10, r=10, t=40, b=10), legend=dict(orientation="h"),
                      xaxis=dict(visible=False, range=[-1.25, 1.25]),
                      yaxis=dict(visible=False, range=[-1.25, 1.25], scaleanchor="x"))
    return fig


def _node_label(node, run: SyncRun) -> str:
    ranks = [r for r, n in enumerate(run.nodes) if n == node]
    name = short_name(node)
    return f"r{ranks[0]}" if ranks and ranks[0] < run.num_devices else name


def _offset(a, b, gap=0.025):
    """Shift a directed segment to its right so a->b and b->a do not overlap."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy) or 1.0
    ox, oy = gap * dy / norm, -gap * dx / norm
    return (x0 + ox, y0 + oy), (x1 + ox, y1 + oy)


def buffer_figure(run: SyncRun, k: int) -> go.Figure:
    """Each rank's buffer as chunks filling with partial sums after position ``k``."""
    state = contributions(run, k)
    counts = state.sum(axis=2)
    p = run.num_devices
    rows = [f"rank {r}" if r < p else f"server {r - p}" for r in range(state.shape[0])]
    fig = go.Figure(go.Heatmap(
        z=counts.tolist(), zmin=0, zmax=p, colorscale="Blues",
        texttemplate="%{z}" if counts.size <= 1024 else None,
        x=[f"c{c}" for c in range(counts.shape[1])], y=rows,
        colorbar=dict(title="replicas<br>summed", dtick=max(1, p // 8)),
        hovertemplate=f"%{{y}}, chunk %{{x}}: %{{z}} of the {p} replicas<extra></extra>"))
    cx, cy = [], []
    for t in step_transfers(run, k):
        for c in range(t.target, t.target + t.nchunks):
            cx.append(f"c{c}")
            cy.append(rows[t.dst])
    fig.add_trace(go.Scatter(x=cx, y=cy, mode="markers", name="written this step",
                             marker=dict(symbol="square-open", size=18, color=COMBINE,
                                         line=dict(width=2))))
    fig.update_layout(title="Buffers: replicas summed into each chunk", height=120 + 22 * len(rows),
                      margin=dict(l=10, r=10, t=40, b=10), yaxis=dict(autorange="reversed"),
                      showlegend=False)
    return fig


def step_time_figure(run: SyncRun, k: int) -> go.Figure:
    """The current step's critical transfer time split into latency, bandwidth, compute."""
    sc = step_cost(run, k)
    terms = {"latency": 0.0, "bandwidth": 0.0, "compute": 0.0}
    if sc is not None:
        terms = {"latency": sc.latency, "bandwidth": sc.bandwidth, "compute": sc.compute}
    fig = go.Figure()
    for name, color in zip(terms, ("#845ef7", "#1c7ed6", "#e8590c")):
        fig.add_trace(go.Bar(x=[terms[name] * 1e6], y=["this step"], orientation="h",
                             name=name, marker_color=color))
    fig.update_layout(barmode="stack", height=210, xaxis_title="microseconds",
                      title="Time of this step", margin=dict(l=10, r=10, t=40, b=10))
    return fig


def steps_figure(run: SyncRun, k: int) -> go.Figure:
    """Every step's time (stacked terms), the current one highlighted."""
    steps = run.cost.steps
    x = list(range(1, len(steps) + 1))
    fig = go.Figure()
    for name, color in (("latency", "#845ef7"), ("bandwidth", "#1c7ed6"),
                        ("compute", "#e8590c")):
        fig.add_trace(go.Bar(x=x, y=[getattr(s, name) * 1e6 for s in steps], name=name,
                             marker_color=color))
    k = clamp_position(run, k)
    if k:
        fig.add_vline(x=k, line=dict(color="black", dash="dot"))
    fig.update_layout(barmode="stack", height=240, xaxis_title="step",
                      yaxis_title="us", title="All steps", margin=dict(l=10, r=10, t=40, b=10))
    return fig


def totals(run: SyncRun) -> dict:
    """Totals of the whole collective: time, its terms, algbw and busbw."""
    c = run.cost
    return {"algorithm": run.algorithm, "steps": c.num_steps, "time_us": c.time * 1e6,
            "latency_us": c.latency * 1e6, "bandwidth_us": c.bandwidth * 1e6,
            "compute_us": c.compute * 1e6, "algbw_GBps": c.algbw / 1e9,
            "busbw_GBps": c.busbw / 1e9, "bytes": c.nbytes}


def values_frame(run: SyncRun, values, max_elements: int = 6) -> dict:
    """First elements of every rank's buffer beside the exact (float64) sum."""
    m = min(max_elements, run.inputs[0].size)
    exact = np.sum([a.reshape(-1)[:m].astype(np.float64) for a in run.inputs], axis=0)
    out = {"rank": [f"rank {r}" for r in range(run.num_devices)] + ["exact sum (float64)"]}
    for j in range(m):
        out[f"x[{j}]"] = [float(v[j]) for v in values[:run.num_devices]] + [float(exact[j])]
    return out


def ulp_figure(distances) -> go.Figure:
    """How many elements differ by 0, 1, 2 ... ULPs between two algorithms' results."""
    d = np.asarray(distances).reshape(-1)
    vals, counts = np.unique(d, return_counts=True)
    fig = go.Figure(go.Bar(x=[str(v) for v in vals], y=counts, marker_color="#845ef7"))
    fig.update_layout(height=260, title="Elements by ULP distance (same inputs)",
                      xaxis_title="ULPs apart", yaxis_title="elements",
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig
