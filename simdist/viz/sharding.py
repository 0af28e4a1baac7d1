"""Figures of how ``experimental_distribute_dataset`` splits a batched dataset.

Glossary:
  plan        -- simdist.data's DistributionPlan: for each step, the dataset elements each
                 replica of each worker received (TF's recorded split rules).
  full batch  -- ceil(global_batch / replicas) rows, what a replica gets from a full batch.
  partial     -- fewer rows than a full per-replica batch (the last batch, or a remainder).
  empty       -- a replica that got no rows at this step (TF's split can leave one empty).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from simdist.data.distribute_rules import DistributionPlan, plan_distribution
from simdist.data.options import AutoShardPolicy

POLICIES = [p.name for p in AutoShardPolicy]
# The page's source is Dataset.range, which reads no files: FILE could only raise TF's
# NotFoundError (several workers) or do nothing (one), so the page does not offer it.
RANGE_POLICIES = [p for p in POLICIES if p != "FILE"]


def make_plan(dataset_size: int, global_batch: int, num_replicas: int, num_workers: int = 1,
              drop_remainder: bool = False, policy: str = "AUTO") -> DistributionPlan:
    """The split TF makes (see simdist.data.distribute_rules.plan_distribution)."""
    return plan_distribution(int(dataset_size), int(global_batch), int(num_replicas),
                             int(num_workers), bool(drop_remainder),
                             AutoShardPolicy[policy])


def full_size(plan: DistributionPlan) -> int:
    return -(-plan.global_batch // plan.num_replicas)


def replica_labels(plan: DistributionPlan) -> list[str]:
    rpw = plan.replicas_per_worker
    return [f"worker {g // rpw} / replica {g % rpw}" for g in range(plan.num_replicas)]


def batch_kind(plan: DistributionPlan, size: int) -> str:
    """``full``, ``partial`` or ``empty`` for a per-replica batch of ``size`` rows."""
    return "empty" if size == 0 else ("partial" if size < full_size(plan) else "full")


def step_figure(plan: DistributionPlan, step: int) -> go.Figure:
    """What every replica got at ``step``: one cell per row, labelled with its element."""
    labels = replica_labels(plan)
    width = max([full_size(plan)] + [rb.size for s in plan.steps for rb in s] + [1])
    z = np.full((plan.num_replicas, width), np.nan)
    text = [[""] * width for _ in labels]
    kinds = []
    if plan.steps:
        step = min(max(int(step), 0), len(plan.steps) - 1)
        for rb in plan.steps[step]:
            for j, e in enumerate(rb.elements):
                z[rb.global_replica, j] = e
                text[rb.global_replica][j] = str(e)
            kinds.append(batch_kind(plan, rb.size))
    ylab = [f"{lab} ({k})" for lab, k in zip(labels, kinds or [""] * len(labels))]
    fig = go.Figure(go.Heatmap(z=np.where(np.isnan(z), None, z).tolist(), text=text,
                               texttemplate="%{text}", y=ylab,
                               x=[f"row {j}" for j in range(width)], colorscale="Viridis",
                               zmin=0, zmax=max(plan.dataset_size - 1, 1), showscale=False,
                               hovertemplate="%{y}<br>%{x}: element %{z}<extra></extra>"))
    for r, kind in enumerate(kinds):
        if kind != "full":
            fig.add_shape(type="rect", x0=-0.5, x1=width - 0.5, y0=r - 0.5, y1=r + 0.5,
                          line=dict(color="#e03131" if kind == "empty" else "#f08c00", width=3))
    n = len(plan.steps)
    fig.update_layout(title=f"Step {min(step, max(n - 1, 0)) + 1} of {n}: per-replica batches"
                      if n else "No steps: the dataset yields no batch",
                      height=120 + 40 * plan.num_replicas, yaxis=dict(autorange="reversed"),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def sizes_figure(plan: DistributionPlan, step: int) -> go.Figure:
    """Per-replica batch size for every step; empty cells red, partial ones orange."""
    sizes = np.array(plan.batch_sizes(), dtype=float).reshape(len(plan.steps),
                                                              plan.num_replicas)
    full = full_size(plan)
    colour = np.where(sizes == 0, 0.0, np.where(sizes < full, 0.5, 1.0))
    fig = go.Figure(go.Heatmap(
        z=colour.T.tolist(), text=sizes.T.astype(int).tolist(), texttemplate="%{text}",
        showscale=False,
        colorscale=[[0, "#ffa8a8"], [0.5, "#ffd8a8"], [1, "#b2f2bb"]], zmin=0, zmax=1,
        x=[f"step {s + 1}" for s in range(len(plan.steps))], y=replica_labels(plan),
        hovertemplate="%{y}, %{x}: %{text} rows<extra></extra>"))
    if plan.steps:
        s = min(max(int(step), 0), len(plan.steps) - 1)
        fig.add_shape(type="rect", x0=s - 0.5, x1=s + 0.5, y0=-0.5,
                      y1=plan.num_replicas - 0.5, line=dict(color="black", width=3))
    fig.update_layout(title="Rows per replica per step<br><sup>green full, orange partial, "
                            "red empty</sup>",
                      height=140 + 30 * plan.num_replicas, yaxis=dict(autorange="reversed"),
                      margin=dict(l=10, r=10, t=60, b=10))
    return fig


def flow_figure(plan: DistributionPlan, step: int) -> go.Figure:
    """Each dataset element and the replica it reached, up to ``step`` (grey: not yet)."""
    x, y, c = [], [], []
    for s, st in enumerate(plan.steps[:max(int(step), 0) + 1]):
        for rb in st:
            x += list(rb.elements)
            y += [rb.global_replica] * rb.size
            c += [s + 1] * rb.size
    seen = set(x)
    rest = [e for e in range(plan.dataset_size) if e not in seen]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=rest, y=[-1] * len(rest), mode="markers", name="not yet read",
                             marker=dict(color="#ced4da", size=7)))
    fig.add_trace(go.Scatter(x=x, y=y, mode="markers", name="delivered",
                             marker=dict(color=c, colorscale="Viridis", size=9,
                                         colorbar=dict(title="step", dtick=1)),
                             hovertemplate="element %{x} -> replica %{y}<extra></extra>"))
    fig.update_layout(title="Elements flowing into replicas", height=300,
                      xaxis_title="dataset element", margin=dict(l=10, r=10, t=40, b=10),
                      # Every replica's row, an empty one's too, and a row for the unread.
                      yaxis=dict(title="global replica", range=[-1.5, plan.num_replicas - 0.5],
                                 tickvals=list(range(-1, plan.num_replicas)),
                                 ticktext=["not read"] + list(map(str, range(
                                     plan.num_replicas)))), showlegend=False)
    return fig
