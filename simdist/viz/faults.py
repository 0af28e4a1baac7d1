"""A simulated cluster training with a fault injected (simdist.faults), and its pictures.

Glossary:
  FaultRun     -- what a custom training loop of ``MultiWorkerMirroredStrategy`` over
                  ``workers`` CPU workers (one replica each, as the tutorials run them) did
                  with one fault: the loss and simulated time of every step it finished, the
                  error that ended it (a killed worker's UnavailableError), the trace.
  kinds        -- ``none``, ``kill`` (worker ``task`` dies as step ``at_step`` begins),
                  ``straggler`` (its ops ``factor`` times slower), ``slow link`` (between
                  workers ``task`` and the next one, ``factor`` times slower).
  timeline     -- one row per worker: compute, transfers, the fault's events and the
                  survivors' wait for a lost task.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from simdist.viz import world

KINDS = ("kill", "straggler", "slow link", "none")
STEPS = 8
# One colour per meaning (the app's rule): ops, transfers, the fault, the wait it causes.
COLORS = {"compute": "#2f9e44", "transfer": "#1c7ed6", "fault": "#c92a2a",
          "waiting for the lost task": "#ffa8a8"}


@dataclass
class FaultRun:
    """One faulty training run: per-step losses and times, the error, the trace."""

    workers: int
    kind: str
    task: int
    at_step: int
    factor: float
    losses: list
    step_times: list
    error: str | None
    events: list
    chrome_trace: dict

    @property
    def fault_events(self) -> list:
        return [e for e in self.events if e[1] == "fault"]


def _fault(kind, task, at_step, factor, workers):
    from simdist import faults

    if kind == "kill":
        return [faults.KillWorker(task, at_step)]
    if kind == "straggler":
        return [faults.Straggler(task, float(factor))]
    if kind == "slow link":
        return [faults.SlowLink(task, (task + 1) % workers, float(factor))]
    return []


def run(workers: int = 3, kind: str = "kill", task: int = 1, at_step: int = 4,
        factor: float = 3.0, timeout: float = 0.002, steps: int = STEPS) -> FaultRun:
    """Train ``steps`` steps on a simulated cluster with one fault; never raises for it.

    ``timeout`` is the simulated seconds the survivors wait for a lost task (short, so the
    wait shows beside the steps; SIMDIST_CLUSTER_TIMEOUT's 30 s would dwarf them).
    """
    import simdist as tf
    from simdist import faults
    from simdist.hardware.machine import get_machine

    if kind not in KINDS:
        raise ValueError(f"Unknown fault kind {kind!r}; choose one of {KINDS}.")
    if not 0 <= task < workers:
        raise ValueError(f"task must be a worker of the cluster (0..{workers - 1}), got "
                         f"{task}.")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16 * steps, 4)).astype("float32")
    y = (x @ rng.normal(size=(4, 1))).astype("float32")
    losses, times, error = [], [], None
    with world.fresh("cpu"):
        tf.keras.utils.set_random_seed(0)
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec({"worker": [f"host{i}:2222" for i in range(workers)]}),
            task_type="worker", task_id=0)
        strategy = tf.distribute.MultiWorkerMirroredStrategy(resolver)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                         tf.keras.layers.Dense(1)])
            model.build((None, 4))
            opt = tf.keras.optimizers.SGD(0.05)
        ds = strategy.experimental_distribute_dataset(
            tf.data.Dataset.from_tensor_slices((x, y)).batch(16))

        def step(batch):
            xb, yb = batch
            with tf.GradientTape() as tape:
                per = tf.keras.losses.mean_squared_error(yb, model(xb, training=True))
                loss = tf.nn.compute_average_loss(per, global_batch_size=16)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        devices = strategy.extended._devices
        get_machine().trace.clear()
        with faults.inject(*_fault(kind, task, at_step, factor, workers), timeout=timeout):
            try:
                for batch in ds:
                    start = max(d.clock for d in devices)
                    loss = strategy.reduce("SUM", strategy.run(step, args=(batch,)), axis=None)
                    losses.append(float(loss))
                    times.append(max(d.clock for d in devices) - start)
            except tf.errors.UnavailableError as e:
                error = str(e)
        trace = get_machine().trace
        events = [(e.device, e.cat, e.name, e.start, e.end) for e in trace.events]
        chrome = trace.to_chrome()
    return FaultRun(workers, kind, task, at_step, float(factor), losses, times, error, events,
                    chrome)


def chrome_json(run: FaultRun) -> str:
    return json.dumps(run.chrome_trace)


def row(device: str) -> str:
    """A trace device's row label: ``worker 1`` for ``/job:worker/replica:0/task:1/...``."""
    from simdist.distribute.faults import task_of

    task = task_of(device)
    return f"worker {task}" if task is not None else device


def timeline_figure(fr: FaultRun) -> go.Figure:
    """One row per worker: its ops and sends, the fault's events, the survivors' wait."""
    fig = go.Figure()
    spans = [e for e in fr.events if e[0] != "collective" and "/task:" in e[0]]
    groups = {
        "compute": [e for e in spans if e[1] == "compute"],
        "transfer": [e for e in spans if e[1] == "transfer"],
        "waiting for the lost task": [e for e in spans if e[1] == "fault"
                                      and e[2].startswith("waiting")],
    }
    for name, ev in groups.items():
        if ev:
            fig.add_trace(go.Bar(
                y=[row(e[0]) for e in ev], x=[max(e[4] - e[3], 0.0) * 1e6 for e in ev],
                base=[e[3] * 1e6 for e in ev], orientation="h", name=name,
                marker_color=COLORS[name], hovertext=[e[2] for e in ev],
                hoverinfo="text+x"))
    marks = [e for e in fr.fault_events if not e[2].startswith("waiting")]
    if marks:
        fig.add_trace(go.Scatter(
            x=[e[3] * 1e6 for e in marks],
            y=[row(e[0]) if "/task:" in e[0] else "collective" for e in marks],
            mode="markers", name="fault", marker=dict(color=COLORS["fault"], size=14,
                                                      symbol="x"),
            hovertext=[e[2] for e in marks], hoverinfo="text"))
    fig.update_layout(barmode="overlay", height=300, title="Per-worker timeline",
                      xaxis_title="simulated time (us)", margin=dict(l=10, r=10, t=40, b=10),
                      yaxis=dict(categoryorder="category descending"))
    return fig


def step_figure(fr: FaultRun) -> go.Figure:
    """Simulated time of every finished step (a straggler or slow link stretches them)."""
    fig = go.Figure(go.Bar(x=list(range(len(fr.step_times))),
                           y=[t * 1e6 for t in fr.step_times], name="step time",
                           marker_color="#495057"))
    fig.update_layout(height=260, title="Simulated time per step", xaxis_title="step",
                      yaxis_title="us", margin=dict(l=10, r=10, t=40, b=10))
    return fig
