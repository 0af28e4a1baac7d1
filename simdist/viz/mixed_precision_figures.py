"""Figures of one LossScaleOptimizer step: gradients against float16's range, scale history.

Glossary:
  class colours -- one colour per float16 outcome, the same in every chart of the tab:
                   underflow (lost to 0), subnormal (few bits left), normal, overflow (inf,
                   so the step is skipped: the skip marker has the overflow colour too).
  binade        -- the values between two powers of two: one histogram bar each.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from simdist.viz.mixed_precision import (
    CLASSES,
    FLOAT16_MAX,
    FLOAT16_NORMAL,
    FLOAT16_SUBNORMAL,
    LossScaleStep,
    classify,
)

CLASS_COLOURS = dict(zip(CLASSES, ("#f08c00", "#fcc419", "#1c7ed6", "#e03131")))
APPLIED_COLOUR = CLASS_COLOURS["normal"]
SKIPPED_COLOUR = CLASS_COLOURS["overflow to inf"]
_MARGIN = dict(l=10, r=10, t=60, b=10)
_LO, _INF_BIN = -34, 20   # the axis's first binade; where infinite products are counted
_MAX_LOG2 = float(np.log2(FLOAT16_MAX))
_RANGES = ((_LO, np.log2(FLOAT16_SUBNORMAL) - 1), (np.log2(FLOAT16_SUBNORMAL) - 1,
           np.log2(FLOAT16_NORMAL)), (np.log2(FLOAT16_NORMAL), _MAX_LOG2),
           (_MAX_LOG2, _INF_BIN + 1))
_RANGE_NAMES = dict(zip(CLASSES, ("-> 0", "subnormal", "normal", "-> inf")))


def _x_axis() -> dict:
    ticks = [-32, -24, -14, -8, 0, 8]
    return dict(tickvals=ticks + [_MAX_LOG2, _INF_BIN + 0.5],
                ticktext=[f"2^{k}" for k in ticks] + ["65504", "inf"],
                range=[_LO, _INF_BIN + 1], title="|scale x gradient| before float16 "
                                                 "rounds it (log2 axis)")


def pow2(v: float) -> str:
    """``2^k`` for an exact power of two, else the number."""
    if v > 0 and np.isfinite(v) and float(np.log2(v)).is_integer():
        return f"2^{int(np.log2(v))}"
    return f"{v:g}"


def _pow2_axis(lo: int, hi: int, every: int = 1, **kw) -> dict:
    ticks = list(range(lo, hi + 1, every))
    return dict(tickvals=ticks, ticktext=[f"2^{k}" for k in ticks], **kw)


def gradient_figure(s: LossScaleStep) -> go.Figure:
    """Counts of |scale * dL/dw| per binade, coloured by what float16 made of it, over
    float16's ranges (shaded and named in the class colours)."""
    exact = np.abs(s.exact)
    cls = classify(s.exact, s.scaled_grads)
    with np.errstate(divide="ignore"):
        logs = np.minimum(np.floor(np.log2(np.where(exact > 0, exact, np.nan))), _INF_BIN)
    bins = np.arange(_LO, _INF_BIN + 1)
    fig = go.Figure()
    for (x0, x1), name in zip(_RANGES, CLASSES):
        fig.add_vrect(x0=x0, x1=x1, fillcolor=CLASS_COLOURS[name], opacity=0.08,
                      line_width=0, annotation_text=_RANGE_NAMES[name],
                      annotation_position="top", annotation_font_color="#343a40")
    for i, name in enumerate(CLASSES):
        v = logs[(cls == i) & ~np.isnan(logs)]
        counts = [int((v == b).sum()) for b in bins]
        # Bars, not a histogram: a class with no gradient keeps its legend entry.
        fig.add_trace(go.Bar(x=bins + 0.5, y=counts, width=0.9, name=f"{name} ({len(v)})",
                             marker_color=CLASS_COLOURS[name]))
    fig.update_layout(barmode="stack", height=380, bargap=0,
                      title=f"step {s.step}: gradients x {pow2(s.scale)} in float16",
                      xaxis=_x_axis(), yaxis_title=f"gradients (of {len(exact)})",
                      margin=_MARGIN, legend=dict(orientation="h", y=-0.25, traceorder="normal"))
    return fig


def scale_figure(steps: list[LossScaleStep], upto: int) -> go.Figure:
    """The loss scale of steps 1..upto; skipped steps as crosses in the overflow colour."""
    shown = steps[:upto]
    x = [s.step for s in shown]
    logs = [np.log2(s.scale) for s in steps]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x, y=[np.log2(s.scale) for s in shown], mode="lines+markers",
                             name="loss scale", line_shape="hv",
                             line=dict(color="#343a40"),
                             marker=dict(color=[APPLIED_COLOUR if s.applied else SKIPPED_COLOUR
                                                for s in shown])))
    skip = [s for s in shown if not s.applied]
    fig.add_trace(go.Scatter(x=[s.step for s in skip], y=[np.log2(s.scale) for s in skip],
                             mode="markers", name="overflow to inf: step skipped, scale halved",
                             marker=dict(symbol="x", size=13, color=SKIPPED_COLOUR)))
    lo, hi = int(min(logs)) - 1, int(max(logs)) + 1
    fig.update_layout(height=400, title=f"loss scale, steps 1..{upto} of {len(steps)}",
                      xaxis=dict(range=[0.5, len(steps) + 0.5], title="training step"),
                      yaxis=_pow2_axis(lo, hi, max(1, (hi - lo) // 8), range=[lo, hi],
                                       title="loss scale"),
                      margin=_MARGIN, legend=dict(orientation="h", y=-0.2))
    return fig
