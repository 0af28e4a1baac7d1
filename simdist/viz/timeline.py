"""Train a small Keras model under a strategy and draw what the trace recorded.

Glossary:
  TrainingRun  -- the History of ``model.fit``, the trace events of the simulated machine,
                  the number of steps run and the simulated wall time.
  Gantt        -- one row per device, one bar per traced span (compute, transfer,
                  collective); the gaps are idle time.
  step time    -- simulated time / optimizer steps.
  efficiency   -- weak scaling (fixed per-replica batch): t(1 GPU) / t(N GPUs) per step;
                  1.0 means adding GPUs cost no communication time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from simdist.viz import world
from simdist.viz.topology import short_name

CROSS_DEVICE_OPS = ["NcclAllReduce", "HierarchicalCopyAllReduce", "ReductionToOneDevice"]
STRATEGIES = [f"MirroredStrategy({c})" for c in CROSS_DEVICE_OPS] + ["OneDeviceStrategy"]
GPU_KINDS = ["V100", "A100", "H100"]
COLORS = {"compute": "#2f9e44", "transfer": "#1c7ed6", "collective": "#e8590c",
          "input": "#845ef7"}


@dataclass
class TrainingRun:
    """What one ``model.fit`` produced: losses, trace, steps and simulated time."""

    strategy: str
    num_gpus: int
    losses: list
    events: list
    chrome_trace: dict
    steps: int
    sim_time: float

    @property
    def step_time(self) -> float:
        return self.sim_time / max(self.steps, 1)


def _strategy(tf, name: str, devices):
    if name == "OneDeviceStrategy":
        return tf.distribute.OneDeviceStrategy(devices[0])
    ops = name[name.index("(") + 1:-1]
    return tf.distribute.MirroredStrategy(devices, cross_device_ops=getattr(tf.distribute,
                                                                             ops)())


def train(strategy: str = STRATEGIES[0], num_gpus: int = 4, gpu: str = "V100",
          epochs: int = 2, per_replica_batch: int = 16, num_examples: int = 256,
          seed: int = 0) -> TrainingRun:
    """Fit a two-layer regression model on simulated GPUs and collect its trace."""
    import simdist as tf
    from simdist.hardware.machine import get_machine

    if strategy not in STRATEGIES:
        raise ValueError(f"Unknown strategy {strategy!r}; choose one of {STRATEGIES}.")
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(num_examples, 8)).astype("float32")
    y = (x @ rng.normal(size=(8, 1))).astype("float32")
    with world.fresh(f"gpus={int(num_gpus)},kind={gpu}"):
        # Not tf.random.set_seed alone: Keras's unseeded initializers would not repeat.
        tf.keras.utils.set_random_seed(seed)
        devices = [d.name for d in tf.config.list_logical_devices("GPU")][:int(num_gpus)]
        strat = _strategy(tf, strategy, devices)
        replicas = strat.num_replicas_in_sync
        with strat.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"),
                                         tf.keras.layers.Dense(1)])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
        hist = model.fit(x, y, batch_size=per_replica_batch * replicas, epochs=int(epochs),
                         verbose=0)
        trace = get_machine().trace
        events = [(e.device, e.cat, e.name, e.start, e.end) for e in trace.events]
        chrome = trace.to_chrome()
    steps = int(epochs) * -(-num_examples // (per_replica_batch * replicas))
    sim_time = max((e[4] for e in events), default=0.0)
    return TrainingRun(strategy, int(num_gpus), list(hist.history["loss"]), events, chrome,
                       steps, sim_time)


def chrome_json(run: TrainingRun) -> str:
    """The Chrome trace (Perfetto opens it) as a JSON string."""
    return json.dumps(run.chrome_trace)


def loss_figure(run: TrainingRun) -> go.Figure:
    fig = go.Figure(go.Scatter(x=list(range(1, len(run.losses) + 1)), y=run.losses,
                               mode="lines+markers", name="loss"))
    fig.update_layout(height=280, title="Training loss per epoch", yaxis_title="mse",
                      xaxis=dict(title="epoch", dtick=1, range=[0.5, len(run.losses) + 0.5]),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def gantt_figure(run: TrainingRun, window: tuple[float, float] | None = None) -> go.Figure:
    """Per-device spans of the trace (optionally only those inside ``window`` seconds)."""
    lo, hi = window or (0.0, run.sim_time)
    fig = go.Figure()
    for cat, color in COLORS.items():
        ev = [e for e in run.events if e[1] == cat and e[4] >= lo and e[3] <= hi]
        if not ev:
            continue
        fig.add_trace(go.Bar(
            y=[short_name(e[0]) for e in ev], x=[(e[4] - e[3]) * 1e6 for e in ev],
            base=[e[3] * 1e6 for e in ev], orientation="h", name=cat, marker_color=color,
            hovertext=[e[2] for e in ev], hoverinfo="text+x"))
    fig.update_layout(barmode="overlay", height=320, title="Per-device timeline (gaps: idle)",
                      xaxis_title="simulated time (us)", margin=dict(l=10, r=10, t=40, b=10),
                      xaxis=dict(range=[lo * 1e6, hi * 1e6]))
    return fig


def busy_fractions(run: TrainingRun) -> dict:
    """device -> {cat: fraction of the simulated time} plus ``idle``."""
    out: dict = {}
    total = run.sim_time or 1.0
    for dev, cat, _, start, end in run.events:
        d = out.setdefault(short_name(dev), {c: 0.0 for c in COLORS})
        d[cat] = d.get(cat, 0.0) + (end - start) / total
    for d in out.values():
        d["idle"] = max(0.0, 1.0 - sum(d.values()))
    return out


def busy_figure(run: TrainingRun) -> go.Figure:
    fr = busy_fractions(run)
    devs = sorted(fr)
    fig = go.Figure()
    for cat, color in list(COLORS.items()) + [("idle", "#dee2e6")]:
        fig.add_trace(go.Bar(y=devs, x=[fr[d].get(cat, 0.0) for d in devs], name=cat,
                             orientation="h", marker_color=color))
    fig.update_layout(barmode="stack", height=260, title="Where each device's time went",
                      xaxis=dict(tickformat=".0%"), margin=dict(l=10, r=10, t=40, b=10))
    return fig


def efficiency_figure(runs: list[TrainingRun]) -> go.Figure:
    """Step time and efficiency of ``runs``: one training per GPU count with the same
    per-replica batch and epochs (weak scaling), fewest GPUs first."""
    base = runs[0].step_time * runs[0].num_gpus / max(runs[0].num_gpus, 1)
    n = [r.num_gpus for r in runs]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=n, y=[r.step_time * 1e6 for r in runs], name="step time (us)",
                             mode="lines+markers"))
    fig.add_trace(go.Scatter(x=n, y=[base / r.step_time for r in runs], name="efficiency",
                             mode="lines+markers", yaxis="y2"))
    fig.update_layout(height=300, title="Step time and weak-scaling efficiency",
                      xaxis=dict(title="GPUs", type="log", dtick=np.log10(2)),
                      yaxis=dict(title="step time (us)"),
                      yaxis2=dict(title="efficiency", overlaying="y", side="right",
                                  range=[0, 1.1], tickvals=[0, 0.25, 0.5, 0.75, 1],
                                  tickformat=".0%", showgrid=False),
                      # Above the plot: at the right it would cover the efficiency axis.
                      legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"),
                      margin=dict(l=10, r=10, t=70, b=10))
    return fig
