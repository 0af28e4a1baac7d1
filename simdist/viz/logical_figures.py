"""The logical view of one all-reduce step: a channel's ranks as the algorithm sees them.

Glossary:
  logical links -- grey: every rank pair the channel exchanges data over in the whole run
                   (a ring's cycle, a tree's edges).
  transfers     -- this step's transfers of the channel, one arrow per sender -> receiver
                   (its hover lists the chunks), orange when the receiver adds, blue when it
                   copies (the physical view's colours).
  nodes         -- one circle per rank with its number inside (servers: S0, S1 ...), so no
                   label can pile up on another.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from simdist.viz.logical import Channel, logical_links
from simdist.viz.sync import SyncRun, clamp_position, step_transfers
from simdist.viz.sync_figures import (
    COMBINE,
    COPY,
    _drawn,
    _route,
    _shift,
    _square_axes,
    transfer_text,
)


def logical_figure(run: SyncRun, k: int, channel: Channel) -> go.Figure:
    """``channel``'s ranks in its logical layout with the transfers of position ``k``."""
    pos, p = channel.pos, run.num_devices
    spots = list(pos.values())
    fig = go.Figure()
    ex, ey = [], []
    for a, b in sorted(logical_links(run.schedule, channel)):
        pts = _route(pos[a], pos[b], spots, clearance=0.09)
        ex += [x for x, _ in _drawn(pts)] + [None]
        ey += [y for _, y in _drawn(pts)] + [None]
    fig.add_trace(go.Scatter(x=ex, y=ey, mode="lines", hoverinfo="skip", name="logical links",
                             line=dict(color="#adb5bd", width=1.5, dash="dot")))
    pairs: dict = {}
    mine = [t for t in step_transfers(run, k) if channel.carries(t)]
    for t in mine:
        pairs.setdefault((t.src, t.dst, t.combine), []).append(t)
    for combine, color, label in ((True, COMBINE, "reduce (add)"), (False, COPY, "copy")):
        xs, ys, ax, ay, ang, text = [], [], [], [], [], []
        for (a, b, c), ts in pairs.items():
            if c != combine:
                continue
            pts = _shift(_route(pos[a], pos[b], spots, clearance=0.09), gap=0.035)
            xs += [x for x, _ in _drawn(pts)] + [None]
            ys += [y for _, y in _drawn(pts)] + [None]
            i = max(1, int(0.7 * (len(pts) - 1)))
            (x0, y0), (x1, y1) = pts[i - 1], pts[i]
            ax.append(x1)
            ay.append(y1)
            ang.append(90 - math.degrees(math.atan2(y1 - y0, x1 - x0)))
            text.append(transfer_text(ts))
        if not xs:
            continue
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=color, width=3),
                                 name=label, legendgroup=label, hoverinfo="skip"))
        fig.add_trace(go.Scatter(x=ax, y=ay, mode="markers", showlegend=False,
                                 legendgroup=label, name=f"{label} arrows",
                                 marker=dict(symbol="triangle-up", size=13, angle=ang,
                                             color=color),
                                 hovertext=text, hoverinfo="text"))
    ranks = sorted(pos)
    fig.add_trace(go.Scatter(
        x=[pos[r][0] for r in ranks], y=[pos[r][1] for r in ranks], mode="markers+text",
        text=[str(r) if r < p else f"S{r - p}" for r in ranks], textposition="middle center",
        textfont=dict(color="white", size=11), name="devices",
        hovertext=[f"rank {r}" if r < p else f"server {r - p}" for r in ranks],
        hoverinfo="text", marker=dict(size=24, color="#2f9e44", line=dict(color="white",
                                                                          width=1))))
    k = clamp_position(run, k)
    n = len(mine)
    what = "before the first step" if k == 0 else \
        f"step {k} of {run.schedule.num_steps}: {n} transfer{'s' if n != 1 else ''}"
    fig.update_layout(title=f"Logical: {channel.name} - {what}", height=470,
                      margin=dict(l=10, r=10, t=40, b=10), legend=dict(orientation="h"),
                      **_square_axes(ex + [x for x, _ in spots], ey + [y for _, y in spots],
                                     pad=0.2))
    return fig
