"""Figures of the compute_average_loss tab.

Glossary:
  page colours  -- one meaning each on this tab: green is compute_average_loss (right),
                   red is reduce_mean (the mistake), grey is the true mean; replicas use
                   blues, purples, teals and browns, never red or green.
  parts figure  -- each replica's contribution to the summed loss, both ways, beside the
                   true mean: the correct parts add up to it, the wrong ones to about N
                   times it (NaN when a replica is empty: the mean of no examples).
  empty replica -- TF can give a replica no examples of a short global batch; its
                   compute_average_loss is 0, its reduce_mean 0/0 = NaN.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from simdist.viz.loss import LossComparison

CORRECT, MISTAKE, TRUE = "#2f9e44", "#e03131", "#495057"
REPLICA_COLOURS = ("#1971c2", "#6741d9", "#0b7285", "#a0522d", "#74c0fc", "#b197fc",
                   "#66d9e8", "#d9a066")
_MARGIN = dict(l=10, r=10, t=60, b=10)


def replica_colour(r: int) -> str:
    return REPLICA_COLOURS[r % len(REPLICA_COLOURS)]


def empty_replicas(c: LossComparison) -> list[int]:
    return [r for r, p in enumerate(c.per_replica_losses) if not p]


def fmt(v: float) -> str:
    """A loss or gradient as text (NaN written as TF prints it)."""
    return "nan" if math.isnan(v) else f"{v:.4f}"


def parts_figure(c: LossComparison) -> go.Figure:
    """Stacked per-replica loss parts: compute_average_loss vs reduce_mean, and the truth."""
    fig = go.Figure()
    cols = ["compute_average_loss<br>+ SUM", "reduce_mean<br>+ SUM (mistake)"]
    for r in range(c.num_replicas):
        parts = [c.correct_parts[r], c.wrong_parts[r]]
        fig.add_trace(go.Bar(x=cols, y=[0 if math.isnan(v) else v for v in parts],
                             name=f"replica {r}", marker_color=replica_colour(r),
                             customdata=[fmt(v) for v in parts],
                             hovertemplate=f"replica {r}: %{{customdata}}<extra></extra>"))
    totals = (c.correct_loss, c.wrong_loss)
    tops = [sum(v for v in parts if not math.isnan(v))
            for parts in (c.correct_parts, c.wrong_parts)]
    empty = empty_replicas(c)
    for x, total, top, colour in zip(cols, totals, tops, (CORRECT, MISTAKE)):
        # the sum written above its bar (in the bar's meaning colour), never on it
        fig.add_annotation(x=x, y=top, text=f"sum = {fmt(total)}", showarrow=False,
                           yanchor="bottom", yshift=4, font=dict(color=colour, size=14))
    if empty:
        fig.add_annotation(x=cols[1], y=tops[1], yanchor="bottom", yshift=24, showarrow=False,
                           text=f"replica{'s' if len(empty) > 1 else ''} "
                                f"{', '.join(map(str, empty))}: mean of 0 examples = nan",
                           font=dict(color=MISTAKE))
    fig.add_hline(y=c.true_loss, line=dict(color=TRUE, dash="dash"),
                  annotation_text=f"true mean {c.true_loss:.4f}",
                  annotation_position="bottom left")
    fig.update_layout(barmode="stack", height=420, yaxis_title="loss after all-reduce SUM",
                      yaxis_range=[min(0.0, *c.correct_parts), max(tops) * 1.3 or 1],
                      xaxis_tickangle=0,
                      title=f"{c.num_replicas} replicas, global batch {c.global_batch}",
                      margin=_MARGIN)
    return fig


def gradient_figure(c: LossComparison) -> go.Figure:
    """The summed gradient both ways against the true mean gradient."""
    vals = (c.true_grad, c.correct_grad, c.wrong_grad)
    fig = go.Figure(go.Bar(
        x=["true<br>(one device)", "compute_<br>average_loss", "reduce_mean<br>(mistake)"],
        y=vals, marker_color=[TRUE, CORRECT, MISTAKE], text=[fmt(v) for v in vals],
        textposition="outside", cliponaxis=False))
    fig.update_xaxes(tickangle=0)
    fig.update_layout(height=420, title="Gradient dL/dw after all-reduce SUM",
                      yaxis_title="dL/dw", margin=_MARGIN)
    return fig


def per_example_figure(c: LossComparison) -> go.Figure:
    """Every replica's per-example losses; an empty replica keeps its column, marked empty."""
    fig = go.Figure()
    for r, losses in enumerate(c.per_replica_losses):
        n = len(losses)
        fig.add_trace(go.Scatter(x=[r] * n, y=losses, mode="markers",
                                 name=f"replica {r} ({n} example{'' if n == 1 else 's'})",
                                 marker=dict(size=10, color=replica_colour(r))))
    for r in empty_replicas(c):
        fig.add_annotation(x=r, y=0, yref="paper", yanchor="bottom", showarrow=False,
                           text="empty", font=dict(color=replica_colour(r)))
    fig.update_layout(height=320, title="Per-example losses on each replica",
                      yaxis_title="squared error",
                      xaxis=dict(title="replica", tickvals=list(range(c.num_replicas)),
                                 range=[-0.5, c.num_replicas - 0.5]),
                      margin=_MARGIN)
    return fig
