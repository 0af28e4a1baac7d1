"""Asynchronous parameter-server training, run and drawn: who pulled and pushed what, when.

Glossary:
  PSRun        -- one run of a small custom loop (TF's tutorial pattern: schedule steps on a
                  ClusterCoordinator, join) on simulated workers and ps: every step's worker,
                  start and end, the versions it read and wrote, its staleness; every
                  pull and push on the ps.
  timeline     -- one row per worker (a bar per scheduled step, coloured by staleness, red
                  when its worker failed under it) and per ps (a mark per pull and push).
  versions     -- the version of one variable over time (it rises at each push) and the
                  version each pull saw: the vertical gap is how stale that read was.
  straggler    -- the last worker runs ``slowdown`` times slower: it finishes fewer steps,
                  and what it pushes was computed from older parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from simdist.viz import world
from simdist.viz.loss_figures import replica_colour

PS_COLORS = {"pull": "#1c7ed6", "push": "#e8590c"}


@dataclass
class PSRun:
    """What one asynchronous run produced (see the module glossary)."""

    num_workers: int
    num_ps: int
    slowdown: float
    steps: list
    events: list
    losses: list
    sim_time: float
    failed_worker: int | None

    @property
    def var(self) -> str:
        """The variable the version chart follows: the first layer's kernel."""
        return next((e["var"] for e in self.events if "kernel" in e["var"]), "")

    @property
    def staleness(self) -> list:
        """Each completed step's staleness (the most over the variables it wrote)."""
        return [max(s["staleness"].values(), default=0) for s in self.steps
                if s["status"] == "ok"]


def _cluster(tf, num_workers, num_ps):
    """The tutorial's in-process cluster (simulated servers, so the ports are nominal)."""
    spec = tf.train.ClusterSpec({"worker": [f"localhost:{2222 + i}" for i in range(num_workers)],
                                 "ps": [f"localhost:{3333 + i}" for i in range(num_ps)]})
    for job, n in (("worker", num_workers), ("ps", num_ps)):
        for i in range(n):
            tf.distribute.Server(spec, job_name=job, task_index=i, protocol="grpc")
    return tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")


def train(num_workers: int = 3, num_ps: int = 2, slowdown: float = 3.0, steps: int = 24,
          seed: int = 0, fail: bool = False) -> PSRun:
    """Train a small regression model asynchronously and collect the simulation's trace.

    ``fail``: after a third of the steps, worker 0 fails (its running step is rescheduled
    on another worker) and comes back a few steps later.
    """
    import simdist as tf

    rng = np.random.default_rng(seed)
    x = rng.normal(size=(256, 8)).astype("float32")
    y = (x @ rng.normal(size=(8, 1))).astype("float32")
    with world.fresh("cpu"):
        tf.keras.utils.set_random_seed(seed)
        strategy = tf.distribute.ParameterServerStrategy(_cluster(tf, num_workers, num_ps))
        coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)
        sim = strategy.extended.simulation
        sim.set_worker_speed(num_workers - 1, slowdown)
        sim.step_jitter_s, _ = 2e-5, sim.set_seed(seed)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                         tf.keras.layers.Dense(1)])
            model.build((None, 8))
            optimizer = tf.keras.optimizers.SGD(0.05)

        @tf.function
        def step_fn(iterator):
            def replica_fn(features, labels):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(features) - labels))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
                return loss

            return strategy.run(replica_fn, args=next(iterator))

        def dataset_fn():
            # Unseeded: each worker shuffles its copy its own way (TF's docs' advice).
            return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(256).batch(16).repeat()

        iterator = iter(coordinator.create_per_worker_dataset(dataset_fn))
        first = steps // 3 if fail else steps
        results = [coordinator.schedule(step_fn, args=(iterator,)) for _ in range(first)]
        coordinator.join()
        if fail:  # mid-way through worker 0's next step; back after ~4 steps
            step = float(np.mean([s["end"] - s["start"] for s in sim.steps]))
            sim.fail_worker(0, at_time=sim.now() + step / 2, recover_after=4 * step)
            results += [coordinator.schedule(step_fn, args=(iterator,))
                        for _ in range(steps - first)]
            coordinator.join()
        losses = [float(r.fetch()) for r in results]
        return PSRun(num_workers, num_ps, slowdown, list(sim.steps), list(sim.events),
                     losses, sim.now(), 0 if fail else None)


def timeline_figure(run: PSRun) -> go.Figure:
    """Workers' steps (coloured by staleness) and the ps's pulls and pushes over time."""
    fig = go.Figure()
    ok = [s for s in run.steps if s["status"] == "ok"]
    failed = [s for s in run.steps if s["status"] != "ok"]
    stale = run.staleness
    fig.add_trace(go.Bar(
        y=[f"worker {s['worker']}" for s in ok], x=[(s["end"] - s["start"]) * 1e6 for s in ok],
        base=[s["start"] * 1e6 for s in ok], orientation="h", name="step",
        marker=dict(color=stale, colorscale="YlOrRd", cmin=0, cmax=max(stale + [1]),
                    colorbar=dict(title="staleness", x=1.02), line=dict(width=1, color="#333")),
        hovertext=[_step_text(s) for s in ok], hoverinfo="text"))
    if failed:
        fig.add_trace(go.Bar(
            y=[f"worker {s['worker']}" for s in failed],
            x=[(s["end"] - s["start"]) * 1e6 for s in failed],
            base=[s["start"] * 1e6 for s in failed], orientation="h",
            name="worker failed: rescheduled", marker=dict(color="#fa5252", pattern_shape="x"),
            hovertext=[_step_text(s) for s in failed], hoverinfo="text"))
    for kind, color in PS_COLORS.items():
        ev = [e for e in run.events if e["kind"] == kind]
        fig.add_trace(go.Scatter(
            y=[f"ps {e['ps']}" for e in ev],
            x=[(e["start"] if kind == "pull" else e["end"]) * 1e6 for e in ev],
            mode="markers", name=kind, marker=dict(
                color=color, size=8, symbol="triangle-down" if kind == "pull" else "triangle-up"),
            hovertext=[f"{kind} {e['var']} v{e['version']} by worker {e['worker']}"
                       for e in ev], hoverinfo="text"))
    rows = [f"ps {i}" for i in range(run.num_ps)][::-1] + \
        [f"worker {i}" for i in range(run.num_workers)][::-1]
    fig.update_layout(barmode="overlay", height=120 + 40 * len(rows),
                      title="Workers on their own clocks; the ps serve pulls and pushes",
                      xaxis_title="simulated time (us)", legend=dict(orientation="h", y=-0.25),
                      yaxis=dict(categoryorder="array", categoryarray=rows),
                      margin=dict(l=10, r=10, t=50, b=10))
    return fig


def _step_text(s) -> str:
    read = ", ".join(f"{k.split(':')[0]} v{v}" for k, v in s["read"].items())
    wrote = ", ".join(f"{k.split(':')[0]} v{v}" for k, v in s["wrote"].items())
    return (f"step {s['step']} (function {s['closure']}) on worker {s['worker']}: "
            f"{s['status']}<br>read {read}<br>wrote {wrote or 'nothing'}<br>"
            f"staleness {max(s['staleness'].values(), default=0)}")


def version_figure(run: PSRun, var: str | None = None) -> go.Figure:
    """The version of ``var`` over time, and the version each worker's pull saw."""
    var = var or run.var
    pushes = [e for e in run.events if e["var"] == var and e["kind"] == "push"]
    fig = go.Figure(go.Scatter(
        x=[0.0] + [e["end"] * 1e6 for e in pushes], y=[0] + [e["version"] for e in pushes],
        mode="lines", line_shape="hv", name="current version", line=dict(color="#495057")))
    for w in range(run.num_workers):
        pulls = [e for e in run.events if e["var"] == var and e["kind"] == "pull"
                 and e["worker"] == w]
        fig.add_trace(go.Scatter(x=[e["start"] * 1e6 for e in pulls],
                                 y=[e["version"] for e in pulls], mode="markers",
                                 name=f"worker {w} read",
                                 marker=dict(size=7, color=replica_colour(w))))
    fig.update_layout(height=320, title=f"Versions of {var.split(':')[0]}<br><sup>a read below the "
                      "line is stale</sup>", xaxis_title="simulated time (us)",
                      yaxis_title="version", margin=dict(l=10, r=10, t=60, b=10))
    return fig


def staleness_figure(run: PSRun) -> go.Figure:
    """How stale each worker's pushes were (writes by others between its read and write)."""
    fig = go.Figure()
    for w in range(run.num_workers):
        vals = [max(s["staleness"].values(), default=0) for s in run.steps
                if s["worker"] == w and s["status"] == "ok"]
        counts = np.bincount(vals, minlength=1) if vals else np.zeros(1, int)
        fig.add_trace(go.Bar(x=list(range(len(counts))), y=counts.tolist(),
                             name=f"worker {w} ({len(vals)} steps)",
                             marker=dict(color=replica_colour(w))))   # as in the versions chart
    # legend below the bars: beside them it left the plot too narrow for its axis title
    # in a half-width column at 1024 px
    fig.update_layout(barmode="group", height=340, title="Staleness of each worker's pushes",
                      xaxis_title="others' updates between read and write",
                      yaxis_title="steps", margin=dict(l=10, r=10, t=50, b=10),
                      legend=dict(orientation="h", y=-0.3))
    return fig
