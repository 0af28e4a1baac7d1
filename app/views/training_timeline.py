"""Page 4, training timeline: model.fit under a strategy; loss, Gantt chart, scaling.

Glossary:
  trace      -- every compute op, transfer and collective step the simulated GPUs did.
  efficiency -- weak scaling: step time on 1 GPU over step time on N (same per-GPU batch).
"""

import common
import streamlit as st

from simdist.viz import timeline
from simdist.viz import timeline_compute as compute

PAGE = "timeline"
common.init(PAGE)
st.title("Training timeline")
st.markdown("`model.fit` of a small Keras model (Dense 32 -> Dense 1, 256 examples, 16 "
            "examples per replica) on simulated GPUs: every op, transfer and all-reduce "
            "step lands in a trace, drawn below and downloadable for Perfetto.")

# two rows: "MirroredStrategy(HierarchicalCopyAllReduce)" whole at 1024 px
c = st.columns([2, 1]) + st.columns(2)
strategy = common.widget(PAGE, "strategy", c[0])
gpu = common.widget(PAGE, "gpu", c[1])
# OneDeviceStrategy has one device whatever the machine holds: no GPU-count control
n = common.widget(PAGE, "n", c[2], hi=1 if strategy == "OneDeviceStrategy" else None)
epochs = common.widget(PAGE, "epochs", c[3])
common.sync_url(PAGE, {"strategy": strategy, "gpu": gpu, "n": n, "epochs": epochs})


@st.cache_resource(max_entries=32, show_spinner="training on simulated GPUs...")
def get_run(strategy, n, gpu, epochs):
    return timeline.train(strategy, n, gpu, epochs)


def get_scaling(strategy, gpu):
    """Weak scaling: one epoch on 1, 2, 4 and 8 GPUs (16 examples per replica), the
    trainings get_run caches (the page's own run among them when it has one epoch)."""
    return [get_run(strategy, k, gpu, 1) for k in (1, 2, 4, 8)]


# Figures are drawn once per run (and window) and cached as well: plotly validates every
# value it is given, and drawing them took most of a rerun that changed nothing (moving
# the window, another page's visit). st.plotly_chart copies a figure, never changes it.
def _window(run, span):
    return run.sim_time * span[0] / 100, run.sim_time * max(span[1], span[0] + 1) / 100


@st.cache_resource(max_entries=64, show_spinner=False)
def get_figure(name, strategy, n, gpu, epochs, span=(0, 100)):
    """``loss``, ``busy`` or (in the time window ``span``, % of the run) ``gantt``."""
    run = get_run(strategy, n, gpu, epochs)
    if name == "gantt":
        return timeline.gantt_figure(run, _window(run, span))
    return {"loss": timeline.loss_figure, "busy": timeline.busy_figure}[name](run)


@st.cache_resource(max_entries=8, show_spinner=False)
def get_scaling_figure(strategy, gpu):
    return timeline.efficiency_figure(get_scaling(strategy, gpu))


@st.cache_resource(max_entries=1, show_spinner=False)
def get_kind_figure():
    return compute.kind_figure()


run = get_run(strategy, n, gpu, epochs)
st.session_state["timeline.run"] = run
m = st.columns(2) + st.columns(2)      # two rows: "3.785 ms" not cut at 1024 px
m[0].metric("final loss", f"{run.losses[-1]:.4f}")
m[1].metric("optimizer steps", run.steps)
m[2].metric("simulated time", f"{run.sim_time * 1e3:.3f} ms")
m[3].metric("step time", f"{run.step_time * 1e6:.1f} us")
replicas = 1 if strategy == "OneDeviceStrategy" else n
per_epoch = run.steps // epochs
st.markdown(f"**Why {run.steps} steps:** `model.fit(batch_size=16 x replicas)` keeps 16 "
            f"examples per replica, so the global batch grows with the replicas: {replicas} "
            f"x 16 = {16 * replicas}, and 256 examples make {per_epoch} "
            f"step{'s' if per_epoch != 1 else ''} per epoch. OneDeviceStrategy (1 replica) "
            "therefore runs 16 steps an epoch where MirroredStrategy on 4 GPUs runs 4.")
share = compute.launch_share(run, gpu)
ops = compute.compute_ops(run)
st.markdown(f"**Launch-bound:** this tiny model's {ops} GPU ops per step each pay the fixed "
            f"5 us launch; launches are **{share:.2%}** of its compute time, so V100, A100 "
            "and H100 (same launch cost, 15.7 / 19.5 / 67 TFLOPS) give nearly the same step "
            "time. The GPU kind shows only when compute dominates: see the chart at the end.")

left, right = st.columns(2)
left.plotly_chart(get_figure("loss", strategy, n, gpu, epochs), key="loss", width="stretch")
right.plotly_chart(get_figure("busy", strategy, n, gpu, epochs), key="busy", width="stretch")
span = st.slider("time window (% of the run)", 0, 100, (0, 100), key="timeline.window")
st.plotly_chart(get_figure("gantt", strategy, n, gpu, epochs, tuple(span)), key="gantt",
                width="stretch")
st.download_button("Download Chrome trace (open in Perfetto)", timeline.chrome_json(run),
                   file_name="simdist_trace.json", mime="application/json")
if strategy != "OneDeviceStrategy":
    st.plotly_chart(get_scaling_figure(strategy, gpu), key="efficiency", width="stretch")
st.plotly_chart(get_kind_figure(), key="kinds", width="stretch")
speedup = (compute.layer_step_time("V100", 16384, 64)
           / compute.layer_step_time("H100", 16384, 64))
st.caption("Priced by the same cost model as the runs above (launch + max(FLOPs / FLOP/s, "
           "bytes / memory bandwidth) per op): up to a few hundred units wide the three "
           "GPUs take the same time (launches); at 16384 units the H100 is "
           f"{speedup:.1f}x faster than the V100.")
