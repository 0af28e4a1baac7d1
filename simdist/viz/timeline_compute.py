"""When the GPU kind matters: launch-bound against compute-bound steps, from the cost model.

Glossary:
  launch-bound  -- every op pays the device's fixed launch overhead (``launch_s``, 5 us on
                   V100, A100 and H100 alike); a tiny model's ops finish their arithmetic in
                   far less, so its step time is ops x 5 us whatever the GPU.
  compute-bound -- an op whose FLOPs / FLOP/s dwarf the launch: only there does an H100's
                   4x FLOP/s over a V100 show in the step time.
  layer step    -- one Dense(width -> width) layer's training step on a batch: the forward
                   matmul and the two backward matmuls (inputs' and weights' gradients),
                   each priced by ``Device.op_cost`` as the simulated GPU prices it.
"""

from __future__ import annotations

import math

import plotly.graph_objects as go

from simdist.hardware.device import Device
from simdist.hardware.specs import SPECS

KIND_COLOURS = {"V100": "#0072B2", "A100": "#E69F00", "H100": "#009E73"}
WIDTHS = [2 ** k for k in range(4, 15)]


def launch_share(run, kind: str) -> float:
    """The part of the run's GPU compute time that was launch overhead."""
    spans = [e[4] - e[3] for e in run.events if e[1] == "compute" and "GPU" in e[0]]
    return len(spans) * SPECS[kind].launch_s / sum(spans) if spans else 0.0


def compute_ops(run) -> int:
    """GPU compute ops of one replica in one step (the run's first GPU)."""
    gpus = sorted({e[0] for e in run.events if "GPU" in e[0]})
    ops = sum(1 for e in run.events if e[1] == "compute" and gpus and e[0] == gpus[0])
    return round(ops / max(run.steps, 1))


def layer_step_time(kind: str, width: int, batch: int) -> float:
    """Simulated seconds of one Dense(width -> width) training step's three matmuls."""
    dev = Device("/job:localhost/replica:0/task:0/device:GPU:0", SPECS[kind])
    flops = 2.0 * batch * width * width
    nbytes = 4.0 * (batch * width * 2 + width * width)
    return 3 * dev.op_cost(flops, nbytes)


def kind_figure(batch: int = 64, tiny: int = 32) -> go.Figure:
    """One layer step's time against width on each GPU kind: equal while launch-bound."""
    fig = go.Figure()
    for kind, colour in KIND_COLOURS.items():
        fig.add_trace(go.Scatter(x=WIDTHS, y=[layer_step_time(kind, w, batch) * 1e6
                                              for w in WIDTHS],
                                 mode="lines+markers", name=kind, line=dict(color=colour)))
    fig.add_vline(x=tiny, line=dict(dash="dot", color="#495057"))
    fig.add_annotation(x=math.log10(tiny), y=1, yref="paper", yanchor="bottom",
                       xanchor="left", showarrow=False, text=f"this page's model: {tiny} wide")
    fig.update_layout(height=360, title=f"One Dense layer's training step (batch {batch}) "
                                        "by GPU kind",
                      xaxis=dict(type="log", title="layer width (units)", dtick=0.30103,
                                 tickformat="d"),
                      yaxis=dict(type="log", title="simulated time (us)"),
                      legend=dict(orientation="h", y=-0.25),
                      margin=dict(l=10, r=10, t=70, b=10))
    return fig
