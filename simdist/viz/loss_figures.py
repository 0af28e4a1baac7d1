"""Figures of the loss-scaling page.

Glossary:
  parts figure  -- each replica's contribution to the summed loss, both ways, beside the
                   true mean: the correct parts add up to it, the wrong ones to N times it.
  scale figure  -- the dynamic loss scale per step (log 2 axis), skipped steps marked.
  underflow hist-- log10 |gradient| with and without scaling; bars of values float16
                   rounds to zero in red.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from simdist.viz.loss import LossComparison
from simdist.viz.mixed_precision import ScaleHistory


def parts_figure(c: LossComparison) -> go.Figure:
    """Stacked per-replica loss parts: compute_average_loss vs reduce_mean, and the truth."""
    fig = go.Figure()
    cols = ["compute_average_loss, SUM", "reduce_mean per replica, SUM (mistake)"]
    for r in range(c.num_replicas):
        fig.add_trace(go.Bar(x=cols, y=[c.correct_parts[r], c.wrong_parts[r]],
                             name=f"replica {r}"))
    fig.add_hline(y=c.true_loss, line=dict(color="black", dash="dash"),
                  annotation_text=f"true mean {c.true_loss:.4f}")
    fig.update_layout(barmode="stack", height=380, yaxis_title="loss after all-reduce SUM",
                      title=f"{c.num_replicas} replicas, global batch {c.global_batch}",
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def gradient_figure(c: LossComparison) -> go.Figure:
    """The summed gradient both ways against the true mean gradient."""
    fig = go.Figure(go.Bar(
        x=["true (one device)", "compute_average_loss", "reduce_mean (mistake)"],
        y=[c.true_grad, c.correct_grad, c.wrong_grad],
        marker_color=["#495057", "#2f9e44", "#e03131"],
        text=[f"{v:.4f}" for v in (c.true_grad, c.correct_grad, c.wrong_grad)]))
    fig.update_layout(height=320, title="Gradient dL/dw after all-reduce SUM",
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def per_example_figure(c: LossComparison) -> go.Figure:
    """Every replica's per-example losses (a replica may hold fewer, or none)."""
    fig = go.Figure()
    for r, losses in enumerate(c.per_replica_losses):
        fig.add_trace(go.Scatter(x=[r] * len(losses), y=losses, mode="markers",
                                 name=f"replica {r} ({len(losses)} examples)",
                                 marker=dict(size=10)))
    fig.update_layout(height=300, title="Per-example losses on each replica",
                      xaxis=dict(title="replica", dtick=1), margin=dict(l=10, r=10, t=40, b=10))
    return fig


def scale_figure(h: ScaleHistory) -> go.Figure:
    """The loss scale over steps; skipped (overflow) steps as red crosses."""
    steps = list(range(1, len(h.scale) + 1))
    skip = [s for s, a in zip(steps, h.applied) if not a]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=steps, y=h.scale, mode="lines+markers", name="loss scale",
                             line_shape="hv"))
    fig.add_trace(go.Scatter(x=skip, y=[h.scale[s - 1] for s in skip], mode="markers",
                             name="overflow: step skipped",
                             marker=dict(symbol="x", size=12, color="#e03131")))
    fig.update_layout(height=320, title="Dynamic loss scale", xaxis_title="step",
                      yaxis=dict(type="log", title="scale", dtick=np.log10(2)),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def underflow_figure(gradients, scale: float) -> go.Figure:
    """Histogram of log10 |g| (unscaled) and log10 |g * scale|, float16 zeros in red."""
    g = np.asarray(gradients, dtype=np.float32)
    fig = go.Figure()
    for label, s in (("no scaling", 1.0), (f"scaled x{scale:g}", scale)):
        v = g * np.float32(s)
        with np.errstate(over="ignore"):
            h = v.astype(np.float16)
        lost = (h == 0) & (v != 0)
        logs = np.log10(np.abs(v[v != 0]))
        fig.add_trace(go.Histogram(x=logs[~lost[v != 0]], name=f"{label}: kept",
                                   opacity=0.6, nbinsx=60))
        fig.add_trace(go.Histogram(x=logs[lost[v != 0]], name=f"{label}: float16 zero",
                                   opacity=0.9, nbinsx=60, marker_color="#e03131"))
    fig.add_vline(x=float(np.log10(np.finfo(np.float16).smallest_subnormal)),
                  line=dict(dash="dot"), annotation_text="float16 smallest")
    fig.update_layout(barmode="overlay", height=340, xaxis_title="log10 |gradient|",
                      title="float16 underflow with and without loss scaling",
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig
