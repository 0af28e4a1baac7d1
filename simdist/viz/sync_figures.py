"""Figures of one all-reduce step: the topology with its transfers, the buffers, the cost.

Glossary:
  link drawing   -- every topology link in grey; a link that would cross another node's
                    marker (a torus's wrap-around) is bowed around it. A transfer is drawn
                    along its routed path (through switches), orange when the receiver adds
                    (combine), blue when it copies, with ONE arrowhead, on its last hop: a
                    transfer over several hops reads as one transfer.
  buffer heatmap -- rows are ranks (devices, then servers), columns are chunks; colour and
                    text are how many replicas are already summed into that chunk (full
                    colour: all of them); cells written in this step are outlined.
  time split     -- the current step's critical transfer: latency + bandwidth + compute.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from simdist.viz.logical import Channel
from simdist.viz.sync import SyncRun, clamp_position, contributions, step_cost, step_transfers
from simdist.viz.topology import cached_layout, node_of, outward_position, short_name
from simdist.viz.ulp import ulp_bins

# Named on hover only: several per machine, close together (their labels would pile up).
UNLABELLED_KINDS = ("nic",)
# One meaning per colour on the page: the transfers' kinds, then the cost terms.
COMBINE, COPY = "#e8590c", "#1c7ed6"
TERMS = {"latency": "#845ef7", "bandwidth": "#0c8599", "compute": "#a0522d"}


def topology_figure(run: SyncRun, k: int, channel: Channel | None = None) -> go.Figure:
    """The topology graph with the transfers of position ``k`` drawn along their routed links,
    aggregated per link (a wider line carries more transfers). ``channel``'s transfers are
    drawn in full colour with one arrowhead per route; the other channels' are faded."""
    topo = run.topology
    pos = cached_layout(run.preset, run.num_devices)
    fig = go.Figure()
    spots = list(pos.values())
    ex, ey = [], []
    for u, v in topo.graph.edges:
        pts = _route(pos[u], pos[v], spots)
        ex += [x for x, _ in _drawn(pts)] + [None]
        ey += [y for _, y in _drawn(pts)] + [None]
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", line=dict(color="#ced4da", width=1),
                             hoverinfo="skip", name="links"))
    hops: dict = {}          # (a, b, combine, mine) -> transfers crossing the hop a -> b
    routes: dict = {}        # (path, combine) -> this channel's transfers along it
    for t in step_transfers(run, k):
        mine = channel is None or channel.carries(t)
        path = tuple(topo.path(run.nodes[t.src], run.nodes[t.dst]))
        for a, b in zip(path, path[1:]):
            hops[a, b, t.combine, mine] = hops.get((a, b, t.combine, mine), 0) + 1
        if mine:
            routes.setdefault((path, t.combine), []).append(t)
    for mine in (False, True):
        for combine, color, label in ((True, COMBINE, "reduce (add)"), (False, COPY, "copy")):
            _draw_hops(fig, pos, spots, {(a, b): n for (a, b, c, m), n in hops.items()
                                         if c == combine and m == mine},
                       color if mine else color + "59",
                       label if mine or channel is None else f"{label}, other channels",
                       faded=not mine)
            _draw_heads(fig, pos, spots, {p: ts for (p, c), ts in routes.items()
                                          if c == combine and mine}, color, label)
    _draw_nodes(fig, run, pos)
    k = clamp_position(run, k)
    n = len(step_transfers(run, k))
    title = "before the first step" if k == 0 else (
        f"step {k} of {run.schedule.num_steps}: {run.schedule.steps[k - 1].phase}, "
        f"{n} transfer{'s' if n != 1 else ''}")
    fig.update_layout(title=f"Physical: {run.topology.name} - {title}", height=470,
                      margin=dict(l=10, r=10, t=40, b=10), legend=dict(orientation="h"),
                      **_square_axes(ex, ey))
    return fig


def _square_axes(xs, ys, pad=0.3) -> dict:
    """Hidden axes fitted to the drawing (plus room for labels), one unit as long on both."""
    xs = [v for v in xs if v is not None] or [0.0]
    ys = [v for v in ys if v is not None] or [0.0]
    return dict(xaxis=dict(visible=False, range=[min(xs) - pad, max(xs) + pad]),
                yaxis=dict(visible=False, range=[min(ys) - pad, max(ys) + pad],
                           scaleanchor="x"))


def _draw_hops(fig, pos, spots, hops: dict, color, label, faded):
    """One line per hop, its width growing with the transfers that cross it (one trace per
    width, one legend entry)."""
    by_width: dict = {}
    for (a, b), n in hops.items():
        width = (1.5 + 0.75 * (n - 1) if faded else 2.5 + 1.5 * (n - 1))
        by_width.setdefault(min(width, 9.0), []).append((a, b))
    first = True
    for width, items in sorted(by_width.items()):
        xs, ys = [], []
        for a, b in items:
            pts = _shift(_route(pos[a], pos[b], spots))
            xs += [x for x, _ in _drawn(pts)] + [None]
            ys += [y for _, y in _drawn(pts)] + [None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=color, width=width),
                                 name=label, legendgroup=label, showlegend=first,
                                 hoverinfo="skip"))
        first = False


def _draw_heads(fig, pos, spots, routes: dict, color, label):
    """One arrowhead per route, on its last hop, pointing at the receiver; the hover lists
    the transfers (a multi-hop transfer reads as one transfer)."""
    ax, ay, ang, text = [], [], [], []
    for path, ts in routes.items():
        pts = _shift(_route(pos[path[-2]], pos[path[-1]], spots))
        i = max(1, int(0.75 * (len(pts) - 1)))
        (x0, y0), (x1, y1) = pts[i - 1], pts[i]
        ax.append(x1)
        ay.append(y1)
        ang.append(90 - math.degrees(math.atan2(y1 - y0, x1 - x0)))
        text.append(transfer_text(ts, len(path) - 1))
    fig.add_trace(go.Scatter(x=ax, y=ay, mode="markers", showlegend=False,
                             name=f"{label} arrows", legendgroup=label,
                             marker=dict(symbol="triangle-up", size=12, angle=ang,
                                         color=color),
                             hovertext=text, hoverinfo="text"))


def transfer_text(ts, hops=None) -> str:
    """``rank 1 -> rank 2 (2 hops): chunks 4, 36`` for transfers between the same two ranks."""
    chunks = sorted(c for t in ts for c in range(t.chunk, t.chunk + t.nchunks))
    shown = ", ".join(map(str, chunks[:6])) + (", ..." if len(chunks) > 6 else "")
    via = "" if hops is None else f" ({hops} hop{'s' if hops != 1 else ''})"
    return (f"rank {ts[0].src} -> rank {ts[0].dst}{via}: chunk{'s' if len(chunks) != 1 else ''}"
            f" {shown}")


def _draw_nodes(fig, run: SyncRun, pos):
    """Devices (green, labelled outward) and switches/hosts (grey; a machine's switch is
    named in a box, NICs and hosts on hover only)."""
    topo = run.topology
    devs = set(run.nodes[:run.num_devices])
    centres = _machine_centres(devs, pos)
    for is_dev in (True, False):
        names = [v for v in topo.graph.nodes if (v in devs) == is_dev]
        kinds = [topo.graph.nodes[v].get("kind", "") for v in names]
        labels = [_node_label(v, run) for v in names]
        xy = [pos[v] for v in names]
        fig.add_trace(go.Scatter(
            x=[x for x, _ in xy], y=[y for _, y in xy],
            mode="markers+text" if is_dev and len(names) <= 16 else "markers",
            text=labels if is_dev else None,
            textposition=[outward_position(x, y, *centres[node_of(v)])
                          for v, (x, y) in zip(names, xy)] if is_dev else None,
            name="devices" if is_dev else "switches/hosts",
            hovertext=[f"{v} ({kd})" for v, kd in zip(names, kinds)], hoverinfo="text",
            marker=dict(size=16 if is_dev else 11, symbol="circle" if is_dev else "square",
                        color="#2f9e44" if is_dev else "#868e96")))
        if not is_dev and len(names) <= 16:
            for label, kind, (x, y) in zip(labels, kinds, xy):
                if kind in UNLABELLED_KINDS:
                    continue
                fig.add_annotation(x=x, y=y, text=label, showarrow=False, yshift=-16,
                                   font=dict(size=11, color="#495057"),
                                   bgcolor="rgba(255,255,255,0.85)")


def _machine_centres(devices, pos) -> dict:
    """Machine number -> (centre, radius) of its devices' circle, so labels point away from
    their own machine's centre (not the figure's)."""
    groups: dict = {}
    for d in devices:
        groups.setdefault(node_of(d), []).append(pos[d])
    out = {}
    for key, pts in groups.items():
        cx, cy = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
        out[key] = ((cx, cy), max(max(math.hypot(x - cx, y - cy) for x, y in pts), 1e-9))
    return out


def _node_label(node, run: SyncRun) -> str:
    ranks = [r for r, n in enumerate(run.nodes) if n == node]
    if ranks and ranks[0] < run.num_devices:
        return f"r{ranks[0]}"
    # a machine's switch or host: its kind and machine number, short enough not to pile up;
    # its own name when the machine has two of that kind (a DGX-1's CPU:0 and CPU:1)
    graph = run.topology.graph
    machine = node_of(node)
    kind = graph.nodes[node].get("kind", "")
    twins = sum(node_of(v) == machine and graph.nodes[v].get("kind", "") == kind
                for v in graph.nodes)
    if machine is None or not kind or twins > 1:
        return short_name(node)
    return f"{kind} {machine}"


def _drawn(pts):
    """The points a line needs: a straight route's two ends (its part-way points are only
    for placing an arrowhead), a bowed one's every point. Fewer points, faster figures."""
    (x0, y0), (xm, ym), (x1, y1) = pts[0], pts[len(pts) // 2], pts[-1]
    straight = abs((xm - x0) * (y1 - y0) - (ym - y0) * (x1 - x0)) < 1e-12
    return [pts[0], pts[-1]] if straight else pts


def _shift(pts, gap=0.025):
    """Shift a directed hop to its right so a->b and b->a do not overlap."""
    (x0, y0), (x1, y1) = pts[0], pts[-1]
    dx, dy = x1 - x0, y1 - y0
    norm = math.hypot(dx, dy) or 1.0
    ox, oy = gap * dy / norm, -gap * dx / norm
    return [(x + ox, y + oy) for x, y in pts]


def _route(a, b, spots, clearance=0.06, lift=0.14, n=12):
    """The points a link is drawn through (``n + 1``, so an arrowhead can sit part-way):
    straight, or bowed outward (away from the centre) by ``lift`` when the straight line
    would pass over another node's marker."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    length2 = dx * dx + dy * dy or 1.0
    blocked = False
    for sx, sy in spots:
        t = ((sx - x0) * dx + (sy - y0) * dy) / length2
        if 0.02 < t < 0.98 and abs((sx - x0) * dy - (sy - y0) * dx) / math.sqrt(length2) \
                < clearance:
            blocked = True
            break
    if not blocked:
        return [(x0 + dx * i / n, y0 + dy * i / n) for i in range(n + 1)]
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    px, py = -dy, dx                                  # perpendicular, length = the link's
    if px * mx + py * my < 0 or (abs(mx) + abs(my) < 1e-9 and px < 0):
        px, py = -px, -py                             # bow away from the centre
    bow = 2 * lift / math.sqrt(length2)             # a Bezier's peak is half its control's
    cx, cy = mx + bow * px, my + bow * py
    return [((1 - u) ** 2 * x0 + 2 * (1 - u) * u * cx + u * u * x1,
             (1 - u) ** 2 * y0 + 2 * (1 - u) * u * cy + u * u * y1)
            for u in (i / n for i in range(n + 1))]


# More chunk columns than this cannot be read at 1024 px: show one channel's chunks, then
# average neighbouring columns.
MAX_COLUMNS = 24


def buffer_columns(run: SyncRun, channel: Channel | None = None) -> list[list[int]]:
    """The chunks of each heat-map column: every chunk on its own when they fit; else only
    ``channel``'s chunks, grouped so at most ``MAX_COLUMNS`` columns remain."""
    chunks = list(range(run.schedule.num_chunks))
    if len(chunks) > MAX_COLUMNS and channel is not None:
        chunks = sorted(channel.chunks)
    g = -(-len(chunks) // MAX_COLUMNS)
    return [chunks[i:i + g] for i in range(0, len(chunks), g)]


def buffer_figure(run: SyncRun, k: int, channel: Channel | None = None) -> go.Figure:
    """Each rank's buffer as chunks filling with partial sums after position ``k`` (when
    there are too many chunks: ``buffer_columns``, each column the mean of its chunks)."""
    state = contributions(run, k)
    counts = state.sum(axis=2)
    p = run.num_devices
    columns = buffer_columns(run, channel)
    grouped = any(len(c) > 1 for c in columns)
    names = [f"c{c[0]}" if len(c) == 1 else f"c{c[0]}-{c[-1]}" for c in columns]
    z = np.stack([counts[:, c].mean(axis=1) for c in columns], axis=1)
    rows = [f"rank {r}" if r < p else f"server {r - p}" for r in range(state.shape[0])]
    fig = go.Figure(go.Heatmap(
        z=z.tolist(), zmin=0, zmax=p, colorscale="Blues", x=names, y=rows,
        texttemplate=("%{z:.1f}" if grouped else "%{z}") if z.size <= 1024 else None,
        colorbar=dict(title="replicas<br>summed", dtick=max(1, p // 8)),
        hovertemplate=f"%{{y}}, chunk %{{x}}: %{{z}} of the {p} replicas"
                      + (" (mean)" if grouped else "") + "<extra></extra>"))
    where = {c: j for j, cs in enumerate(columns) for c in cs}
    marks = {}
    for t in step_transfers(run, k):
        for c in range(t.target, t.target + t.nchunks):
            if c in where:
                marks[names[where[c]], rows[t.dst]] = COMBINE if t.combine else COPY
    fig.add_trace(go.Scatter(x=[x for x, _ in marks], y=[y for _, y in marks], mode="markers",
                             name="written this step",
                             marker=dict(symbol="square-open", size=18,
                                         color=list(marks.values()), line=dict(width=2))))
    shown = sum(map(len, columns))
    what = "each chunk" if shown == run.schedule.num_chunks else (
        f"the {shown} chunks of {channel.name}" if channel is not None else f"{shown} chunks")
    fig.update_layout(title=f"Buffers: replicas summed into {what}"
                      + (f" ({len(columns[0])} chunks per column, mean)" if grouped else ""),
                      height=120 + 22 * len(rows), margin=dict(l=10, r=10, t=40, b=10),
                      yaxis=dict(autorange="reversed"), showlegend=False)
    return fig


def step_time_figure(run: SyncRun, k: int) -> go.Figure:
    """The current step's critical transfer time split into latency, bandwidth, compute."""
    sc = step_cost(run, k)
    terms = {"latency": 0.0, "bandwidth": 0.0, "compute": 0.0}
    if sc is not None:
        terms = {"latency": sc.latency, "bandwidth": sc.bandwidth, "compute": sc.compute}
    fig = go.Figure()
    for name, color in TERMS.items():
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
    for name, color in TERMS.items():
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


def written(run: SyncRun, k: int) -> dict[tuple[int, int], bool]:
    """(rank, chunk) -> combine, for what the transfers of position ``k`` write."""
    return {(t.dst, c): t.combine for t in step_transfers(run, k)
            for c in range(t.target, t.target + t.nchunks) if t.dst < run.num_devices}


def values_frame(run: SyncRun, values, k: int = 0, max_columns: int = 8) -> dict:
    """The first element of each chunk this step writes (at position 0: of the first
    chunks), on every rank, beside the exact (float64) sum; ``changed`` lists the
    (row, column, combine) cells this step wrote, for highlighting."""
    hit = written(run, k)
    chunks = sorted({c for _, c in hit}) or list(range(run.schedule.num_chunks))
    cols = [(c, int(run.bounds[c])) for c in chunks[:max_columns]
            if run.bounds[c] < run.bounds[c + 1]]
    exact = np.sum([a.reshape(-1).astype(np.float64) for a in run.inputs], axis=0)
    out = {"rank": [f"rank {r}" for r in range(run.num_devices)] + ["exact sum (float64)"]}
    changed = []
    for j, (c, e) in enumerate(cols):
        out[f"x[{e}] (chunk {c})"] = ([float(v[e]) for v in values[:run.num_devices]]
                                      + [float(exact[e])])
        changed += [(r, j + 1, hit[r, c]) for r in range(run.num_devices) if (r, c) in hit]
    return {"frame": out, "changed": changed}


def ulp_figure(distances) -> go.Figure:
    """How many elements differ by 0, 1, 2, 3-4, 5-8 ... ULPs between two algorithms'
    results; the count axis is logarithmic, so a single far outlier stays visible beside
    the hundreds of identical elements."""
    labels, counts = ulp_bins(distances)
    fig = go.Figure(go.Bar(x=labels, y=[c or None for c in counts], marker_color="#495057",
                           name="elements", text=counts, textposition="outside",
                           cliponaxis=False))
    top = max(max(counts), 1)
    fig.update_layout(height=280, title="Elements by ULP distance (same inputs)",
                      xaxis=dict(title="ULPs apart", type="category"),
                      yaxis=dict(title="elements (log scale)", type="log",
                                 range=[-0.2, math.log10(top) + 0.5]),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def values_styler(values: dict):
    """The values frame as a pandas Styler with this step's written cells highlighted."""
    import pandas as pd

    df = pd.DataFrame(values["frame"])
    mark = pd.DataFrame("", index=df.index, columns=df.columns)
    for r, j, combine in values["changed"]:       # the colour of the transfer that wrote it
        mark.iloc[r, j] = f"background-color: {COMBINE if combine else COPY}40; " \
                          "font-weight: bold"
    return df.style.apply(lambda _: mark, axis=None).format(precision=6, subset=df.columns[1:])
